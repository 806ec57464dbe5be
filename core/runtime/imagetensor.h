#pragma once

#include "core/ir/type.h"
#include "core/runtime/image.h"
#include "core/runtime/tensor.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ps {

/// Turns an image into the input tensor of a vision model, the preprocessing of Paddle's and
/// torchvision's classification transforms:
///  * the declared type is a float tensor (float16/bfloat16/float32/float64) of rank 4, laid out
///    NCHW when dim 1 is 1 or 3 (or -1), NHWC when the last dim is 1 or 3;
///  * dynamic (-1) dims take the image's size: N = 1, H and W the image's, C its channel count;
///    a static N > 1 repeats the image;
///  * gray <-> RGB as the channel count asks (gray = 0.299 R + 0.587 G + 0.114 B, ITU-R 601 as
///    cv2 and PIL compute it; RGB from gray repeats it);
///  * bilinear resize to H x W with align_corners=false (half-pixel centres, source coordinates
///    clamped at 0, the last row/column repeated), as cv2.resize INTER_LINEAR and Paddle's
///    bilinear_interp with align_mode 0 compute it, in float on the 8-bit samples (no
///    antialiasing when shrinking, no rounding back to 8 bits);
///  * scaled to [0, 1], then (ImageNet normalisation, the default) (v - mean[c]) / std[c] with
///    mean (0.485, 0.456, 0.406), std (0.229, 0.224, 0.225); a 1-channel input uses their
///    averages (0.449, 0.226);
///  * cast to the declared dtype.
class ImageTensor
{
public:
    enum class Layout : unsigned char { NCHW, NHWC };
    enum class Normalization : unsigned char { ImageNet, None };

    static constexpr std::array<double, 3> kImageNetMean { 0.485, 0.456, 0.406 };
    static constexpr std::array<double, 3> kImageNetStd { 0.229, 0.224, 0.225 };

    /// The layout of an image-shaped `type`, or nullopt with `why` set (not a dense tensor, not
    /// float, rank other than 4, no 1- or 3-channel dim).
    static std::optional<Layout> layoutOf(Type type, std::string &why);
    /// The concrete shape `type` gets for `image` (dynamic dims resolved).
    static std::vector<int64_t> shapeFor(Type type, Layout layout, const Image &image);

    /// Interleaved (HWC) float samples of `image` with `channels` (1 or 3) channels, resized
    /// bilinearly to `width` x `height`; values stay on the 0..255 scale.
    static std::vector<float> resize(const Image &image, int width, int height, int channels);

    /// The input tensor for `type` (see the class comment); undefined with `error` set when the
    /// type is not image-shaped or the image is invalid.
    static Tensor fromImage(const Image &image, Type type, Normalization normalization, std::string &error);

    /// "imagenet" / "none", and back (nullopt for anything else).
    static const char *normalizationName(Normalization normalization);
    static std::optional<Normalization> parseNormalization(const std::string &text);
};

} // namespace ps
