// Layout ops: reshape, flatten, squeeze, unsqueeze (views of the input's storage), transpose,
// concat, split, split_with_num, stack, tile, expand, flip, and the strided gather/scatter
// (cuda::gatherInto/scatterInto) they and the indexing ops are made of; elements move by size,
// so every dtype works. Semantics follow core/runtime/cpu/cpushapekernels.cpp.

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

template<class E>
void gatherTyped(const CudaRuntime &rt, const void *src, void *dst, const IndexSpace<1> &space)
{
    const E *in = static_cast<const E *>(src);
    E *out = static_cast<E *>(dst);
    launchIndexed(
        rt, space, [=] __device__(int64_t i, Offsets<1> o) { out[i] = in[o.v[0]]; }, "gather");
}

template<class E>
void scatterTyped(const CudaRuntime &rt, const void *src, void *dst, const IndexSpace<1> &space)
{
    const E *in = static_cast<const E *>(src);
    E *out = static_cast<E *>(dst);
    launchIndexed(
        rt, space, [=] __device__(int64_t i, Offsets<1> o) { out[o.v[0]] = in[i]; }, "scatter");
}

IndexSpace<1> spaceOf(const std::vector<int64_t> &sizes, const std::vector<int64_t> &strides, int64_t base)
{
    IndexSpace<1> space;
    space.sizes = sizes;
    for (int64_t s : strides)
        space.strides.push_back({ s });
    space.base = { base };
    space.coalesce();
    return space;
}

template<class Fn> void bySize(size_t bytes, const char *what, Fn &&fn)
{
    switch (bytes) {
    case 1:
        return fn(uint8_t {});
    case 2:
        return fn(uint16_t {});
    case 4:
        return fn(uint32_t {});
    case 8:
        return fn(uint64_t {});
    default:
        throw RuntimeError(std::string(what) + ": unsupported element size " + std::to_string(bytes));
    }
}

Tensor gatherView(CudaRuntime &rt, const Tensor &x, const StridedView &view)
{
    Tensor out = rt.allocate(view.shape, x.dtype());
    gatherInto(rt, x, out, view.shape, view.strides, view.base);
    return out;
}

void reshapeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> shape = intsOperandOrAttr(ctx, 1, "shape");
    int inferred = -1;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) {
            if (i >= x.rank())
                throw RuntimeError("reshape: shape " + shapeText(shape) + " copies dim " + std::to_string(i)
                    + " that " + x.describe() + " does not have");
            shape[i] = x.dim(i);
        }
        if (shape[i] == -1) {
            if (inferred >= 0)
                throw RuntimeError("reshape: shape " + shapeText(shape) + " has more than one -1");
            inferred = int(i);
        } else if (shape[i] < 0) {
            throw RuntimeError("reshape: shape " + shapeText(shape) + " has a negative dim");
        } else {
            known *= shape[i];
        }
    }
    if (inferred >= 0) {
        if (known == 0 || x.numElements() % known != 0)
            throw RuntimeError("reshape: cannot reshape " + x.describe() + " to " + shapeText(shape));
        shape[size_t(inferred)] = x.numElements() / known;
    }
    if (numElementsOf(shape) != x.numElements())
        throw RuntimeError("reshape: cannot reshape " + x.describe() + " to " + shapeText(shape));
    ctx.setOutput(0, x.reshaped(shape));
}

void flattenKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    if (x.rank() == 0) {
        ctx.setOutput(0, x.reshaped({ 1 }));
        return;
    }
    const size_t start = normalizeAxis(ctx.intAttr("start_axis", 1), x.rank(), "flatten start_axis");
    const size_t stop = normalizeAxis(ctx.intAttr("stop_axis", 1), x.rank(), "flatten stop_axis");
    if (start > stop)
        throw RuntimeError("flatten: start_axis " + std::to_string(start) + " is after stop_axis "
            + std::to_string(stop) + " for " + x.describe());
    std::vector<int64_t> shape(x.shape().begin(), x.shape().begin() + std::ptrdiff_t(start));
    int64_t merged = 1;
    for (size_t i = start; i <= stop; ++i)
        merged *= x.dim(i);
    shape.push_back(merged);
    shape.insert(shape.end(), x.shape().begin() + std::ptrdiff_t(stop) + 1, x.shape().end());
    ctx.setOutput(0, x.reshaped(shape));
}

void squeezeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const std::vector<int64_t> axes = intsOperandOrAttr(ctx, 1, "axis", std::vector<int64_t> {});
    std::vector<bool> drop(x.rank(), false);
    for (int64_t a : axes) {
        const size_t axis = normalizeAxis(a, x.rank(), "squeeze axis");
        drop[axis] = x.dim(axis) == 1;
    }
    std::vector<int64_t> shape;
    for (size_t i = 0; i < x.rank(); ++i)
        if (!(axes.empty() ? x.dim(i) == 1 : bool(drop[i])))
            shape.push_back(x.dim(i));
    ctx.setOutput(0, x.reshaped(shape));
}

void unsqueezeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> shape = x.shape();
    for (int64_t a : intsOperandOrAttr(ctx, 1, "axis")) {
        const size_t at = normalizeAxis(a, shape.size() + 1, "unsqueeze axis");
        shape.insert(shape.begin() + std::ptrdiff_t(at), 1);
    }
    ctx.setOutput(0, x.reshaped(shape));
}

void transposeKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    ctx.setOutput(0, permute(rt, x, ctx.intsAttr("perm")));
}

/// Copies `parts` (equal shapes but for `axis`) side by side along `axis` into `out`.
void joinAlong(CudaRuntime &rt, const std::vector<Tensor> &parts, size_t axis, Tensor &out)
{
    int64_t outer = 1;
    for (size_t i = 0; i < axis; ++i)
        outer *= out.dim(i);
    if (outer == 0)
        return;
    const size_t bytes = out.elementSize();
    const size_t outRow = size_t(out.numElements() / outer) * bytes;
    char *dst = static_cast<char *>(out.rawData());
    size_t column = 0;
    for (const Tensor &p : parts) {
        const size_t row = size_t(p.numElements() / outer) * bytes;
        if (row > 0)
            checkCuda(cudaMemcpy2DAsync(dst + column, outRow, p.rawData(), row, row, size_t(outer),
                          cudaMemcpyDeviceToDevice, rt.stream),
                "concat copy");
        column += row;
    }
}

std::vector<Tensor> deviceList(KernelContext &ctx, size_t i)
{
    std::vector<Tensor> list;
    for (const Tensor &t : ctx.inputList(i))
        list.push_back(deviceTensor(ctx, t));
    return list;
}

void concatKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::vector<Tensor> parts = deviceList(ctx, 0);
    if (parts.empty())
        throw RuntimeError("concat: no input tensors");
    const Tensor &first = parts.front();
    if (first.rank() == 0)
        throw RuntimeError("concat: cannot concatenate 0-d tensors");
    const size_t axis
        = normalizeAxis(int64_t(scalarOperandOrAttr(ctx, 1, "axis", 0.0)), first.rank(), "concat axis");
    std::vector<int64_t> shape = first.shape();
    shape[axis] = 0;
    for (const Tensor &p : parts) {
        bool same = p.rank() == first.rank() && p.dtype() == first.dtype();
        for (size_t i = 0; same && i < p.rank(); ++i)
            same = i == axis || p.dim(i) == first.dim(i);
        if (!same)
            throw RuntimeError("concat: " + p.describe() + " does not match " + first.describe()
                + " along axis " + std::to_string(axis));
        shape[axis] += p.dim(axis);
    }
    Tensor out = ctx.allocate(shape, first.dtype());
    joinAlong(rt, parts, axis, out);
    ctx.setOutput(0, out);
}

std::vector<Tensor> cutAlong(CudaRuntime &rt, const Tensor &x, size_t axis, const std::vector<int64_t> &sizes)
{
    int64_t outer = 1;
    for (size_t i = 0; i < axis; ++i)
        outer *= x.dim(i);
    const size_t bytes = x.elementSize();
    const size_t inRow = outer ? size_t(x.numElements() / outer) * bytes : 0;
    const char *src = static_cast<const char *>(x.rawData());
    std::vector<Tensor> pieces;
    size_t column = 0;
    for (int64_t size : sizes) {
        std::vector<int64_t> shape = x.shape();
        shape[axis] = size;
        Tensor piece = rt.allocate(shape, x.dtype());
        const size_t row = outer ? size_t(piece.numElements() / outer) * bytes : 0;
        if (row > 0)
            checkCuda(cudaMemcpy2DAsync(piece.rawData(), row, src + column, inRow, row, size_t(outer),
                          cudaMemcpyDeviceToDevice, rt.stream),
                "split copy");
        column += row;
        pieces.push_back(std::move(piece));
    }
    return pieces;
}

void splitKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    std::vector<int64_t> sections = intsOperandOrAttr(ctx, 1, "sections");
    const size_t axis
        = normalizeAxis(int64_t(scalarOperandOrAttr(ctx, 2, "axis", 0.0)), x.rank(), "split axis");
    int64_t known = 0;
    int inferred = -1;
    for (size_t i = 0; i < sections.size(); ++i) {
        if (sections[i] == -1 && inferred < 0)
            inferred = int(i);
        else if (sections[i] < 0)
            throw RuntimeError("split: sections " + shapeText(sections) + " has a negative size");
        else
            known += sections[i];
    }
    if (inferred >= 0)
        sections[size_t(inferred)] = x.dim(axis) - known;
    if ((inferred >= 0 ? sections[size_t(inferred)] < 0 : known != x.dim(axis)))
        throw RuntimeError("split: sections " + shapeText(sections) + " do not add up to dim "
            + std::to_string(axis) + " of " + x.describe());
    ctx.setOutputList(0, cutAlong(rt, x, axis, sections));
}

void splitWithNumKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const int64_t num = ctx.intAttr("num");
    const size_t axis
        = normalizeAxis(int64_t(scalarOperandOrAttr(ctx, 1, "axis", 0.0)), x.rank(), "split axis");
    if (num <= 0 || x.dim(axis) % num != 0)
        throw RuntimeError("split_with_num: dim " + std::to_string(axis) + " of " + x.describe()
            + " does not split into " + std::to_string(num) + " equal pieces");
    ctx.setOutputList(0, cutAlong(rt, x, axis, std::vector<int64_t>(size_t(num), x.dim(axis) / num)));
}

void stackKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::vector<Tensor> parts = deviceList(ctx, 0);
    if (parts.empty())
        throw RuntimeError("stack: no input tensors");
    const Tensor &first = parts.front();
    for (const Tensor &p : parts)
        if (p.shape() != first.shape() || p.dtype() != first.dtype())
            throw RuntimeError("stack: " + p.describe() + " does not match " + first.describe());
    const size_t axis = normalizeAxis(ctx.intAttr("axis", 0), first.rank() + 1, "stack axis");
    std::vector<int64_t> shape = first.shape();
    shape.insert(shape.begin() + std::ptrdiff_t(axis), int64_t(parts.size()));
    Tensor out = ctx.allocate(shape, first.dtype());
    std::vector<int64_t> partShape = shape;
    partShape[axis] = 1;
    std::vector<Tensor> views;
    for (const Tensor &p : parts)
        views.push_back(p.reshaped(partShape));
    joinAlong(rt, views, axis, out);
    ctx.setOutput(0, out);
}

void tileKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    std::vector<int64_t> repeats = intsOperandOrAttr(ctx, 1, "repeat_times", std::vector<int64_t> {});
    std::vector<int64_t> shape = x.shape();
    const size_t rank = std::max(repeats.size(), shape.size());
    repeats.insert(repeats.begin(), rank - repeats.size(), 1);
    shape.insert(shape.begin(), rank - shape.size(), 1);
    const std::vector<int64_t> strides = contiguousStrides(shape);
    StridedView view;
    std::vector<int64_t> outShape;
    for (size_t i = 0; i < rank; ++i) {
        if (repeats[i] < 0)
            throw RuntimeError("tile: repeat_times " + shapeText(repeats) + " has a negative entry");
        view.shape.insert(view.shape.end(), { repeats[i], shape[i] });
        view.strides.insert(view.strides.end(), { 0, strides[i] });
        outShape.push_back(repeats[i] * shape[i]);
    }
    ctx.setOutput(0, gatherView(rt, x, view).reshaped(outShape));
}

void expandKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    std::vector<int64_t> shape = intsOperandOrAttr(ctx, 1, "shape");
    if (shape.size() < x.rank())
        throw RuntimeError("expand: shape " + shapeText(shape) + " has fewer dims than " + x.describe());
    const size_t lead = shape.size() - x.rank();
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1 && i >= lead)
            shape[i] = x.dim(i - lead);
        if (shape[i] < 0)
            throw RuntimeError("expand: shape " + shapeText(shape) + " has a negative dim");
    }
    for (size_t i = 0; i < x.rank(); ++i)
        if (x.dim(i) != 1 && x.dim(i) != shape[lead + i])
            throw RuntimeError("expand: cannot expand " + x.describe() + " to " + shapeText(shape));
    StridedView view { shape, broadcastStrides(x.shape(), shape), 0 };
    ctx.setOutput(0, gatherView(rt, x, view));
}

void flipKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    StridedView view { x.shape(), contiguousStrides(x.shape()), 0 };
    std::vector<bool> flipped(x.rank(), false);
    for (int64_t a : ctx.intsAttr("axis")) {
        const size_t axis = normalizeAxis(a, x.rank(), "flip axis");
        if (flipped[axis] || x.dim(axis) == 0)
            continue;
        flipped[axis] = true;
        view.base += (x.dim(axis) - 1) * view.strides[axis];
        view.strides[axis] = -view.strides[axis];
    }
    ctx.setOutput(0, gatherView(rt, x, view));
}

} // namespace

namespace cuda {

void gatherInto(CudaRuntime &rt, const Tensor &x, Tensor &out, const std::vector<int64_t> &sizes,
    const std::vector<int64_t> &strides, int64_t base)
{
    const IndexSpace<1> space = spaceOf(sizes, strides, base);
    bySize(x.elementSize(), "gather",
        [&](auto tag) { gatherTyped<decltype(tag)>(rt, x.rawData(), out.rawData(), space); });
}

void scatterInto(CudaRuntime &rt, const Tensor &x, Tensor &out, const std::vector<int64_t> &sizes,
    const std::vector<int64_t> &strides, int64_t base)
{
    const IndexSpace<1> space = spaceOf(sizes, strides, base);
    bySize(x.elementSize(), "scatter",
        [&](auto tag) { scatterTyped<decltype(tag)>(rt, x.rawData(), out.rawData(), space); });
}

Tensor permute(CudaRuntime &rt, const Tensor &x, const std::vector<int64_t> &perm)
{
    if (perm.size() != x.rank())
        throw RuntimeError("transpose: perm " + shapeText(perm) + " does not match " + x.describe());
    const std::vector<int64_t> inStrides = contiguousStrides(x.shape());
    StridedView view;
    std::vector<bool> seen(x.rank(), false);
    for (int64_t p : perm) {
        const size_t axis = normalizeAxis(p, x.rank(), "transpose perm entry");
        if (seen[axis])
            throw RuntimeError(
                "transpose: perm " + shapeText(perm) + " repeats axis " + std::to_string(axis));
        seen[axis] = true;
        view.shape.push_back(x.dim(axis));
        view.strides.push_back(inStrides[axis]);
    }
    return gatherView(rt, x, view);
}

} // namespace cuda

void registerCudaShapeKernels(KernelRegistry &registry)
{
    for (const char *suffix : { "", "_" }) {
        const std::string s(suffix);
        registry.add("pd_op.reshape" + s, &reshapeKernel);
        registry.add("pd_op.flatten" + s, &flattenKernel);
        registry.add("pd_op.squeeze" + s, &squeezeKernel);
        registry.add("pd_op.unsqueeze" + s, &unsqueezeKernel);
    }
    registry.add("pd_op.transpose", &transposeKernel);
    registry.add("pd_op.concat", &concatKernel);
    registry.add("pd_op.split", &splitKernel);
    registry.add("pd_op.split_with_num", &splitWithNumKernel);
    registry.add("pd_op.stack", &stackKernel);
    registry.add("pd_op.tile", &tileKernel);
    registry.add("pd_op.expand", &expandKernel);
    registry.add("pd_op.flip", &flipKernel);
}

} // namespace ps
