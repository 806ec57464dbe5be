#pragma once

#include "core/io/yamlnode.h"
#include "core/ir/diagnostic.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps {

/// What the `.yml` that PaddleX / PaddleOCR / PaddleDetection save beside an inference model
/// says about its input shapes:
///  * `dynamicShapes`: the TensorRT shape ranges per input name, `[min, opt, max]` under
///    `Hpi.backend_configs.paddle_infer.trt_dynamic_shapes` or `...tensorrt.dynamic_shapes`
///    (any mapping key `trt_dynamic_shapes` / `dynamic_shapes` is searched);
///  * `imageSize`: the height and width the preprocessing resizes the image to, from the last
///    transform that fixes them in `Preprocess` (PaddleDetection: `Resize` `target_size` [h, w]),
///    `PreProcess.transform_ops` (PaddleOCR / PaddleClas: `RecResizeImg` `image_shape` [c, h, w],
///    `DetResizeForTest` `image_shape` [h, w] or `resize_long` / `limit_side_len` n (n x n,
///    rounded up to a multiple of 32 as DetResizeForTest rounds), `ResizeImage` `size` /
///    `resize_short`, `CropImage` / `CenterCrop` `size`) or `Deploy.transforms` (PaddleSeg).
class InferenceConfig
{
public:
    struct ShapeRange
    {
        std::vector<int64_t> min;
        std::vector<int64_t> opt;
        std::vector<int64_t> max;
        std::string where; ///< "Hpi.backend_configs.paddle_infer.trt_dynamic_shapes.x"
    };
    struct ImageSize
    {
        int64_t height = 0;
        int64_t width = 0;
        std::string where; ///< "PreProcess.transform_ops[2].DetResizeForTest.resize_long"
    };

    std::string path;
    std::string modelName; ///< Global.model_name, when given
    std::map<std::string, ShapeRange> dynamicShapes;
    std::optional<ImageSize> imageSize;

    /// The shapes in a parsed document (`path` names it in messages). Entries of the wrong form
    /// are skipped with a warning.
    static InferenceConfig fromYaml(
        const YamlNode &root, const std::string &path, DiagnosticList &diagnostics);
    /// `<dir>/<stem>.yml` (else `.yaml`) beside the program file (`inference.json` →
    /// `inference.yml`, as paddle.jit.save and PaddleX name them), read and parsed; null when
    /// there is none, or (with the error in `diagnostics`) when it does not parse.
    static std::shared_ptr<const InferenceConfig> nextTo(
        const std::string &programPath, DiagnosticList &diagnostics);
    /// The file nextTo() reads for `programPath`, or "" when none exists.
    static std::string fileNextTo(const std::string &programPath);
};

} // namespace ps
