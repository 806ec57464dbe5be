#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

namespace ps {
namespace {

template<class C> bool isNanValue(C v)
{
    if constexpr (std::is_floating_point_v<C>)
        return std::isnan(v);
    else
        return false;
}

// argmax / argmin (x, axis?) {keepdims, flatten, dtype}: the first extreme along the axis, a NaN
// counting as the extreme (NumPy's rule). flatten ranks the whole tensor: a 0-d result, or all
// ones with keepdims.
void argKernel(KernelContext &ctx, bool isMax)
{
    const std::string label = nnOpLabel(ctx);
    const Tensor &x = ctx.input(0);
    const bool flatten = ctx.boolAttr("flatten", false);
    const bool keepdims = ctx.boolAttr("keepdims", ctx.boolAttr("keepdim", false));
    const DataType dtype = ctx.dtypeAttr("dtype", DataType::Int64);
    if (dtype != DataType::Int64 && dtype != DataType::Int32)
        throw RuntimeError(label + ": dtype must be int32 or int64, got " + std::string(phiName(dtype)));
    AxisSplit s;
    std::vector<int64_t> outShape;
    if (flatten || x.rank() == 0) {
        s.size = x.numElements();
        if (keepdims)
            outShape.assign(x.rank(), 1);
    } else {
        const int64_t axisValue = ctx.hasInput(1) ? int64_t(ctx.inputAsScalar(1)) : ctx.intAttr("axis", -1);
        const int64_t axis = normalizeAxis(axisValue, int64_t(x.rank()), label);
        s = splitAtAxis(x.shape(), axis);
        outShape = x.shape();
        if (keepdims)
            outShape[size_t(axis)] = 1;
        else
            outShape.erase(outShape.begin() + axis);
    }
    if (s.size == 0)
        throw RuntimeError(
            label + ": cannot take the arg-extreme of an empty axis of x " + shapeText(x.shape()));
    std::vector<double> result(static_cast<size_t>(s.outer * s.inner));
    dispatchDtype(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        using C = ComputeType<T>;
        const T *in = x.data<T>();
        for (int64_t o = 0; o < s.outer; ++o)
            for (int64_t i = 0; i < s.inner; ++i) {
                const T *lane = in + o * s.size * s.inner + i;
                int64_t best = 0;
                C bestValue = convertElement<C>(lane[0]);
                for (int64_t k = 1; k < s.size && !isNanValue(bestValue); ++k) {
                    const C v = convertElement<C>(lane[k * s.inner]);
                    if (isNanValue(v) || (isMax ? v > bestValue : v < bestValue)) {
                        best = k;
                        bestValue = v;
                    }
                }
                result[size_t(o * s.inner + i)] = double(best);
            }
    });
    ctx.setOutput(0, Tensor::fromDoubles(outShape, dtype, result));
}

void argmaxKernel(KernelContext &ctx)
{
    argKernel(ctx, true);
}

void argminKernel(KernelContext &ctx)
{
    argKernel(ctx, false);
}

// topk (x, k?) {axis, largest, sorted} -> values, int64 indices. Mirrors Paddle's CPU FullTopK so
// that ties come out in Paddle's order (libstdc++'s, not index order): (value, index) pairs,
// std::partial_sort when k * 64 < n, else std::nth_element then std::sort of the first k - 1;
// comparators largest: NaN first, then greater; smallest: NaN last, then less. Always sorted.
void topkKernel(KernelContext &ctx)
{
    const std::string label = nnOpLabel(ctx);
    const Tensor &x = ctx.input(0);
    const int64_t k = ctx.hasInput(1) ? int64_t(ctx.inputAsScalar(1)) : ctx.intAttr("k", 1);
    const int64_t axis = normalizeAxis(ctx.intAttr("axis", -1), int64_t(x.rank()), label);
    const bool largest = ctx.boolAttr("largest", true);
    const AxisSplit s = splitAtAxis(x.shape(), axis);
    if (k < 0 || k > s.size)
        throw RuntimeError(label + ": k " + std::to_string(k) + " outside [0, " + std::to_string(s.size)
            + "] for x " + shapeText(x.shape()));
    std::vector<int64_t> outShape = x.shape();
    if (!outShape.empty())
        outShape[size_t(axis)] = k;
    Tensor values = Tensor::empty(outShape, x.dtype());
    Tensor indices = Tensor::empty(outShape, DataType::Int64);
    int64_t *idxOut = indices.data<int64_t>();
    dispatchDtype(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        using C = ComputeType<T>;
        const T *in = x.data<T>();
        T *vals = values.data<T>();
        std::vector<std::pair<C, int64_t>> lane(static_cast<size_t>(s.size));
        auto greater = [](const std::pair<C, int64_t> &l, const std::pair<C, int64_t> &r) {
            return (isNanValue(l.first) && !isNanValue(r.first)) || l.first > r.first;
        };
        auto less = [](const std::pair<C, int64_t> &l, const std::pair<C, int64_t> &r) {
            return (!isNanValue(l.first) && isNanValue(r.first)) || l.first < r.first;
        };
        for (int64_t o = 0; o < s.outer; ++o)
            for (int64_t i = 0; i < s.inner; ++i) {
                const int64_t base = o * s.size * s.inner + i;
                for (int64_t q = 0; q < s.size; ++q)
                    lane[size_t(q)] = { convertElement<C>(in[base + q * s.inner]), q };
                if (k > 0 && k * 64 < s.size) {
                    if (largest)
                        std::partial_sort(lane.begin(), lane.begin() + k, lane.end(), greater);
                    else
                        std::partial_sort(lane.begin(), lane.begin() + k, lane.end(), less);
                } else if (k > 0) {
                    // nth_element, then a sort of the first k - 1 (the k-th is already in place).
                    if (largest) {
                        std::nth_element(lane.begin(), lane.begin() + k - 1, lane.end(), greater);
                        std::sort(lane.begin(), lane.begin() + k - 1, greater);
                    } else {
                        std::nth_element(lane.begin(), lane.begin() + k - 1, lane.end(), less);
                        std::sort(lane.begin(), lane.begin() + k - 1, less);
                    }
                }
                const int64_t outBase = o * k * s.inner + i;
                for (int64_t q = 0; q < k; ++q) {
                    idxOut[outBase + q * s.inner] = lane[size_t(q)].second;
                    vals[outBase + q * s.inner] = in[base + lane[size_t(q)].second * s.inner];
                }
            }
    });
    ctx.setOutput(0, values);
    ctx.setOutput(1, indices);
}

