#pragma once

// Indexing kernels of both backends, written once over an execution policy `Exec`: slice,
// strided_slice, set_value(_with_tensor)(_), gather, index_select, gather_nd, embedding,
// one_hot, shape, shape64. Slices are strided gathers, set_value a broadcast gather plus a
// strided scatter; index-driven ones are per-element functors that record an out-of-range
// index as a KernelFault (a RuntimeError after the loop on the CPU, at synchronize on CUDA).

#include "core/runtime/backend.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/elementwisekernels.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/kernelfault.h"
#include "core/runtime/kernels/layoutkernels.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>

namespace ps::kernels {

/// An index read from an int32/int64 tensor, wrapped once if negative; out of [0, dim) records
/// a fault and gives 0.
template<class I>
PS_HOST_DEVICE PS_INLINE int64_t wrappedIndex(I raw, int64_t dim, volatile KernelFault *fault)
{
    const int64_t v = int64_t(raw);
    const int64_t w = v < 0 ? v + dim : v;
    if (w < 0 || w >= dim) {
        raiseFault(fault, KernelFaultCode::IndexOutOfRange, v, dim);
        return 0;
    }
    return w;
}

/// out[o, k, j] = x[o, index[k], j] with x seen as [outer, dim, inner] and index of n entries.
template<class E, class I> struct TakeAlongMap
{
    const E *x;
    const I *index;
    E *out;
    int64_t n, dim, inner;
    volatile KernelFault *fault;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        const int64_t j = i % inner, t = i / inner, k = t % n, o = t / n;
        out[i] = x[(o * dim + wrappedIndex(index[k], dim, fault)) * inner + j];
    }
};

/// The most dims gather_nd's index may address.
constexpr int kMaxIndexDims = 12;

/// out[r, j] = x[offset(index[r, :]) + j]: row r of the index addresses x's first k dims.
template<class E, class I> struct GatherNdMap
{
    const E *x;
    const I *index;
    E *out;
    int64_t slab;
    int k;
    int64_t dims[kMaxIndexDims];
    int64_t strides[kMaxIndexDims];
    volatile KernelFault *fault;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        const int64_t r = i / slab, j = i - r * slab;
        int64_t offset = 0;
        for (int d = 0; d < k; ++d)
            offset += wrappedIndex(index[r * k + d], dims[d], fault) * strides[d];
        out[i] = x[offset + j];
    }
};

/// out[row, col] = weight[ids[row], col]; padding rows are 0; ids are not wrapped.
template<class E, class I> struct EmbeddingMap
{
    const I *ids;
    const E *weight;
    E *out;
    int64_t width, vocab, padding;
    volatile KernelFault *fault;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        const int64_t row = i / width, col = i - row * width;
        const int64_t id = int64_t(ids[row]);
        if (padding != -1 && id == padding) {
            out[i] = E(0);
        } else if (id < 0 || id >= vocab) {
            raiseFault(fault, KernelFaultCode::IdOutOfRange, id, vocab);
            out[i] = E(0);
        } else {
            out[i] = weight[id * width + col];
        }
    }
};

/// out[r, c] = x[r] == c (float32); a class out of range records a fault.
template<class I> struct OneHotMap
{
    const I *x;
    float *out;
    int64_t depth;
    volatile KernelFault *fault;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        const int64_t r = i / depth, c = i - r * depth;
        const int64_t v = int64_t(x[r]);
        if (c == 0 && (v < 0 || v >= depth))
            raiseFault(fault, KernelFaultCode::IndexOutOfRange, v, depth);
        out[i] = v == c ? 1.0f : 0.0f;
    }
};

/// slice (input, starts, ends) {axes, infer_flags, decrease_axis}.
template<class Exec> void sliceKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    requireElementSize<Exec>(x, "slice");
    const StridedView view = sliceView(
        x.shape(), ctx.intsAttr("axes"), intsOperandOrAttr(ctx, 1, "starts"), intsOperandOrAttr(ctx, 2, "ends"), {}, "slice");
    Tensor out = gatherView(exec, x, view);
    const std::vector<int64_t> decrease = ctx.intsAttr("decrease_axis", std::vector<int64_t> {});
    ctx.setOutput(0, decrease.empty() ? out : out.reshaped(withoutAxes(out.shape(), decrease, "slice")));
}

