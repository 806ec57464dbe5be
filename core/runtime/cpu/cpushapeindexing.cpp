// Indexing ops: slice, strided_slice, set_value(_with_tensor)(_), gather, gather_nd,
// index_select, embedding, one_hot, shape, shape64.

#include "core/runtime/backend.h"
#include "core/runtime/cpu/cpuelementwisecommon.h"
#include "core/runtime/cpu/cpushapecopy.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cstring>

namespace ps::cpuew {
namespace {

Tensor allocLike(const KernelContext &ctx, const std::vector<int64_t> &shape, DataType dtype)
{
    return ctx.allocate(shape, dtype);
}

/// One axis of a Python-style slice after normalisation: first index, step, element count.
struct AxisRange
{
    int64_t start = 0, step = 1, count = 0;
};

/// Python/NumPy slice semantics (PySlice_AdjustIndices): negative start/end count from the end,
/// then clamp to the dim ([-1, dim-1] for a negative step).
AxisRange normalizeRange(int64_t start, int64_t end, int64_t step, int64_t dim)
{
    if (step == 0)
        throw RuntimeError("slice step is 0");
    const auto adjust = [&](int64_t v) {
        if (v < 0)
            v += dim;
        return step > 0 ? std::clamp<int64_t>(v, 0, dim) : std::clamp<int64_t>(v, -1, dim - 1);
    };
    AxisRange r;
    r.step = step;
    r.start = adjust(start);
    const int64_t e = adjust(end);
    if (step > 0)
        r.count = e > r.start ? (e - r.start + step - 1) / step : 0;
    else
        r.count = r.start > e ? (r.start - e - step - 1) / -step : 0;
    return r;
}

/// The strided view of x selected by per-axis (start, end, step) on `axes`; other dims whole.
StridedView sliceView(const Tensor &x, const std::vector<int64_t> &axes, const std::vector<int64_t> &starts,
    const std::vector<int64_t> &ends, const std::vector<int64_t> &steps, const char *what)
{
    if (starts.size() != axes.size() || ends.size() != axes.size()
        || (!steps.empty() && steps.size() != axes.size()))
        throw RuntimeError(std::string(what) + ": axes " + shapeText(axes) + ", starts " + shapeText(starts)
            + ", ends " + shapeText(ends) + " differ in length");
    const std::vector<int64_t> strides = contiguousStrides(x.shape());
    StridedView view { x.shape(), strides, 0 };
    for (size_t i = 0; i < axes.size(); ++i) {
        const size_t axis = normalizeAxis(axes[i], x.rank(), std::string(what) + " axis");
        const AxisRange r = normalizeRange(starts[i], ends[i], steps.empty() ? 1 : steps[i], x.dim(axis));
        view.base += r.start * strides[axis];
        view.shape[axis] = r.count;
        view.strides[axis] = strides[axis] * r.step;
    }
    return view;
}

/// `shape` without the dims listed in `axes` (each must be 1).
std::vector<int64_t> withoutAxes(
    const std::vector<int64_t> &shape, const std::vector<int64_t> &axes, const char *what)
{
    std::vector<bool> drop(shape.size(), false);
    for (int64_t a : axes) {
        const size_t axis = normalizeAxis(a, shape.size(), std::string(what) + " decrease axis");
        if (shape[axis] != 1)
            throw RuntimeError(std::string(what) + ": cannot drop dim " + std::to_string(axis) + " of size "
                + std::to_string(shape[axis]));
        drop[axis] = true;
    }
    std::vector<int64_t> out;
    for (size_t i = 0; i < shape.size(); ++i)
        if (!drop[i])
            out.push_back(shape[i]);
    return out;
}

/// slice (input, starts, ends) {axes, infer_flags, decrease_axis}.
void sliceKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    elementBytes(x, "slice");
    const std::vector<int64_t> axes = ctx.intsAttr("axes");
    const StridedView view = sliceView(
        x, axes, intsOperandOrAttr(ctx, 1, "starts"), intsOperandOrAttr(ctx, 2, "ends"), {}, "slice");
    Tensor out = gatherTensor(x, view, [&](auto s, DataType d) { return allocLike(ctx, s, d); });
    const std::vector<int64_t> decrease = ctx.intsAttr("decrease_axis", std::vector<int64_t> {});
    ctx.setOutput(0, decrease.empty() ? out : out.reshaped(withoutAxes(out.shape(), decrease, "slice")));
}

/// strided_slice (x, starts, ends, strides) {axes}: Python slicing, negative strides included.
void stridedSliceKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    elementBytes(x, "strided_slice");
    const StridedView view = sliceView(x, ctx.intsAttr("axes"), intsOperandOrAttr(ctx, 1, "starts"),
        intsOperandOrAttr(ctx, 2, "ends"), intsOperandOrAttr(ctx, 3, "strides"), "strided_slice");
    ctx.setOutput(0, gatherTensor(x, view, [&](auto s, DataType d) { return allocLike(ctx, s, d); }));
}

