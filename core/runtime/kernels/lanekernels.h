#pragma once

// Kernels that walk one lane (a run along an axis) per thread, for both backends over an
// execution policy `Exec`: argmax, argmin, cumsum, and the device topk (the CPU keeps its own
// topk, which reproduces the tie order of Paddle's CPU kernel with std::nth_element; this one
// breaks ties by index). A lane is [outer, size, inner] seen at (o, i): elements base + k * inner.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/elementtraits.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/runtimeerror.h"

#include <string>

namespace ps::kernels {

/// The index of the first extreme of each lane, a NaN counting as the extreme (NumPy's rule).
template<class T, class I> struct ArgExtremeMap
{
    const T *x;
    I *out;
    int64_t size, inner;
    bool isMax;
    PS_HOST_DEVICE void operator()(int64_t lane) const
    {
        using C = ComputeOf<T>;
        const int64_t base = lane / inner * size * inner + lane % inner;
        int64_t best = 0;
        C bestValue = loadElement(x[base]);
        for (int64_t k = 1; k < size && !km::isnan(bestValue); ++k) {
            const C v = loadElement(x[base + k * inner]);
            if (km::isnan(v) || (isMax ? v > bestValue : v < bestValue)) {
                best = k;
                bestValue = v;
            }
        }
        out[lane] = I(best);
    }
};

/// argmax / argmin (x, axis?) {keepdims, flatten, dtype}: flatten ranks the whole tensor (a 0-d
/// result, or all ones with keepdims).
template<class Exec> void argExtremeKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const bool isMax = ctx.opName() == "pd_op.argmax";
    const Tensor x = exec.input(0);
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
        const int64_t axis = normalizeAxisOrScalar(axisValue, int64_t(x.rank()), label + " axis");
        s = splitAtAxis(x.shape(), axis);
        outShape = x.shape();
        if (keepdims)
            outShape[size_t(axis)] = 1;
        else
            outShape.erase(outShape.begin() + axis);
    }
    if (s.size == 0)
        throw RuntimeError(label + ": cannot take the arg-extreme of an empty axis of x " + shapeText(x.shape()));
    Tensor out = exec.allocate(outShape, dtype);
    Exec::dispatchAll(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        Exec::dispatchIndex(dtype, label.c_str(), [&](auto itag) {
            using I = decltype(itag);
            exec.launch(s.outer * s.inner,
                ArgExtremeMap<T, I> { static_cast<const T *>(x.rawData()), static_cast<I *>(out.rawData()), s.size,
                    s.inner, isMax },
                label.c_str());
        });
    });
    ctx.setOutput(0, out);
}

/// Running sums of each lane, accumulated in double (floats) or int64 and stored rounded.
template<class T> struct CumsumMap
{
    using Acc = std::conditional_t<kIsFloatingElement<T>, double, int64_t>;
    const T *x;
    T *out;
    int64_t size, inner;
    bool exclusive, reverse;
    PS_HOST_DEVICE void operator()(int64_t lane) const
    {
        const int64_t base = lane / inner * size * inner + lane % inner;
        Acc acc = 0;
        for (int64_t q = 0; q < size; ++q) {
            const int64_t idx = base + (reverse ? size - 1 - q : q) * inner;
            const Acc v = Acc(loadElement(x[idx]));
            if (!exclusive)
                acc += v;
            out[idx] = storeElement<T>(acc);
            if (exclusive)
                acc += v;
        }
    }
};