/// strided_slice (x, starts, ends, strides) {axes}: Python slicing, negative strides included.
template<class Exec> void stridedSliceKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    requireElementSize<Exec>(x, "strided_slice");
    const StridedView view = sliceView(x.shape(), ctx.intsAttr("axes"), intsOperandOrAttr(ctx, 1, "starts"),
        intsOperandOrAttr(ctx, 2, "ends"), intsOperandOrAttr(ctx, 3, "strides"), "strided_slice");
    ctx.setOutput(0, gatherView(exec, x, view));
}

/// set_value (x, starts, ends, steps) {axes, decrease_axes, none_axes, shape, values} and
/// set_value_with_tensor (x, values, starts, ends, steps) {axes, decrease_axes, none_axes}:
/// x[slices] = values broadcast to the slice shape (decrease axes dropped, none axes inserted as
/// 1, as Paddle assigns). The `_` forms write into x; the others into a copy of x.
template<class Exec> void setValueKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    requireElementSize<Exec>(x, "set_value");
    const bool withTensor = ctx.opName().find("with_tensor") != std::string_view::npos;
    const size_t first = withTensor ? 2 : 1;
    const StridedView view = sliceView(x.shape(), ctx.intsAttr("axes"), intsOperandOrAttr(ctx, first, "starts"),
        intsOperandOrAttr(ctx, first + 1, "ends"), intsOperandOrAttr(ctx, first + 2, "steps", std::vector<int64_t> {}),
        "set_value");
    Tensor value;
    if (withTensor) {
        value = exec.input(1);
        if (value.dtype() != x.dtype())
            throw RuntimeError("set_value: value " + value.describe() + " differs in dtype from x " + x.describe());
    } else {
        const std::vector<double> numbers = numbersAttr(ctx, "values");
        std::vector<int64_t> shape = ctx.intsAttr("shape", std::vector<int64_t> { int64_t(numbers.size()) });
        if (numElementsOf(shape) != int64_t(numbers.size()))
            throw RuntimeError("set_value: " + std::to_string(numbers.size()) + " values for shape " + shapeText(shape));
        value = ctx.backend().toDevice(Tensor::fromDoubles(shape, x.dtype(), numbers));
    }
    // The shape the value broadcasts to: the slice without decrease axes, plus none axes.
    std::vector<int64_t> target
        = withoutAxes(view.shape, ctx.intsAttr("decrease_axes", std::vector<int64_t> {}), "set_value");
    std::vector<int64_t> noneAxes = ctx.intsAttr("none_axes", std::vector<int64_t> {});
    std::sort(noneAxes.begin(), noneAxes.end());
    for (int64_t a : noneAxes)
        target.insert(target.begin() + std::ptrdiff_t(std::clamp<int64_t>(a, 0, int64_t(target.size()))), 1);
    StridedView broadcast;
    broadcast.shape = target;
    try {
        broadcast.strides = broadcastStrides(value.shape(), target);
    } catch (const RuntimeError &) {
        throw RuntimeError(
            "set_value: value " + value.describe() + " does not broadcast to the slice " + shapeText(view.shape));
    }
    const Tensor expanded = gatherView(exec, value, broadcast);
    Tensor out = x;
    if (!isInplaceOp(ctx)) {
        out = exec.allocate(x.shape(), x.dtype());
        exec.copy(out, x);
    }
    if (expanded.numElements() > 0)
        exec.scatter(expanded, out, view);
    ctx.setOutput(0, out);
}

/// out = x taken along `axis` at `index` (out shape x[:axis] + index + x[axis+1:]).
template<class Exec>
Tensor takeAlong(Exec &exec, const Tensor &x, const Tensor &index, size_t axis, const std::string &what)
{
    requireElementSize<Exec>(x, what.c_str());
    std::vector<int64_t> shape(x.shape().begin(), x.shape().begin() + std::ptrdiff_t(axis));
    shape.insert(shape.end(), index.shape().begin(), index.shape().end());
    shape.insert(shape.end(), x.shape().begin() + std::ptrdiff_t(axis) + 1, x.shape().end());
    Tensor out = exec.allocate(shape, x.dtype());
    const AxisSplit s = splitAtAxis(x.shape(), int64_t(axis));
    Exec::dispatchIndex(index.dtype(), (what + ": index").c_str(), [&](auto itag) {
        using I = decltype(itag);
        dispatchBySize(x.elementSize(), what.c_str(), [&](auto etag) {
            using E = decltype(etag);
            exec.launch(out.numElements(),
                TakeAlongMap<E, I> { static_cast<const E *>(x.rawData()), static_cast<const I *>(index.rawData()),
                    static_cast<E *>(out.rawData()), index.numElements(), s.size, s.inner, exec.fault() },
                what.c_str());
        });
    });
    exec.raiseFaults(what);
    return out;
}