/// set_value (x, starts, ends, steps) {axes, decrease_axes, none_axes, shape, values} and
/// set_value_with_tensor (x, values, starts, ends, steps) {axes, decrease_axes, none_axes}:
/// x[slices] = values broadcast to the slice shape (decrease axes dropped, none axes inserted as
/// 1, as Paddle assigns). The `_` forms write into x; the others into a copy of x.
void setValueKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const size_t bytes = elementBytes(x, "set_value");
    const bool withTensor = ctx.opName().find("with_tensor") != std::string_view::npos;
    const size_t first = withTensor ? 2 : 1;
    const StridedView view = sliceView(x, ctx.intsAttr("axes"), intsOperandOrAttr(ctx, first, "starts"),
        intsOperandOrAttr(ctx, first + 1, "ends"),
        intsOperandOrAttr(ctx, first + 2, "steps", std::vector<int64_t> {}), "set_value");

    // The value, as a tensor of x's dtype.
    Tensor value;
    if (withTensor) {
        value = ctx.backend().toHost(ctx.input(1));
        if (value.dtype() != x.dtype())
            throw RuntimeError(
                "set_value: value " + value.describe() + " differs in dtype from x " + x.describe());
    } else {
        const std::vector<double> numbers = numbersAttr(ctx, "values");
        std::vector<int64_t> shape = ctx.intsAttr("shape", std::vector<int64_t> { int64_t(numbers.size()) });
        if (numElementsOf(shape) != int64_t(numbers.size()))
            throw RuntimeError(
                "set_value: " + std::to_string(numbers.size()) + " values for shape " + shapeText(shape));
        value = Tensor::fromDoubles(shape, x.dtype(), numbers);
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
        throw RuntimeError("set_value: value " + value.describe() + " does not broadcast to the slice "
            + shapeText(view.shape));
    }
    std::vector<char> expanded(size_t(numElementsOf(target)) * bytes);
    gatherStrided(value.rawData(), broadcast, expanded.data(), bytes);

    Tensor out = x;
    if (!isInplaceOp(ctx)) {
        out = ctx.allocate(x.shape(), x.dtype());
        std::memcpy(out.rawData(), x.rawData(), x.byteSize());
    }
    scatterStrided(expanded.data(), out.rawData(), view, bytes);
    ctx.setOutput(0, out);
}

/// Index element `i` of an int32/int64 tensor, wrapped once if negative and checked against `dim`.
int64_t indexAt(const Tensor &index, int64_t i, int64_t dim, const char *what)
{
    int64_t v = 0;
    if (index.dtype() == DataType::Int64)
        v = index.data<int64_t>()[i];
    else if (index.dtype() == DataType::Int32)
        v = index.data<int32_t>()[i];
    else
        throw RuntimeError(std::string(what) + ": index must be int32 or int64, got " + index.describe());
    const int64_t wrapped = v < 0 ? v + dim : v;
    if (wrapped < 0 || wrapped >= dim)
        throw RuntimeError(std::string(what) + ": index " + std::to_string(v)
            + " is out of range for a dim of " + std::to_string(dim));
    return wrapped;
}