// cumsum (x, axis?) {flatten, exclusive, reverse}: accumulated in double (floats) or int64.
void cumsumKernel(KernelContext &ctx)
{
    const std::string label = nnOpLabel(ctx);
    const Tensor &x = ctx.input(0);
    const bool flatten = ctx.boolAttr("flatten", false);
    const bool exclusive = ctx.boolAttr("exclusive", false);
    const bool reverse = ctx.boolAttr("reverse", false);
    AxisSplit s;
    std::vector<int64_t> outShape = x.shape();
    if (flatten || x.rank() == 0) {
        s.size = x.numElements();
        if (flatten)
            outShape = { x.numElements() };
    } else {
        const int64_t axisValue = ctx.hasInput(1) ? int64_t(ctx.inputAsScalar(1)) : ctx.intAttr("axis", -1);
        s = splitAtAxis(x.shape(), normalizeAxis(axisValue, int64_t(x.rank()), label));
    }
    Tensor out = Tensor::empty(outShape, x.dtype());
    dispatchDtype(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool>) {
            throw RuntimeError(label + ": unsupported dtype bool");
        } else {
            using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
            const T *in = x.data<T>();
            T *o = out.data<T>();
            for (int64_t a = 0; a < s.outer; ++a)
                for (int64_t i = 0; i < s.inner; ++i) {
                    const int64_t base = a * s.size * s.inner + i;
                    Acc acc = 0;
                    for (int64_t q = 0; q < s.size; ++q) {
                        const int64_t idx = base + (reverse ? s.size - 1 - q : q) * s.inner;
                        const Acc v = convertElement<Acc>(in[idx]);
                        if (!exclusive)
                            acc += v;
                        o[idx] = convertElement<T>(acc);
                        if (exclusive)
                            acc += v;
                    }
                }
        }
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerCpuIndexKernels(KernelRegistry &registry)
{
    registry.add("pd_op.argmax", argmaxKernel);
    registry.add("pd_op.argmin", argminKernel);
    registry.add("pd_op.topk", topkKernel);
    registry.add("pd_op.cumsum", cumsumKernel);
}

} // namespace ps