/// gather (x, index, axis).
template<class Exec> void gatherKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0), index = exec.input(1);
    const size_t axis
        = size_t(normalizeAxis(int64_t(scalarOperandOrAttr(ctx, 2, "axis", 0.0)), int64_t(x.rank()), "gather axis"));
    ctx.setOutput(0, takeAlong(exec, x, index, axis, "gather"));
}

/// index_select (x, index) {axis}.
template<class Exec> void indexSelectKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0), index = exec.input(1);
    const size_t axis = size_t(normalizeAxis(ctx.intAttr("axis", 0), int64_t(x.rank()), "index_select axis"));
    ctx.setOutput(0, takeAlong(exec, x, index, axis, "index_select"));
}

/// gather_nd (x, index): index[..., K] addresses x's first K dims; out = index.shape[:-1] +
/// x.shape[K:].
template<class Exec> void gatherNdKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0), index = exec.input(1);
    requireElementSize<Exec>(x, "gather_nd");
    const size_t k = index.rank() == 0 ? 0 : size_t(index.shape().back());
    if (index.rank() == 0 || k > x.rank())
        throw RuntimeError("gather_nd: index " + index.describe() + " does not address " + x.describe());
    if (k > size_t(kMaxIndexDims))
        throw RuntimeError("gather_nd: index addresses more than " + std::to_string(kMaxIndexDims) + " dims");
    std::vector<int64_t> shape(index.shape().begin(), index.shape().end() - 1);
    shape.insert(shape.end(), x.shape().begin() + std::ptrdiff_t(k), x.shape().end());
    Tensor out = exec.allocate(shape, x.dtype());
    const std::vector<int64_t> strides = contiguousStrides(x.shape());
    int64_t slab = 1;
    for (size_t i = k; i < x.rank(); ++i)
        slab *= x.dim(i);
    Exec::dispatchIndex(index.dtype(), "gather_nd: index", [&](auto itag) {
        using I = decltype(itag);
        dispatchBySize(x.elementSize(), "gather_nd", [&](auto etag) {
            using E = decltype(etag);
            GatherNdMap<E, I> f {};
            f.x = static_cast<const E *>(x.rawData());
            f.index = static_cast<const I *>(index.rawData());
            f.out = static_cast<E *>(out.rawData());
            f.slab = std::max<int64_t>(slab, 1);
            f.k = int(k);
            for (size_t d = 0; d < k; ++d) {
                f.dims[d] = x.dim(d);
                f.strides[d] = strides[d];
            }
            f.fault = exec.fault();
            exec.launch(slab == 0 ? 0 : out.numElements(), f, "gather_nd");
        });
    });
    exec.raiseFaults("gather_nd");
    ctx.setOutput(0, out);
}

/// embedding (x ids, weight) {padding_idx}: weight rows; rows of padding_idx (when not -1) are 0.
template<class Exec> void embeddingKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor ids = exec.input(0), weight = exec.input(1);
    if (weight.rank() != 2)
        throw RuntimeError("embedding: weight must be 2-D, got " + weight.describe());
    requireElementSize<Exec>(weight, "embedding");
    int64_t padding = ctx.intAttr("padding_idx", -1);
    const int64_t vocab = weight.dim(0);
    if (padding < -1)
        padding += vocab;
    std::vector<int64_t> shape = ids.shape();
    shape.push_back(weight.dim(1));
    Tensor out = exec.allocate(shape, weight.dtype());
    Exec::dispatchIndex(ids.dtype(), "embedding: ids", [&](auto itag) {
        using I = decltype(itag);
        dispatchBySize(weight.elementSize(), "embedding", [&](auto etag) {
            using E = decltype(etag);
            exec.launch(weight.dim(1) == 0 ? 0 : out.numElements(),
                EmbeddingMap<E, I> { static_cast<const I *>(ids.rawData()), static_cast<const E *>(weight.rawData()),
                    static_cast<E *>(out.rawData()), weight.dim(1), vocab, padding, exec.fault() },
                "embedding");
        });
    });
    exec.raiseFaults("embedding");
    ctx.setOutput(0, out);
}

