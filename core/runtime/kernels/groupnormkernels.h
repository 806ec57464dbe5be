#pragma once

// group_norm and instance_norm for both backends over an execution policy `Exec`. Each
// normalised row (one (sample, group) of group_norm, one (sample, channel) of instance_norm) is
// one functor call that computes its mean and biased variance in double (two passes, as the CPU
// oracle always did), then writes (x - mean) / sqrt(var + epsilon) * scale + bias. Instance norm
// is group norm with one channel per group on channels-first data.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/elementtraits.h"
#include "core/runtime/kernels/elementwisekernels.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/runtimeerror.h"

#include <string>
#include <type_traits>

namespace ps::kernels {

/// Where row r's element k lives: row r = (n, group), k = (channel within the group, spatial
/// position).
struct GroupRows
{
    int64_t groups = 1, perGroup = 1, spatial = 1, channels = 1;
    bool channelsLast = false;
    PS_HOST_DEVICE int64_t width() const { return perGroup * spatial; }
    PS_HOST_DEVICE int64_t channelOf(int64_t r, int64_t k) const
    {
        return (r % groups) * perGroup + k / spatial;
    }
    PS_HOST_DEVICE int64_t elementOf(int64_t r, int64_t k) const
    {
        const int64_t n = r / groups, ch = channelOf(r, k), s = k % spatial;
        return channelsLast ? (n * spatial + s) * channels + ch : (n * channels + ch) * spatial + s;
    }
};

/// One row normalised (an empty row gives mean 0, variance 0); `mean`/`var` (the stats dtype S) get its mean
/// and its variance, or its inverse standard deviation when `inverseStd` (instance_norm's saved_variance).
template<class T, class S> struct GroupNormRows
{
    const T *in;
    T *out;
    const double *scale, *bias;
    S *mean, *var;
    GroupRows g;
    double epsilon;
    bool inverseStd;
    PS_HOST_DEVICE void operator()(int64_t r) const
    {
        const int64_t n = g.width();
        double sum = 0;
        for (int64_t k = 0; k < n; ++k)
            sum += double(loadElement(in[g.elementOf(r, k)]));
        const double m = n > 0 ? sum / double(n) : 0.0;
        double sq = 0;
        for (int64_t k = 0; k < n; ++k) {
            const double d = double(loadElement(in[g.elementOf(r, k)])) - m;
            sq += d * d;
        }
        const double vr = n > 0 ? sq / double(n) : 0.0;
        const double inv = 1.0 / km::sqrt(vr + epsilon);
        for (int64_t k = 0; k < n; ++k) {
            const int64_t idx = g.elementOf(r, k), ch = g.channelOf(r, k);
            out[idx] = storeElement<T>((double(loadElement(in[idx])) - m) * inv * scale[ch] + bias[ch]);
        }
        mean[r] = storeElement<S>(m);
        var[r] = storeElement<S>(inverseStd ? inv : vr);
    }
};

/// Operand `i` (scale or bias) as `count` float64 values on the exec's device; `fallback`
/// everywhere when the operand is null. RuntimeError when it does not hold `count` elements.
template<class Exec>
Tensor channelParam(const Exec &exec, KernelContext &ctx, size_t i, int64_t count, double fallback,
    const std::string &label, const char *what, const Tensor &x)
{
    Tensor out = exec.allocate({ count }, DataType::Float64);
    if (!ctx.hasInput(i)) {
        exec.fill(out, fallback);
        return out;
    }
    const Tensor t = exec.input(i);
    if (t.numElements() != count)
        throw RuntimeError(label + ": " + what + " " + shapeText(t.shape()) + " must hold "
            + std::to_string(count) + " elements for x " + shapeText(x.shape()));
    castInto(exec, t, out);
    return out;
}

/// Normalises x by `rows` (GroupRows) into result 0; results 1 and 2 (when the op has them) get
/// the per-row mean and variance (or inverse std) shaped `statsShape`, float32 for 16-bit x.
template<class Exec>
void groupNormalize(KernelContext &ctx, const Exec &exec, const Tensor &x, const GroupRows &g, int64_t rows,
    const std::vector<int64_t> &statsShape, bool inverseStd, const std::string &label)
{
    const double epsilon = ctx.floatAttr("epsilon", 1e-5);
    const Tensor scale = channelParam(exec, ctx, 1, g.channels, 1.0, label, "scale", x);
    const Tensor bias = channelParam(exec, ctx, 2, g.channels, 0.0, label, "bias", x);
    Tensor out = exec.allocate(x.shape(), x.dtype());
    const DataType statsType = isHalfType(x.dtype()) ? DataType::Float32 : x.dtype();
    Tensor mean = exec.allocate(statsShape, statsType), var = exec.allocate(statsShape, statsType);
    Exec::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        using S = std::conditional_t<ElementTraits<T>::kHalf, float, T>;
        exec.launch(rows,
            GroupNormRows<T, S> { static_cast<const T *>(x.rawData()), static_cast<T *>(out.rawData()),
                static_cast<const double *>(scale.rawData()), static_cast<const double *>(bias.rawData()),
                static_cast<S *>(mean.rawData()), static_cast<S *>(var.rawData()), g, epsilon, inverseStd },
            label.c_str());
    });
    ctx.setOutput(0, out);
    if (ctx.numOutputs() > 1)
        ctx.setOutput(1, mean);
    if (ctx.numOutputs() > 2)
        ctx.setOutput(2, var);
}

/// group_norm (x, scale, bias) {epsilon, groups, data_format}: results out, mean [N, groups],
/// variance [N, groups].
template<class Exec> void groupNormKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0);
    const bool last = isChannelsLast(ctx.stringAttr("data_format", std::string("NCHW")));
    const ChannelView v = channelView(x.shape(), last, label);
    const int64_t groups = ctx.intAttr("groups", 1);
    if (groups <= 0 || v.channels % groups != 0)
        throw RuntimeError(label + ": groups " + std::to_string(groups) + " must divide the "
            + std::to_string(v.channels) + " channels of x " + shapeText(x.shape()));
    const int64_t batch = x.dim(0);
    GroupRows g;
    g.groups = groups;
    g.perGroup = v.channels / groups;
    g.channels = v.channels;
    g.spatial = last ? v.outer / std::max<int64_t>(batch, 1) : v.inner;
    g.channelsLast = last;
    groupNormalize(ctx, exec, x, g, batch * groups, { batch, groups }, false, label);
}

/// instance_norm (x, scale, bias) {epsilon}: channels-first; results out, saved_mean [N * C],
/// saved_variance [N * C] (the inverse standard deviation, as Paddle stores it).
template<class Exec> void instanceNormKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0);
    const ChannelView v = channelView(x.shape(), false, label);
    GroupRows g;
    g.groups = v.channels;
    g.perGroup = 1;
    g.channels = v.channels;
    g.spatial = v.inner;
    groupNormalize(ctx, exec, x, g, v.outer * v.channels, { v.outer * v.channels }, true, label);
}

template<class Exec> void registerGroupNormKernels(KernelRegistry &registry)
{
    registry.add("pd_op.group_norm", &groupNormKernel<Exec>);
    registry.add("pd_op.instance_norm", &instanceNormKernel<Exec>);
}

} // namespace ps::kernels
