// Indexing ops: slice, strided_slice, set_value(_with_tensor)(_), embedding, shape/shape64.
// Semantics follow core/runtime/cpu/cpushapeindexing.cpp; slices are strided gathers
// (cuda::gatherInto), set_value a broadcast gather plus a strided scatter.

#include "core/ir/attribute.h"
#include "core/runtime/backend.h"
#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudakernelutil.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelregistry.h"

#include <algorithm>

namespace ps {
namespace {

using namespace cuda;

/// A strided view: element (i0, i1, ...) of `shape` at `base + sum i_d * strides[d]`.
struct StridedView
{
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    int64_t base = 0;
};

Tensor gatherView(CudaRuntime &rt, const Tensor &x, const StridedView &view)
{
    Tensor out = rt.allocate(view.shape, x.dtype());
    gatherInto(rt, x, out, view.shape, view.strides, view.base);
    return out;
}

struct AxisRange
{
    int64_t start = 0, step = 1, count = 0;
};

/// Python slice semantics: negative start/end count from the end, then clamp to the dim.
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

void sliceKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const StridedView view = sliceView(x, ctx.intsAttr("axes"), intsOperandOrAttr(ctx, 1, "starts"),
        intsOperandOrAttr(ctx, 2, "ends"), {}, "slice");
    Tensor out = gatherView(rt, x, view);
    const std::vector<int64_t> decrease = ctx.intsAttr("decrease_axis", std::vector<int64_t> {});
    ctx.setOutput(0, decrease.empty() ? out : out.reshaped(withoutAxes(out.shape(), decrease, "slice")));
}

void stridedSliceKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const StridedView view = sliceView(x, ctx.intsAttr("axes"), intsOperandOrAttr(ctx, 1, "starts"),
        intsOperandOrAttr(ctx, 2, "ends"), intsOperandOrAttr(ctx, 3, "strides"), "strided_slice");
    ctx.setOutput(0, gatherView(rt, x, view));
}

/// Numbers of an array attribute (ints, floats or bools).
std::vector<double> numbersAttr(const KernelContext &ctx, std::string_view name)
{
    const Attribute *a = ctx.attribute(name);
    if (!a)
        throw RuntimeError("missing attribute '" + std::string(name) + "'");
    if (a->kind() != Attribute::Kind::Array)
        return ctx.floatsAttr(name);
    std::vector<double> out;
    for (const Attribute &e : a->asArray()) {
        if (e.kind() == Attribute::Kind::Bool)
            out.push_back(e.asBool() ? 1.0 : 0.0);
        else if (e.isInteger() || e.isFloating() || e.kind() == Attribute::Kind::Scalar)
            out.push_back(e.asDouble());
        else
            throw RuntimeError("attribute '" + std::string(name) + "' holds a non-numeric element");
    }
    return out;
}

/// x[slices] = values broadcast to the slice; the `_` forms write into x.
void setValueKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const bool withTensor = ctx.opName().find("with_tensor") != std::string_view::npos;
    const size_t first = withTensor ? 2 : 1;
    const StridedView view = sliceView(x, ctx.intsAttr("axes"), intsOperandOrAttr(ctx, first, "starts"),
        intsOperandOrAttr(ctx, first + 1, "ends"),
        intsOperandOrAttr(ctx, first + 2, "steps", std::vector<int64_t> {}), "set_value");
    Tensor value;
    if (withTensor) {
        value = deviceInput(ctx, 1);
        if (value.dtype() != x.dtype())
            throw RuntimeError(
                "set_value: value " + value.describe() + " differs in dtype from x " + x.describe());
    } else {
        const std::vector<double> numbers = numbersAttr(ctx, "values");
        std::vector<int64_t> shape = ctx.intsAttr("shape", std::vector<int64_t> { int64_t(numbers.size()) });
        if (numElementsOf(shape) != int64_t(numbers.size()))
            throw RuntimeError(
                "set_value: " + std::to_string(numbers.size()) + " values for shape " + shapeText(shape));
        value = ctx.backend().toDevice(Tensor::fromDoubles(shape, x.dtype(), numbers));
    }
    std::vector<int64_t> target
        = withoutAxes(view.shape, ctx.intsAttr("decrease_axes", std::vector<int64_t> {}), "set_value");
    std::vector<int64_t> noneAxes = ctx.intsAttr("none_axes", std::vector<int64_t> {});
    std::sort(noneAxes.begin(), noneAxes.end());
    for (int64_t a : noneAxes)
        target.insert(target.begin() + std::ptrdiff_t(std::clamp<int64_t>(a, 0, int64_t(target.size()))), 1);
    if (value.rank() > target.size())
        throw RuntimeError("set_value: value " + value.describe() + " does not broadcast to the slice "
            + shapeText(view.shape));
    for (size_t i = 0; i < value.rank(); ++i) {
        const int64_t d = value.dim(i), t = target[target.size() - value.rank() + i];
        if (d != t && d != 1)
            throw RuntimeError("set_value: value " + value.describe() + " does not broadcast to the slice "
                + shapeText(view.shape));
    }
    Tensor expanded = rt.allocate(target, x.dtype());
    gatherInto(rt, value, expanded, target, broadcastStrides(value.shape(), target), 0);
    Tensor out = isInplaceOp(ctx) ? x : cuda::copy(rt, x);
    scatterInto(rt, expanded, out, view.shape, view.strides, view.base);
    ctx.setOutput(0, out);
}

