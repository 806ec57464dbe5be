#include "core/runtime/kernels/conv3dspec.h"

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <algorithm>
#include <string>

namespace ps {
namespace {

std::array<int64_t, 3> tripleAttr(const KernelContext &ctx, const char *name, const std::string &label)
{
    const std::vector<int64_t> v = ctx.intsAttr(name, std::vector<int64_t> { 1, 1, 1 });
    if (v.size() == 1 && v[0] > 0)
        return { v[0], v[0], v[0] };
    if (v.size() != 3 || *std::min_element(v.begin(), v.end()) <= 0)
        throw RuntimeError(label + ": attribute '" + name + "' needs 3 positive values, got " + shapeText(v));
    return { v[0], v[1], v[2] };
}

} // namespace

Conv3dSpec Conv3dSpec::forward(
    const KernelContext &ctx, const std::vector<int64_t> &input, const std::vector<int64_t> &filter)
{
    const std::string label = kernels::shortName(ctx);
    const std::string format = ctx.stringAttr("data_format", std::string("NCDHW"));
    if (format != "NCDHW" && format != "NDHWC" && format != "AnyLayout" && format != "NCHW"
        && format != "NHWC")
        throw RuntimeError(label + ": unsupported data_format '" + format + "'");
    if (input.size() != 5)
        throw RuntimeError(label + ": input must be 5-D, got " + shapeText(input));
    if (filter.size() != 5)
        throw RuntimeError(label + ": filter must be 5-D [out_channels, in_channels/groups, kd, kh, kw], got "
            + shapeText(filter) + " for input " + shapeText(input));
    Conv3dSpec s;
    s.channelsLast = format == "NDHWC" || format == "NHWC";
    s.batch = input[0];
    s.inChannels = s.channelsLast ? input[4] : input[1];
    for (size_t i = 0; i < 3; ++i) {
        s.in[i] = s.channelsLast ? input[i + 1] : input[i + 2];
        s.kernel[i] = filter[i + 2];
    }
    s.groups = ctx.intAttr("groups", 1);
    s.outChannels = filter[0];
    if (s.groups <= 0 || s.inChannels % s.groups != 0 || s.outChannels % s.groups != 0
        || filter[1] * s.groups != s.inChannels)
        throw RuntimeError(label + ": input " + shapeText(input) + " has " + std::to_string(s.inChannels)
            + " channels but filter " + shapeText(filter) + " with groups " + std::to_string(s.groups)
            + " expects " + std::to_string(filter[1] * s.groups));
    s.stride = tripleAttr(ctx, "strides", label);
    s.dilation = tripleAttr(ctx, "dilations", label);
    const std::string algorithm = ctx.stringAttr("padding_algorithm", std::string("EXPLICIT"));
    if (algorithm == "SAME") {
        for (size_t i = 0; i < 3; ++i) {
            const int64_t outN = (s.in[i] + s.stride[i] - 1) / s.stride[i];
            const int64_t sum = std::max<int64_t>((outN - 1) * s.stride[i] + s.kernel[i] - s.in[i], 0);
            s.padBegin[i] = sum / 2;
            s.padEnd[i] = sum - sum / 2;
            s.dilation[i] = 1;
        }
    } else if (algorithm == "EXPLICIT" || algorithm.empty()) {
        const std::vector<int64_t> pads = ctx.intsAttr("paddings", std::vector<int64_t> { 0, 0, 0 });
        if (pads.size() != 3 && pads.size() != 6)
            throw RuntimeError(label + ": 'paddings' needs 3 or 6 values, got " + shapeText(pads));
        if (!pads.empty() && *std::min_element(pads.begin(), pads.end()) < 0)
            throw RuntimeError(label + ": negative padding " + shapeText(pads));
        for (size_t i = 0; i < 3; ++i) {
            s.padBegin[i] = pads.size() == 3 ? pads[i] : pads[2 * i];
            s.padEnd[i] = pads.size() == 3 ? pads[i] : pads[2 * i + 1];
        }
    } else if (algorithm != "VALID") {
        throw RuntimeError(label + ": unknown padding_algorithm '" + algorithm + "'");
    }
    for (size_t i = 0; i < 3; ++i) {
        const int64_t extent = s.dilation[i] * (s.kernel[i] - 1) + 1;
        const int64_t span = s.in[i] + s.padBegin[i] + s.padEnd[i] - extent;
        // Paddle's ConvOutSize, C++ truncating division included.
        s.out[i] = span / s.stride[i] + 1;
        if (s.kernel[i] <= 0 || s.out[i] <= 0)
            throw RuntimeError(label + ": filter " + shapeText(filter) + " does not fit input "
                + shapeText(input) + " with the paddings and dilations given (empty output)");
    }
    return s;
}

std::vector<int64_t> Conv3dSpec::inputShape() const
{
    if (channelsLast)
        return { batch, in[0], in[1], in[2], inChannels };
    return { batch, inChannels, in[0], in[1], in[2] };
}

std::vector<int64_t> Conv3dSpec::outputShape() const
{
    if (channelsLast)
        return { batch, out[0], out[1], out[2], outChannels };
    return { batch, outChannels, out[0], out[1], out[2] };
}

} // namespace ps
