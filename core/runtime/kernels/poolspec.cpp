#include "core/runtime/kernels/poolspec.h"

#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <algorithm>

namespace ps {

PoolSpec PoolSpec::fromContext(
    const KernelContext &ctx, const std::vector<int64_t> &input, const std::vector<int64_t> &kernelSize)
{
    const std::string label = kernels::shortName(ctx);
    PoolSpec s;
    const std::string format = ctx.stringAttr("data_format", std::string("NCHW"));
    if (format != "NCHW" && format != "NHWC" && format != "AnyLayout")
        throw RuntimeError(label + ": unsupported data_format '" + format + "'");
    if (input.size() != 4)
        throw RuntimeError(label + ": input must be 4-D, got " + shapeText(input));
    s.channelsLast = format == "NHWC";
    s.batch = input[0];
    s.channels = s.channelsLast ? input[3] : input[1];
    s.inH = s.channelsLast ? input[1] : input[2];
    s.inW = s.channelsLast ? input[2] : input[3];

    const std::string type = ctx.stringAttr("pooling_type", std::string("max"));
    if (type != "max" && type != "avg")
        throw RuntimeError(label + ": unknown pooling_type '" + type + "'");
    s.isMax = type == "max";
    s.adaptive = ctx.boolAttr("adaptive", false);
    s.exclusive = ctx.boolAttr("exclusive", true);
    const bool global = ctx.boolAttr("global_pooling", false);
    const bool ceilMode = ctx.boolAttr("ceil_mode", false);

    std::vector<int64_t> k = kernelSize;
    if (k.size() == 1)
        k.push_back(k[0]);
    if (k.size() != 2)
        throw RuntimeError(label + ": kernel_size needs 2 values, got " + shapeText(kernelSize));
    std::vector<int64_t> strides = ctx.intsAttr("strides", std::vector<int64_t> { 1, 1 });
    if (strides.size() == 1)
        strides.push_back(strides[0]);
    std::vector<int64_t> pads = ctx.intsAttr("paddings", std::vector<int64_t> { 0, 0 });
    if (pads.size() == 1)
        pads = { pads[0], pads[0], pads[0], pads[0] };
    else if (pads.size() == 2)
        pads = { pads[0], pads[0], pads[1], pads[1] };
    if (strides.size() != 2 || pads.size() != 4)
        throw RuntimeError(label + ": strides " + shapeText(strides) + " / paddings " + shapeText(pads)
            + " need 2 (or 4 paddings) values");
    if (global) {
        k = { s.inH, s.inW };
    }
    s.kernelH = k[0];
    s.kernelW = k[1];
    s.strideH = strides[0];
    s.strideW = strides[1];
    if (s.kernelH <= 0 || s.kernelW <= 0 || s.strideH <= 0 || s.strideW <= 0)
        throw RuntimeError(label + ": kernel_size " + shapeText(k) + " and strides " + shapeText(strides)
            + " must be positive");

    const std::string algorithm = ctx.stringAttr("padding_algorithm", std::string("EXPLICIT"));
    if (algorithm == "SAME") {
        const int64_t in[2] = { s.inH, s.inW }, st[2] = { s.strideH, s.strideW },
                      kk[2] = { s.kernelH, s.kernelW };
        for (int i = 0; i < 2; ++i) {
            const int64_t out = (in[i] + st[i] - 1) / st[i];
            const int64_t sum = std::max<int64_t>((out - 1) * st[i] + kk[i] - in[i], 0);
            pads[size_t(2 * i)] = sum / 2;
            pads[size_t(2 * i + 1)] = sum - sum / 2;
        }
    } else if (algorithm == "VALID") {
        pads = { 0, 0, 0, 0 };
    } else if (algorithm != "EXPLICIT" && !algorithm.empty()) {
        throw RuntimeError(label + ": unknown padding_algorithm '" + algorithm + "'");
    }
    if (global || s.adaptive)
        pads = { 0, 0, 0, 0 };
    s.padTop = pads[0];
    s.padBottom = pads[1];
    s.padLeft = pads[2];
    s.padRight = pads[3];

    if (s.adaptive) {
        s.outH = s.kernelH;
        s.outW = s.kernelW;
    } else {
        // Paddle's PoolOutputSize, C++ truncating division included: a kernel one stride larger
        // than the padded input still yields one (clipped) window.
        const int64_t spanH = s.inH - s.kernelH + s.padTop + s.padBottom + (ceilMode ? s.strideH - 1 : 0);
        const int64_t spanW = s.inW - s.kernelW + s.padLeft + s.padRight + (ceilMode ? s.strideW - 1 : 0);
        s.outH = spanH / s.strideH + 1;
        s.outW = spanW / s.strideW + 1;
        if (s.outH <= 0 || s.outW <= 0)
            throw RuntimeError(
                label + ": kernel_size " + shapeText(k) + " does not fit input " + shapeText(input));
    }
    return s;
}

std::vector<int64_t> PoolSpec::outputShape() const
{
    return channelsLast ? std::vector<int64_t> { batch, outH, outW, channels }
                        : std::vector<int64_t> { batch, channels, outH, outW };
}

} // namespace ps