/// out = x taken along `axis` at `index` (any rank; out shape x[:axis] + index + x[axis+1:]).
Tensor takeAlong(
    const KernelContext &ctx, const Tensor &x, const Tensor &index, size_t axis, const char *what)
{
    const size_t bytes = elementBytes(x, what);
    std::vector<int64_t> shape(x.shape().begin(), x.shape().begin() + std::ptrdiff_t(axis));
    shape.insert(shape.end(), index.shape().begin(), index.shape().end());
    shape.insert(shape.end(), x.shape().begin() + std::ptrdiff_t(axis) + 1, x.shape().end());
    Tensor out = ctx.allocate(shape, x.dtype());
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < axis; ++i)
        outer *= x.dim(i);
    for (size_t i = axis + 1; i < x.rank(); ++i)
        inner *= x.dim(i);
    const int64_t dim = x.dim(axis), n = index.numElements();
    const size_t slab = size_t(inner) * bytes;
    const char *src = static_cast<const char *>(x.rawData());
    char *dst = static_cast<char *>(out.rawData());
    for (int64_t k = 0; k < n; ++k) {
        const int64_t row = indexAt(index, k, dim, what);
        for (int64_t o = 0; o < outer; ++o)
            std::memcpy(dst + size_t(o * n + k) * slab, src + size_t(o * dim + row) * slab, slab);
    }
    return out;
}

/// gather (x, index, axis).
void gatherKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const size_t axis
        = normalizeAxis(int64_t(scalarOperandOrAttr(ctx, 2, "axis", 0.0)), x.rank(), "gather axis");
    ctx.setOutput(0, takeAlong(ctx, x, ctx.input(1), axis, "gather"));
}

/// index_select (x, index) {axis}.
void indexSelectKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const size_t axis = normalizeAxis(ctx.intAttr("axis", 0), x.rank(), "index_select axis");
    ctx.setOutput(0, takeAlong(ctx, x, ctx.input(1), axis, "index_select"));
}

/// gather_nd (x, index): index[..., K] addresses x's first K dims; out = index.shape[:-1] +
/// x.shape[K:].
void gatherNdKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &index = ctx.input(1);
    const size_t bytes = elementBytes(x, "gather_nd");
    const size_t k = index.rank() == 0 ? 0 : size_t(index.shape().back());
    if (index.rank() == 0 || k > x.rank())
        throw RuntimeError("gather_nd: index " + index.describe() + " does not address " + x.describe());
    std::vector<int64_t> shape(index.shape().begin(), index.shape().end() - 1);
    shape.insert(shape.end(), x.shape().begin() + std::ptrdiff_t(k), x.shape().end());
    Tensor out = ctx.allocate(shape, x.dtype());
    const std::vector<int64_t> strides = contiguousStrides(x.shape());
    int64_t slab = 1;
    for (size_t i = k; i < x.rank(); ++i)
        slab *= x.dim(i);
    const int64_t rows
        = k ? index.numElements() / int64_t(k) : numElementsOf(shape) / std::max<int64_t>(slab, 1);
    const char *src = static_cast<const char *>(x.rawData());
    char *dst = static_cast<char *>(out.rawData());
    for (int64_t r = 0; r < rows; ++r) {
        int64_t offset = 0;
        for (size_t j = 0; j < k; ++j)
            offset += indexAt(index, r * int64_t(k) + int64_t(j), x.dim(j), "gather_nd") * strides[j];
        std::memcpy(dst + size_t(r * slab) * bytes, src + size_t(offset) * bytes, size_t(slab) * bytes);
    }
    ctx.setOutput(0, out);
}