template<class I, class E>
void runEmbedding(
    const CudaRuntime &rt, const Tensor &ids, const Tensor &weight, Tensor &out, int64_t padding)
{
    const I *pi = static_cast<const I *>(ids.rawData());
    const E *pw = static_cast<const E *>(weight.rawData());
    E *po = static_cast<E *>(out.rawData());
    const int64_t width = weight.dim(1), vocab = weight.dim(0);
    volatile uint32_t *err = rt.deviceError;
    launchFlat(
        rt, out.numElements(),
        [=] __device__(int64_t i) {
            const int64_t row = i / width, col = i - row * width;
            const int64_t id = int64_t(pi[row]);
            if (padding != -1 && id == padding) {
                po[i] = E(0);
            } else if (id < 0 || id >= vocab) {
                *err = uint32_t(CudaDeviceError::IndexOutOfRange);
                po[i] = E(0);
            } else {
                po[i] = pw[id * width + col];
            }
        },
        "embedding");
}

/// embedding (ids, weight) {padding_idx}: weight rows; padding rows are 0. An id out of range
/// is reported by the next synchronize() (the device cannot throw).
void embeddingKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor ids = deviceInput(ctx, 0), weight = deviceInput(ctx, 1);
    if (weight.rank() != 2)
        throw RuntimeError("embedding: weight must be 2-D, got " + weight.describe());
    int64_t padding = ctx.intAttr("padding_idx", -1);
    if (padding < -1)
        padding += weight.dim(0);
    std::vector<int64_t> shape = ids.shape();
    shape.push_back(weight.dim(1));
    Tensor out = ctx.allocate(shape, weight.dtype());
    dispatchIndex(ids.dtype(), "embedding ids", [&](auto itag) {
        using I = decltype(itag);
        switch (weight.elementSize()) {
        case 1:
            return runEmbedding<I, uint8_t>(rt, ids, weight, out, padding);
        case 2:
            return runEmbedding<I, uint16_t>(rt, ids, weight, out, padding);
        case 4:
            return runEmbedding<I, uint32_t>(rt, ids, weight, out, padding);
        case 8:
            return runEmbedding<I, uint64_t>(rt, ids, weight, out, padding);
        default:
            throw RuntimeError("embedding: unsupported weight " + weight.describe());
        }
    });
    ctx.setOutput(0, out);
}

/// shape (int32) / shape64 (int64): a host tensor, as in Paddle (consumers read it on the host).
void shapeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    DataType dtype = ctx.opName() == "pd_op.shape64" ? DataType::Int64 : DataType::Int32;
    const DataType declared = declaredDtype(ctx, 0);
    if (declared == DataType::Int32 || declared == DataType::Int64)
        dtype = declared;
    Tensor out = Tensor::empty({ int64_t(x.rank()) }, dtype);
    for (size_t i = 0; i < x.rank(); ++i) {
        if (dtype == DataType::Int64)
            out.data<int64_t>()[i] = x.dim(i);
        else
            out.data<int32_t>()[i] = int32_t(x.dim(i));
    }
    ctx.setOutput(0, out);
}

} // namespace

void registerCudaIndexingKernels(KernelRegistry &registry)
{
    registry.add("pd_op.slice", &sliceKernel);
    registry.add("pd_op.strided_slice", &stridedSliceKernel);
    registry.add("pd_op.set_value", &setValueKernel);
    registry.add("pd_op.set_value_", &setValueKernel);
    registry.add("pd_op.set_value_with_tensor", &setValueKernel);
    registry.add("pd_op.set_value_with_tensor_", &setValueKernel);
    registry.add("pd_op.embedding", &embeddingKernel);
    registry.add("pd_op.shape", &shapeKernel);
    registry.add("pd_op.shape64", &shapeKernel);
}

} // namespace ps
