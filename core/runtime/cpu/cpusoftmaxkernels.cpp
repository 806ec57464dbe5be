#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/hostdevice.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace ps {
namespace {

// Softmax and its relatives compute in double per lane: max-shifted exponentials, so large
// logits do not overflow.

// Calls fn(lane, stride, base) for every 1-D lane along the split axis.
template<class Fn> void forEachLane(const AxisSplit &s, Fn &&fn)
{
    for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t i = 0; i < s.inner; ++i)
            fn(o * s.size * s.inner + i, s.inner);
}

// out[k] = log_softmax(in)[k] for one lane (double buffer).
template<class T>
void logSoftmaxLane(const T *in, int64_t base, int64_t stride, int64_t n, std::vector<double> &lane)
{
    lane.resize(size_t(n));
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < n; ++k) {
        lane[size_t(k)] = double(convertElement<double>(in[base + k * stride]));
        mx = std::max(mx, lane[size_t(k)]);
    }
    if (std::isinf(mx) && mx < 0)
        mx = 0; // every logit -inf: exp gives 0s, the log -inf
    double sum = 0;
    for (int64_t k = 0; k < n; ++k)
        sum += std::exp(lane[size_t(k)] - mx);
    const double lse = mx + std::log(sum);
    for (int64_t k = 0; k < n; ++k)
        lane[size_t(k)] -= lse;
}

Tensor softmaxTensor(const Tensor &x, int64_t axisAttr, bool logarithm, const std::string &label)
{
    const AxisSplit s = kernels::splitAtAxisChecked(x.shape(), axisAttr, label);
    Tensor out = Tensor::empty(x.shape(), x.dtype());
    dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *in = x.data<T>();
        T *o = out.data<T>();
        std::vector<double> lane(static_cast<size_t>(s.size));
        forEachLane(s, [&](int64_t base, int64_t stride) {
            double mx = -std::numeric_limits<double>::infinity();
            for (int64_t k = 0; k < s.size; ++k) {
                lane[size_t(k)] = double(convertElement<double>(in[base + k * stride]));
                mx = std::max(mx, lane[size_t(k)]);
            }
            if (std::isinf(mx) && mx < 0)
                mx = 0;
            double sum = 0;
            for (int64_t k = 0; k < s.size; ++k) {
                const double e = std::exp(lane[size_t(k)] - mx);
                sum += e;
                if (!logarithm)
                    lane[size_t(k)] = e;
            }
            if (logarithm) {
                const double shift = mx + std::log(sum);
                for (int64_t k = 0; k < s.size; ++k)
                    o[base + k * stride] = convertElement<T>(lane[size_t(k)] - shift);
            } else {
                const double inv = 1.0 / sum;
                for (int64_t k = 0; k < s.size; ++k)
                    o[base + k * stride] = convertElement<T>(lane[size_t(k)] * inv);
            }
        });
    });
    return out;
}

void softmaxKernel(KernelContext &ctx)
{
    ctx.setOutput(0, softmaxTensor(ctx.input(0), ctx.intAttr("axis", -1), false, kernels::shortName(ctx)));
}

// softmax_: Paddle's inplace map x -> out: the result is written into x's storage.
void softmaxInplaceKernel(KernelContext &ctx)
{
    Tensor x = ctx.input(0);
    const Tensor result = softmaxTensor(x, ctx.intAttr("axis", -1), false, kernels::shortName(ctx));
    std::memcpy(x.rawData(), result.rawData(), result.byteSize());
    ctx.setOutput(0, x);
}

void logSoftmaxKernel(KernelContext &ctx)
{
    ctx.setOutput(0, softmaxTensor(ctx.input(0), ctx.intAttr("axis", -1), true, kernels::shortName(ctx)));
}

