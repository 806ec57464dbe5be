#include "core/runtime/kernels/convspec.h"

#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <algorithm>

namespace ps {
namespace {

struct SpatialAttrs
{
    int64_t strides[2] = { 1, 1 };
    int64_t dilations[2] = { 1, 1 };
    int64_t pads[4] = { 0, 0, 0, 0 }; // top, bottom, left, right
};

std::vector<int64_t> pairAttr(const KernelContext &ctx, const char *name, const std::string &label)
{
    std::vector<int64_t> v = ctx.intsAttr(name, std::vector<int64_t> { 1, 1 });
    if (v.size() == 1)
        v.push_back(v[0]);
    if (v.size() != 2)
        throw RuntimeError(label + ": attribute '" + name + "' needs 2 values, got " + shapeText(v));
    return v;
}

// Paddle's UpdatePaddingAndDilation: 2 paddings mean [h, w] (each on both sides), 4 mean
// [top, bottom, left, right]; SAME pads to ceil(in / stride) outputs and resets dilation to 1;
// VALID drops the padding.
SpatialAttrs readSpatial(const KernelContext &ctx, const std::string &label, int64_t inH, int64_t inW,
    int64_t kernelH, int64_t kernelW)
{
    SpatialAttrs a;
    const std::vector<int64_t> strides = pairAttr(ctx, "strides", label);
    const std::vector<int64_t> dilations = pairAttr(ctx, "dilations", label);
    std::vector<int64_t> pads = ctx.intsAttr("paddings", std::vector<int64_t> { 0, 0 });
    if (pads.size() == 2)
        pads = { pads[0], pads[0], pads[1], pads[1] };
    else if (pads.size() == 1)
        pads = { pads[0], pads[0], pads[0], pads[0] };
    if (pads.size() != 4)
        throw RuntimeError(label + ": 'paddings' needs 2 or 4 values, got " + shapeText(pads));
    for (int i = 0; i < 2; ++i) {
        a.strides[i] = strides[size_t(i)];
        a.dilations[i] = dilations[size_t(i)];
        if (a.strides[i] <= 0 || a.dilations[i] <= 0)
            throw RuntimeError(label + ": strides " + shapeText(strides) + " and dilations "
                + shapeText(dilations) + " must be positive");
    }
    const std::string algorithm = ctx.stringAttr("padding_algorithm", std::string("EXPLICIT"));
    if (algorithm == "SAME") {
        const int64_t in[2] = { inH, inW }, k[2] = { kernelH, kernelW };
        for (int i = 0; i < 2; ++i) {
            const int64_t out = (in[i] + a.strides[i] - 1) / a.strides[i];
            const int64_t sum = std::max<int64_t>((out - 1) * a.strides[i] + k[i] - in[i], 0);
            a.pads[2 * i] = sum / 2;
            a.pads[2 * i + 1] = sum - sum / 2;
            a.dilations[i] = 1;
        }
    } else if (algorithm == "VALID") {
        std::fill(std::begin(a.pads), std::end(a.pads), 0);
    } else if (algorithm == "EXPLICIT" || algorithm.empty()) {
        for (int i = 0; i < 4; ++i) {
            a.pads[i] = pads[size_t(i)];
            if (a.pads[i] < 0)
                throw RuntimeError(label + ": negative padding " + shapeText(pads));
        }
    } else {
        throw RuntimeError(label + ": unknown padding_algorithm '" + algorithm + "'");
    }
    return a;
}

struct Layout
{
    bool channelsLast = false;
    int64_t n = 0, c = 0, h = 0, w = 0;
};

Layout readLayout(const KernelContext &ctx, const std::string &label, const std::vector<int64_t> &input)
{
    Layout l;
    const std::string format = ctx.stringAttr("data_format", std::string("NCHW"));
    if (format != "NCHW" && format != "NHWC" && format != "AnyLayout")
        throw RuntimeError(label + ": unsupported data_format '" + format + "'");
    if (input.size() != 4)
        throw RuntimeError(label + ": input must be 4-D, got " + shapeText(input));
    l.channelsLast = format == "NHWC";
    l.n = input[0];
    l.c = l.channelsLast ? input[3] : input[1];
    l.h = l.channelsLast ? input[1] : input[2];
    l.w = l.channelsLast ? input[2] : input[3];
    return l;
}

void applySpatial(ConvSpec &s, const SpatialAttrs &a)
{
    s.strideH = a.strides[0];
    s.strideW = a.strides[1];
    s.dilationH = a.dilations[0];
    s.dilationW = a.dilations[1];
    s.padTop = a.pads[0];
    s.padBottom = a.pads[1];
    s.padLeft = a.pads[2];
    s.padRight = a.pads[3];
}

} // namespace

ConvSpec ConvSpec::forward(
    const KernelContext &ctx, const std::vector<int64_t> &input, const std::vector<int64_t> &filter)
{
    const std::string label = kernels::shortName(ctx);
    const Layout l = readLayout(ctx, label, input);
    if (filter.size() != 4)
        throw RuntimeError(label + ": filter must be 4-D [out_channels, in_channels/groups, kh, kw], got "
            + shapeText(filter) + " for input " + shapeText(input));
    ConvSpec s;
    s.channelsLast = l.channelsLast;
    s.batch = l.n;
    s.inChannels = l.c;
    s.inH = l.h;
    s.inW = l.w;
    s.groups = ctx.intAttr("groups", 1);
    s.outChannels = filter[0];
    s.kernelH = filter[2];
    s.kernelW = filter[3];
    if (s.groups <= 0 || s.inChannels % s.groups != 0 || s.outChannels % s.groups != 0
        || filter[1] * s.groups != s.inChannels)
        throw RuntimeError(label + ": input " + shapeText(input) + " has " + std::to_string(s.inChannels)
            + " channels but filter " + shapeText(filter) + " with groups " + std::to_string(s.groups)
            + " expects " + std::to_string(filter[1] * s.groups));
    applySpatial(s, readSpatial(ctx, label, s.inH, s.inW, s.kernelH, s.kernelW));
    const int64_t extentH = s.dilationH * (s.kernelH - 1) + 1;
    const int64_t extentW = s.dilationW * (s.kernelW - 1) + 1;
    const int64_t spanH = s.inH + s.padTop + s.padBottom - extentH;
    const int64_t spanW = s.inW + s.padLeft + s.padRight - extentW;
    // Paddle's ConvOutSize, C++ truncating division included (a span of -1 with stride 2 still
    // gives one output row).
    s.outH = spanH / s.strideH + 1;
    s.outW = spanW / s.strideW + 1;
    if (s.kernelH <= 0 || s.kernelW <= 0 || s.outH <= 0 || s.outW <= 0)
        throw RuntimeError(label + ": filter " + shapeText(filter) + " does not fit input " + shapeText(input)
            + " with its paddings and dilations");
    return s;
}

ConvSpec ConvSpec::transpose(const KernelContext &ctx, const std::vector<int64_t> &input,
    const std::vector<int64_t> &filter, const std::vector<int64_t> &outputSize)
{
    const std::string label = kernels::shortName(ctx);
    const Layout l = readLayout(ctx, label, input);
    if (filter.size() != 4)
        throw RuntimeError(label + ": filter must be 4-D [in_channels, out_channels/groups, kh, kw], got "
            + shapeText(filter) + " for input " + shapeText(input));
    ConvSpec s;
    s.transposed = true;
    s.channelsLast = l.channelsLast;
    s.batch = l.n;
    s.inChannels = l.c;
    s.inH = l.h;
    s.inW = l.w;
    s.groups = ctx.intAttr("groups", 1);
    s.kernelH = filter[2];
    s.kernelW = filter[3];
    if (s.groups <= 0 || filter[0] != s.inChannels || s.inChannels % s.groups != 0)
        throw RuntimeError(label + ": input " + shapeText(input) + " has " + std::to_string(s.inChannels)
            + " channels but filter " + shapeText(filter) + " with groups " + std::to_string(s.groups)
            + " expects " + std::to_string(filter[0]));
    s.outChannels = filter[1] * s.groups;
    applySpatial(s, readSpatial(ctx, label, s.inH, s.inW, s.kernelH, s.kernelW));
    const int64_t inferred[2]
        = { (s.inH - 1) * s.strideH - s.padTop - s.padBottom + s.dilationH * (s.kernelH - 1) + 1,
              (s.inW - 1) * s.strideW - s.padLeft - s.padRight + s.dilationW * (s.kernelW - 1) + 1 };
    const int64_t strides[2] = { s.strideH, s.strideW };
    int64_t out[2] = { inferred[0], inferred[1] };
    const std::vector<int64_t> outputPadding = ctx.intsAttr("output_padding", std::vector<int64_t> {});
    if (!outputSize.empty()) {
        if (outputSize.size() != 2)
            throw RuntimeError(label + ": output_size needs 2 values, got " + shapeText(outputSize));
        for (int i = 0; i < 2; ++i) {
            if (outputSize[size_t(i)] < inferred[i] || outputSize[size_t(i)] >= inferred[i] + strides[i])
                throw RuntimeError(label + ": output_size " + shapeText(outputSize)
                    + " must lie in [inferred, inferred + stride) for input " + shapeText(input)
                    + " and filter " + shapeText(filter));
            out[i] = outputSize[size_t(i)];
        }
    } else if (!outputPadding.empty()) {
        if (outputPadding.size() != 2)
            throw RuntimeError(label + ": output_padding needs 2 values, got " + shapeText(outputPadding));
        for (int i = 0; i < 2; ++i) {
            if (outputPadding[size_t(i)] < 0 || outputPadding[size_t(i)] >= strides[i])
                throw RuntimeError(
                    label + ": output_padding " + shapeText(outputPadding) + " must be in [0, stride)");
            out[i] += outputPadding[size_t(i)];
        }
    }
    if (out[0] <= 0 || out[1] <= 0 || s.kernelH <= 0 || s.kernelW <= 0)
        throw RuntimeError(
            label + ": empty output for input " + shapeText(input) + " and filter " + shapeText(filter));
    s.outH = out[0];
    s.outW = out[1];
    return s;
}

std::vector<int64_t> ConvSpec::inputShape() const
{
    return channelsLast ? std::vector<int64_t> { batch, inH, inW, inChannels }
                        : std::vector<int64_t> { batch, inChannels, inH, inW };
}

std::vector<int64_t> ConvSpec::outputShape() const
{
    return channelsLast ? std::vector<int64_t> { batch, outH, outW, outChannels }
                        : std::vector<int64_t> { batch, outChannels, outH, outW };
}

Im2colGeometry ConvSpec::groupGeometry() const
{
    Im2colGeometry g;
    g.kernelH = kernelH;
    g.kernelW = kernelW;
    g.strideH = strideH;
    g.strideW = strideW;
    g.padTop = padTop;
    g.padLeft = padLeft;
    g.dilationH = dilationH;
    g.dilationW = dilationW;
    if (transposed) {
        g.channels = outChannelsPerGroup();
        g.height = outH;
        g.width = outW;
        g.outH = inH;
        g.outW = inW;
    } else {
        g.channels = inChannelsPerGroup();
        g.height = inH;
        g.width = inW;
        g.outH = outH;
        g.outW = outW;
    }
    return g;
}

} // namespace ps