/// embedding (x ids, weight) {padding_idx}: weight rows; rows of padding_idx (when not -1) are 0.
void embeddingKernel(KernelContext &ctx)
{
    const Tensor &ids = ctx.input(0), &weight = ctx.input(1);
    if (weight.rank() != 2)
        throw RuntimeError("embedding: weight must be 2-D, got " + weight.describe());
    int64_t padding = ctx.intAttr("padding_idx", -1);
    const int64_t vocab = weight.dim(0);
    if (padding < -1)
        padding += vocab;
    std::vector<int64_t> shape = ids.shape();
    shape.push_back(weight.dim(1));
    Tensor out = ctx.allocate(shape, weight.dtype());
    const size_t row = size_t(weight.dim(1)) * elementBytes(weight, "embedding");
    const char *src = static_cast<const char *>(weight.rawData());
    char *dst = static_cast<char *>(out.rawData());
    for (int64_t i = 0; i < ids.numElements(); ++i) {
        const int64_t raw = ids.dtype() == DataType::Int64 ? ids.data<int64_t>()[i]
            : ids.dtype() == DataType::Int32
            ? ids.data<int32_t>()[i]
            : throw RuntimeError("embedding: ids must be int32 or int64, got " + ids.describe());
        if (padding != -1 && raw == padding) {
            std::memset(dst + size_t(i) * row, 0, row);
            continue;
        }
        if (raw < 0 || raw >= vocab)
            throw RuntimeError(
                "embedding: id " + std::to_string(raw) + " is out of range for " + weight.describe());
        std::memcpy(dst + size_t(i) * row, src + size_t(raw) * row, row);
    }
    ctx.setOutput(0, out);
}

/// one_hot (x, num_classes): float32 x.shape + [num_classes].
void oneHotKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const int64_t depth = ctx.hasInput(1) ? int64_t(ctx.inputAsScalar(1))
        : ctx.attribute("num_classes")    ? ctx.intAttr("num_classes")
                                          : ctx.intAttr("depth");
    std::vector<int64_t> shape = x.shape();
    shape.push_back(depth);
    Tensor out = ctx.allocate(shape, DataType::Float32);
    std::memset(out.rawData(), 0, out.byteSize());
    float *p = out.data<float>();
    for (int64_t i = 0; i < x.numElements(); ++i) {
        const int64_t v = x.dtype() == DataType::Int64 ? x.data<int64_t>()[i]
            : x.dtype() == DataType::Int32
            ? x.data<int32_t>()[i]
            : throw RuntimeError("one_hot: x must be int32 or int64, got " + x.describe());
        if (v < 0 || v >= depth)
            throw RuntimeError("one_hot: " + std::to_string(v) + " is out of range for num_classes "
                + std::to_string(depth));
        p[i * depth + v] = 1.0f;
    }
    ctx.setOutput(0, out);
}

/// shape (int32) and shape64 (int64): x's dims as a 1-D tensor (the IR's declared dtype wins).
void shapeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    DataType dtype = ctx.opName() == "pd_op.shape64" ? DataType::Int64 : DataType::Int32;
    if (ctx.outputType(0)
        && (ctx.outputType(0).dtype() == DataType::Int32 || ctx.outputType(0).dtype() == DataType::Int64))
        dtype = ctx.outputType(0).dtype();
    Tensor out = ctx.allocate({ int64_t(x.rank()) }, dtype);
    for (size_t i = 0; i < x.rank(); ++i) {
        if (dtype == DataType::Int64)
            out.data<int64_t>()[i] = x.dim(i);
        else
            out.data<int32_t>()[i] = int32_t(x.dim(i));
    }
    ctx.setOutput(0, out);
}

} // namespace

void registerIndexingKernels(KernelRegistry &registry)
{
    registry.add("pd_op.slice", &sliceKernel);
    registry.add("pd_op.strided_slice", &stridedSliceKernel);
    registry.add("pd_op.set_value", &setValueKernel);
    registry.add("pd_op.set_value_", &setValueKernel);
    registry.add("pd_op.set_value_with_tensor", &setValueKernel);
    registry.add("pd_op.set_value_with_tensor_", &setValueKernel);
    registry.add("pd_op.gather", &gatherKernel);
    registry.add("pd_op.index_select", &indexSelectKernel);
    registry.add("pd_op.gather_nd", &gatherNdKernel);
    registry.add("pd_op.embedding", &embeddingKernel);
    registry.add("pd_op.one_hot", &oneHotKernel);
    registry.add("pd_op.shape", &shapeKernel);
    registry.add("pd_op.shape64", &shapeKernel);
}

} // namespace ps::cpuew
