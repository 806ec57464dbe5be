#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class InferenceConfig;
class Program;

/// The shape one program input (a `pd_op.data` / `pd_op.feed` of the top block) gets, and why.
struct InputShape
{
    enum class Origin : unsigned char {
        Static, ///< the declared type has no dynamic dim
        Chosen, ///< given by the user (--shape, the sources dialog)
        ConfigShapes, ///< the `.yml`'s TensorRT dynamic shapes (the opt shape)
        ConfigImage, ///< the `.yml`'s preprocessing size, for an image-shaped input
        Batch, ///< only the first (batch) dim is dynamic: 1
        Files, ///< read from files (a bundle's inputs/, a .npy folder): their shape
        Image, ///< the image input: dynamic dims take the image's size
        Unresolved, ///< dynamic dims nothing fills
    };

    std::string name;
    std::vector<int64_t> declared;
    /// `declared` with the dynamic dims filled; Unresolved keeps -1 where nothing applies.
    std::vector<int64_t> shape;
    Origin origin = Origin::Static;
    /// Where a default came from: "PP-OCRv5_mobile_det_infer.inference.yml: Hpi....x (opt)".
    std::string note;
    /// Image-shaped (ImageTensor::layoutOf): a float tensor of rank 4 with 1 or 3 channels.
    bool imageLike = false;
    /// Image-shaped: the channel dim (1 for NCHW, 3 for NHWC); -1 otherwise.
    int channelDim = -1;

    bool resolved() const { return origin != Origin::Unresolved; }
    bool dynamic() const;
    /// Whether the run gives the input `shape` (Chosen, ConfigShapes, ConfigImage, Batch).
    bool shapesRun() const;
    /// "static", "--shape", ".yml", ".yml preprocessing", "batch 1", "files", "image size",
    /// "needs a shape".
    static const char *originText(Origin origin);
    /// For JSON: "static", "option", "yml", "yml_preprocess", "batch", "files", "image",
    /// "unresolved".
    static const char *originKey(Origin origin);
};

/// Resolves the dynamic (-1) dims of a program's inputs, never silently to 1: a shape chosen by
/// the user, else the `.yml` beside the program (its TensorRT opt shape for that input, or its
/// preprocessing size for an image-shaped one, batch 1), else 1 for a dynamic batch dim alone;
/// anything else stays Unresolved and the caller asks the user. O(inputs).
class InputShapes
{
public:
    /// One entry per dense-tensor input, in program order. A chosen shape for a name that is not
    /// an input, of another rank, with a non-positive dim or disagreeing with a static dim gives
    /// an error ("x: ...") in `errors` and is not used.
    static std::vector<InputShape> resolve(const Program &program,
        const std::map<std::string, std::vector<int64_t>> &chosen, const InferenceConfig *config,
        std::vector<std::string> &errors);

    /// "1x3x640x640" → dims (positive integers separated by 'x' or ','); nullopt with `error`.
    static std::optional<std::vector<int64_t>> parseDims(std::string_view text, std::string &error);
    /// "NAME=1x3x640x640" → (NAME, dims); nullopt with `error`.
    static std::optional<std::pair<std::string, std::vector<int64_t>>> parseAssignment(
        std::string_view text, std::string &error);
    /// "1x3x640x640"; dynamic dims as "?" ("?x3x?x?").
    static std::string dimsText(const std::vector<int64_t> &dims);
    /// An example for an input's shape: dynamic dims as 1 (batch), 3 (channels), 640 (image
    /// height and width) or N ("x=1x3x640x640", "ids=1xN").
    static std::string example(const InputShape &shape);
    /// "x (?x3x?x?)" for each input in `shapes` that is not resolved, joined by ", ".
    static std::string unresolvedText(const std::vector<InputShape> &shapes);
};

} // namespace ps