/// cumsum (x, axis?) {flatten, exclusive, reverse}.
template<class Exec> void cumsumKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0);
    const bool flatten = ctx.boolAttr("flatten", false);
    AxisSplit s;
    std::vector<int64_t> outShape = x.shape();
    if (flatten || x.rank() == 0) {
        s.size = x.numElements();
        if (flatten)
            outShape = { x.numElements() };
    } else {
        const int64_t axisValue = ctx.hasInput(1) ? int64_t(ctx.inputAsScalar(1)) : ctx.intAttr("axis", -1);
        s = splitAtAxis(x.shape(), normalizeAxisOrScalar(axisValue, int64_t(x.rank()), label + " axis"));
    }
    Tensor out = exec.allocate(outShape, x.dtype());
    Exec::dispatchAll(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool>) {
            throw RuntimeError(label + ": unsupported dtype bool");
        } else {
            exec.launch(s.size == 0 ? 0 : s.outer * s.inner,
                CumsumMap<T> { static_cast<const T *>(x.rawData()), static_cast<T *>(out.rawData()), s.size, s.inner,
                    ctx.boolAttr("exclusive", false), ctx.boolAttr("reverse", false) },
                label.c_str());
        }
    });
    ctx.setOutput(0, out);
}

/// The k best of each lane, sorted, ties in index order: elements are visited in order and
/// inserted into the (strided) output lane when they beat its current last entry. Largest: NaN
/// first, then greater; smallest: NaN last, then less.
template<class T> struct TopkMap
{
    const T *x;
    T *values;
    int64_t *indices;
    int64_t size, inner, k;
    bool largest;
    PS_HOST_DEVICE bool better(ComputeOf<T> a, ComputeOf<T> b) const
    {
        return largest ? (km::isnan(a) && !km::isnan(b)) || a > b : (!km::isnan(a) && km::isnan(b)) || a < b;
    }
    PS_HOST_DEVICE void operator()(int64_t lane) const
    {
        const int64_t o = lane / inner, i = lane % inner;
        const int64_t base = o * size * inner + i, outBase = o * k * inner + i;
        int64_t filled = 0;
        for (int64_t q = 0; q < size; ++q) {
            const ComputeOf<T> v = loadElement(x[base + q * inner]);
            if (filled == k && !better(v, loadElement(values[outBase + (k - 1) * inner])))
                continue;
            int64_t at = filled < k ? filled++ : k - 1;
            while (at > 0 && better(v, loadElement(values[outBase + (at - 1) * inner]))) {
                values[outBase + at * inner] = values[outBase + (at - 1) * inner];
                indices[outBase + at * inner] = indices[outBase + (at - 1) * inner];
                --at;
            }
            values[outBase + at * inner] = x[base + q * inner];
            indices[outBase + at * inner] = q;
        }
    }
};

/// topk (x, k?) {axis, largest, sorted} -> values, int64 indices (always sorted).
template<class Exec> void topkKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0);
    const int64_t k = ctx.hasInput(1) ? int64_t(ctx.inputAsScalar(1)) : ctx.intAttr("k", 1);
    const int64_t axis = normalizeAxisOrScalar(ctx.intAttr("axis", -1), int64_t(x.rank()), label + " axis");
    const AxisSplit s = splitAtAxis(x.shape(), axis);
    if (k < 0 || k > s.size)
        throw RuntimeError(label + ": k " + std::to_string(k) + " outside [0, " + std::to_string(s.size) + "] for x "
            + shapeText(x.shape()));
    std::vector<int64_t> outShape = x.shape();
    if (!outShape.empty())
        outShape[size_t(axis)] = k;
    Tensor values = exec.allocate(outShape, x.dtype());
    Tensor indices = exec.allocate(outShape, DataType::Int64);
    Exec::dispatchAll(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        exec.launch(k == 0 ? 0 : s.outer * s.inner,
            TopkMap<T> { static_cast<const T *>(x.rawData()), static_cast<T *>(values.rawData()),
                static_cast<int64_t *>(indices.rawData()), s.size, s.inner, k, ctx.boolAttr("largest", true) },
            label.c_str());
    });
    ctx.setOutput(0, values);
    ctx.setOutput(1, indices);
}

/// argmax, argmin, cumsum (topk is registered by each backend: see the file comment).
template<class Exec> void registerLaneKernels(KernelRegistry &registry)
{
    registry.add("pd_op.argmax", &argExtremeKernel<Exec>);
    registry.add("pd_op.argmin", &argExtremeKernel<Exec>);
    registry.add("pd_op.cumsum", &cumsumKernel<Exec>);
}

} // namespace ps::kernels