// cross_entropy_with_softmax(input, label) {soft_label, use_softmax, numeric_stable_mode,
// ignore_index, axis} -> softmax, loss. Loss is -log softmax (computed as a stable log-softmax
// when use_softmax; -log(input) clamped to 1e20 otherwise, the input then being probabilities
// that are passed through as `softmax`). Hard labels: int label with the axis dim 1; labels equal
// to ignore_index give loss 0; other labels must lie in [0, C).
void crossEntropyWithSoftmaxKernel(KernelContext &ctx)
{
    const std::string label = kernels::shortName(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor &lbl = ctx.input(1);
    const bool soft = ctx.boolAttr("soft_label", false);
    const bool useSoftmax = ctx.boolAttr("use_softmax", true);
    const int64_t ignoreIndex = ctx.intAttr("ignore_index", -100);
    const int64_t axis
        = kernels::normalizeAxisOrScalar(ctx.intAttr("axis", -1), int64_t(x.rank()), label + " axis");
    const AxisSplit s = splitAtAxis(x.shape(), axis);
    std::vector<int64_t> lossShape = x.shape();
    if (!lossShape.empty())
        lossShape[size_t(axis)] = 1;
    const std::vector<int64_t> wantLabel = soft ? x.shape() : lossShape;
    if (lbl.shape() != wantLabel && !(!soft && lbl.numElements() == s.outer * s.inner))
        throw RuntimeError(label + ": label " + shapeText(lbl.shape()) + " does not fit input "
            + shapeText(x.shape()) + " (expected " + shapeText(wantLabel) + ")");
    const std::vector<double> labels = lbl.toDoubles();
    Tensor softmax = Tensor::empty(x.shape(), x.dtype());
    Tensor loss = Tensor::empty(lossShape, x.dtype());
    dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *in = x.data<T>();
        T *sm = softmax.data<T>();
        T *ls = loss.data<T>();
        std::vector<double> lane(static_cast<size_t>(s.size));
        for (int64_t o = 0; o < s.outer; ++o)
            for (int64_t i = 0; i < s.inner; ++i) {
                const int64_t base = o * s.size * s.inner + i, stride = s.inner;
                if (useSoftmax) {
                    logSoftmaxLane(in, base, stride, s.size, lane);
                    for (int64_t k = 0; k < s.size; ++k)
                        sm[base + k * stride] = convertElement<T>(std::exp(lane[size_t(k)]));
                } else {
                    for (int64_t k = 0; k < s.size; ++k) {
                        sm[base + k * stride] = in[base + k * stride];
                        lane[size_t(k)] = std::log(double(convertElement<double>(in[base + k * stride])));
                    }
                }
                double value = 0;
                if (soft) {
                    for (int64_t k = 0; k < s.size; ++k) {
                        const double w = labels[size_t(base + k * stride)];
                        if (w != 0)
                            value -= w * (useSoftmax ? lane[size_t(k)] : -km::tolerable(-lane[size_t(k)]));
                    }
                } else {
                    const double raw = labels[size_t(o * s.inner + i)];
                    const int64_t cls = int64_t(raw);
                    if (cls == ignoreIndex) {
                        value = 0;
                    } else {
                        if (cls < 0 || cls >= s.size)
                            throw RuntimeError(label + ": label " + std::to_string(cls) + " outside [0, "
                                + std::to_string(s.size) + ") for input " + shapeText(x.shape()));
                        value = useSoftmax ? -lane[size_t(cls)] : km::tolerable(-lane[size_t(cls)]);
                    }
                }
                ls[o * s.inner + i] = convertElement<T>(value);
            }
    });
    ctx.setOutput(0, softmax);
    ctx.setOutput(1, loss);
}

} // namespace

void registerCpuSoftmaxKernels(KernelRegistry &registry)
{
    registry.add("pd_op.softmax", softmaxKernel);
    registry.add("pd_op.softmax_", softmaxInplaceKernel);
    registry.add("pd_op.log_softmax", logSoftmaxKernel);
    registry.add("pd_op.cross_entropy_with_softmax", crossEntropyWithSoftmaxKernel);
    registry.add("pd_op.cross_entropy_with_softmax_", crossEntropyWithSoftmaxKernel);
}

} // namespace ps
