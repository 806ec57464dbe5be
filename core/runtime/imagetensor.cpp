#include "core/runtime/imagetensor.h"

#include "core/ir/datatypekind.h"

#include <algorithm>
#include <cmath>

namespace ps {
namespace {

bool isChannelCount(int64_t d)
{
    return d == 1 || d == 3;
}

/// One axis of the half-pixel bilinear map: for each output index the two source indices and
/// the weight of the second.
struct Taps
{
    std::vector<int> lo, hi;
    std::vector<float> frac;
};

Taps taps(int in, int out)
{
    Taps t;
    t.lo.resize(size_t(out));
    t.hi.resize(size_t(out));
    t.frac.resize(size_t(out));
    const double scale = double(in) / double(out);
    for (int i = 0; i < out; ++i) {
        double src = (i + 0.5) * scale - 0.5;
        if (src < 0)
            src = 0;
        int lo = int(std::floor(src));
        if (lo > in - 1)
            lo = in - 1;
        t.lo[size_t(i)] = lo;
        t.hi[size_t(i)] = std::min(lo + 1, in - 1);
        t.frac[size_t(i)] = float(src - lo);
    }
    return t;
}

} // namespace

std::optional<ImageTensor::Layout> ImageTensor::layoutOf(Type type, std::string &why)
{
    if (!type || type.kind() != Type::Kind::DenseTensor) {
        why = "not a dense tensor";
        return std::nullopt;
    }
    if (!isFloatingPoint(type.dtype())) {
        why = "an image becomes a float tensor, the input is " + std::string(phiName(type.dtype()));
        return std::nullopt;
    }
    const std::vector<int64_t> &d = type.dims();
    if (d.size() != 4) {
        why = "an image becomes a tensor of rank 4 (NCHW or NHWC), the input has rank "
            + std::to_string(d.size()) + " " + shapeText(d);
        return std::nullopt;
    }
    if (isChannelCount(d[1]))
        return Layout::NCHW;
    if (isChannelCount(d[3]))
        return Layout::NHWC;
    if (d[1] == -1)
        return Layout::NCHW;
    why = "neither dim 1 (NCHW) nor dim 3 (NHWC) of " + shapeText(d) + " is 1 or 3 channels";
    return std::nullopt;
}

std::vector<int64_t> ImageTensor::shapeFor(Type type, Layout layout, const Image &image)
{
    std::vector<int64_t> shape = type.dims();
    const size_t c = layout == Layout::NCHW ? 1 : 3;
    const size_t h = layout == Layout::NCHW ? 2 : 1;
    const size_t w = h + 1;
    if (shape[0] < 0)
        shape[0] = 1;
    if (shape[c] < 0)
        shape[c] = image.channels;
    if (shape[h] < 0)
        shape[h] = image.height;
    if (shape[w] < 0)
        shape[w] = image.width;
    return shape;
}

std::vector<float> ImageTensor::resize(const Image &image, int width, int height, int channels)
{
    const int inW = image.width, inH = image.height;
    // Channel conversion first (both it and the resize are linear, so the order only changes
    // rounding, and there is none in float).
    std::vector<float> src(size_t(inW) * size_t(inH) * size_t(channels));
    for (size_t p = 0, n = size_t(inW) * size_t(inH); p < n; ++p) {
        const uint8_t *px = image.pixels.data() + p * size_t(image.channels);
        float *out = src.data() + p * size_t(channels);
        if (image.channels == channels) {
            for (int c = 0; c < channels; ++c)
                out[c] = px[c];
        } else if (channels == 1) {
            out[0] = 0.299f * px[0] + 0.587f * px[1] + 0.114f * px[2];
        } else {
            out[0] = out[1] = out[2] = px[0];
        }
    }
    const Taps tx = taps(inW, width), ty = taps(inH, height);
    std::vector<float> dst(size_t(width) * size_t(height) * size_t(channels));
    for (int y = 0; y < height; ++y) {
        const float fy = ty.frac[size_t(y)];
        const float *row0 = src.data() + size_t(ty.lo[size_t(y)]) * size_t(inW) * size_t(channels);
        const float *row1 = src.data() + size_t(ty.hi[size_t(y)]) * size_t(inW) * size_t(channels);
        float *out = dst.data() + size_t(y) * size_t(width) * size_t(channels);
        for (int x = 0; x < width; ++x) {
            const float fx = tx.frac[size_t(x)];
            const size_t x0 = size_t(tx.lo[size_t(x)]) * size_t(channels);
            const size_t x1 = size_t(tx.hi[size_t(x)]) * size_t(channels);
            for (int c = 0; c < channels; ++c) {
                const float top = row0[x0 + size_t(c)] + fx * (row0[x1 + size_t(c)] - row0[x0 + size_t(c)]);
                const float bottom
                    = row1[x0 + size_t(c)] + fx * (row1[x1 + size_t(c)] - row1[x0 + size_t(c)]);
                out[size_t(x) * size_t(channels) + size_t(c)] = top + fy * (bottom - top);
            }
        }
    }
    return dst;
}

Tensor ImageTensor::fromImage(const Image &image, Type type, Normalization normalization, std::string &error)
{
    if (!image.valid()) {
        error = "the image is empty or not 1- or 3-channel 8-bit";
        return {};
    }
    std::string why;
    const std::optional<Layout> layout = layoutOf(type, why);
    if (!layout) {
        error = "cannot make an image input of "
            + std::string(phiName(type ? type.dtype() : DataType::Undefined))
            + (type ? shapeText(type.dims()) : std::string()) + ": " + why;
        return {};
    }
    const std::vector<int64_t> shape = shapeFor(type, *layout, image);
    const bool nchw = *layout == Layout::NCHW;
    const int64_t n = shape[0];
    const int64_t channels = shape[nchw ? 1 : 3];
    const int64_t height = shape[nchw ? 2 : 1];
    const int64_t width = shape[nchw ? 3 : 2];
    if (!isChannelCount(channels) || height <= 0 || width <= 0 || n <= 0 || height > 65536 || width > 65536) {
        error = "cannot make an image input of shape " + shapeText(shape);
        return {};
    }
    const std::vector<float> pixels = resize(image, int(width), int(height), int(channels));
    double mean[3] = { 0, 0, 0 }, stddev[3] = { 1, 1, 1 };
    if (normalization == Normalization::ImageNet) {
        for (int c = 0; c < 3; ++c) {
            mean[c] = channels == 1 ? 0.449 : kImageNetMean[size_t(c)];
            stddev[c] = channels == 1 ? 0.226 : kImageNetStd[size_t(c)];
        }
    }
    const size_t plane = size_t(height) * size_t(width);
    const size_t perImage = plane * size_t(channels);
    std::vector<double> values(perImage * size_t(n));
    for (size_t p = 0; p < plane; ++p) {
        for (size_t c = 0; c < size_t(channels); ++c) {
            const double v = (double(pixels[p * size_t(channels) + c]) / 255.0 - mean[c]) / stddev[c];
            values[nchw ? c * plane + p : p * size_t(channels) + c] = v;
        }
    }
    for (int64_t b = 1; b < n; ++b)
        std::copy_n(values.begin(), perImage, values.begin() + ptrdiff_t(size_t(b) * perImage));
    try {
        return Tensor::fromDoubles(shape, type.dtype(), values);
    } catch (const std::exception &e) {
        error = e.what();
        return {};
    }
}

const char *ImageTensor::normalizationName(Normalization normalization)
{
    return normalization == Normalization::ImageNet ? "imagenet" : "none";
}

std::optional<ImageTensor::Normalization> ImageTensor::parseNormalization(const std::string &text)
{
    if (text == "imagenet")
        return Normalization::ImageNet;
    if (text == "none")
        return Normalization::None;
    return std::nullopt;
}

} // namespace ps