/// one_hot (x, num_classes): float32 x.shape + [num_classes].
template<class Exec> void oneHotKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    const int64_t depth = ctx.hasInput(1) ? int64_t(ctx.inputAsScalar(1))
        : ctx.attribute("num_classes")    ? ctx.intAttr("num_classes")
                                          : ctx.intAttr("depth");
    std::vector<int64_t> shape = x.shape();
    shape.push_back(depth);
    Tensor out = exec.allocate(shape, DataType::Float32);
    Exec::dispatchIndex(x.dtype(), "one_hot: x", [&](auto itag) {
        using I = decltype(itag);
        exec.launch(depth <= 0 ? 0 : out.numElements(),
            OneHotMap<I> { static_cast<const I *>(x.rawData()), static_cast<float *>(out.rawData()), depth, exec.fault() },
            "one_hot");
    });
    exec.raiseFaults("one_hot");
    ctx.setOutput(0, out);
}

/// slice_grad (input, out_grad, starts, ends) {axes}: zeros of input's shape with out_grad written
/// into the sliced region.
template<class Exec> void sliceGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor g = exec.input(1);
    const std::vector<int64_t> axes = ctx.intsAttr("axes");
    const StridedView view = sliceView(
        x.shape(), axes, intsOperandOrAttr(ctx, 2, "starts"), intsOperandOrAttr(ctx, 3, "ends"), {}, "slice_grad");
    if (numElementsOf(view.shape) != g.numElements())
        throw RuntimeError("slice_grad: out_grad " + g.describe() + " does not fill the slice "
            + shapeText(view.shape) + " of " + x.describe());
    Tensor out = exec.allocate(x.shape(), g.dtype());
    exec.zero(out);
    if (g.numElements() > 0)
        exec.scatter(g, out, view);
    ctx.setOutput(0, out);
}

/// The region set_value (or its grad, whose operands start at `startsOperand`) wrote.
inline StridedView setValueGradRegion(const KernelContext &ctx, const std::vector<int64_t> &shape, size_t startsOperand)
{
    return sliceView(shape, ctx.intsAttr("axes"), ctx.inputAsInts(startsOperand), ctx.inputAsInts(startsOperand + 1),
        ctx.hasInput(startsOperand + 2) ? ctx.inputAsInts(startsOperand + 2) : std::vector<int64_t> {},
        "set_value grad");
}

/// set_value_grad: Paddle 3.3.1's static form is (out_grad) -> x_grad, a plain copy (its kernel
/// is `assign`); the dygraph form (out_grad, starts, ends, steps) zeroes the written region.
template<class Exec> void setValueGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor g = exec.input(0);
    Tensor out = exec.allocate(g.shape(), g.dtype());
    exec.copy(out, g);
    if (ctx.hasInput(1)) {
        const StridedView region = setValueGradRegion(ctx, g.shape(), 1);
        Tensor zeros = exec.allocate(region.shape, g.dtype());
        exec.zero(zeros);
        if (zeros.numElements() > 0)
            exec.scatter(zeros, out, region);
    }
    ctx.setOutput(0, out);
}

/// shape (int32) and shape64 (int64): x's dims as a 1-D host tensor (the IR's declared dtype
/// wins), as in Paddle: its consumers read it on the host.
void shapeKernel(KernelContext &ctx);

template<class Exec> void registerIndexingKernels(KernelRegistry &registry)
{
    registry.add("pd_op.slice", &sliceKernel<Exec>);
    registry.add("pd_op.strided_slice", &stridedSliceKernel<Exec>);
    registry.add("pd_op.set_value", &setValueKernel<Exec>);
    registry.add("pd_op.set_value_", &setValueKernel<Exec>);
    registry.add("pd_op.set_value_with_tensor", &setValueKernel<Exec>);
    registry.add("pd_op.set_value_with_tensor_", &setValueKernel<Exec>);
    registry.add("pd_op.gather", &gatherKernel<Exec>);
    registry.add("pd_op.index_select", &indexSelectKernel<Exec>);
    registry.add("pd_op.gather_nd", &gatherNdKernel<Exec>);
    registry.add("pd_op.embedding", &embeddingKernel<Exec>);
    registry.add("pd_op.one_hot", &oneHotKernel<Exec>);
    registry.add("pd_op.shape", &shapeKernel);
    registry.add("pd_op.shape64", &shapeKernel);
}

/// slice_grad and set_value_grad.
template<class Exec> void registerIndexingGradKernels(KernelRegistry &registry)
{
    registry.add("pd_op.slice_grad", &sliceGradKernel<Exec>);
    registry.add("pd_op.set_value_grad", &setValueGradKernel<Exec>);
}

} // namespace ps::kernels
