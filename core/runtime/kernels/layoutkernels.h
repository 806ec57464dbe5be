#pragma once

// Layout kernels of both backends, written once over an execution policy `Exec`: the reshape
// family (views of the input's storage, no data moved), transpose, concat, split,
// split_with_num, stack, tile, expand, flip. Each computes a strided view (kernels/shapespec.h)
// and moves elements by size with the backend's gather/scatter, so every dtype works.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/runtimeerror.h"

namespace ps::kernels {

/// reshape, flatten, squeeze, unsqueeze and their `_` forms: views of operand 0 (no data moved,
/// so one host function serves every backend). Result 1 (xshape, older programs) stays null.
void registerViewKernels(KernelRegistry &registry);

/// A contiguous copy of `src` read through `view`.
template<class Exec> Tensor gatherView(const Exec &exec, const Tensor &src, const StridedView &view)
{
    Tensor out = exec.allocate(view.shape, src.dtype());
    if (out.numElements() > 0)
        exec.gather(src, out, view);
    return out;
}

/// The view of the slab [offset, offset + size) along `axis` of a contiguous tensor of `shape`.
inline StridedView slabView(const std::vector<int64_t> &shape, size_t axis, int64_t offset, int64_t size)
{
    StridedView view { shape, contiguousStrides(shape), 0 };
    view.shape[axis] = size;
    view.base = offset * view.strides[axis];
    return view;
}

template<class Exec> void requireElementSize(const Tensor &t, const char *what)
{
    if (t.elementSize() == 0)
        throw RuntimeError(std::string(what) + ": unsupported dtype " + std::string(phiName(t.dtype())));
}

/// transpose {perm}: out dim i is x dim perm[i].
template<class Exec> void transposeKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    requireElementSize<Exec>(x, "transpose");
    ctx.setOutput(0, gatherView(exec, x, transposeView(x.shape(), ctx.intsAttr("perm"))));
}

/// `parts` (equal shapes but for `axis`) written side by side along `axis` into `out`.
template<class Exec>
void joinAlong(const Exec &exec, const std::vector<Tensor> &parts, size_t axis, Tensor &out)
{
    int64_t offset = 0;
    for (const Tensor &p : parts) {
        if (p.numElements() > 0)
            exec.scatter(p, out, slabView(out.shape(), axis, offset, p.dim(axis)));
        offset += p.dim(axis);
    }
}

/// `parts` (one dtype and rank, equal dims but for `axis`) joined along `axis`; `what` names the
/// op in errors (concat, split_grad).
template<class Exec>
Tensor concatAlong(const Exec &exec, const std::vector<Tensor> &parts, size_t axis, const char *what)
{
    const Tensor &first = parts.front();
    std::vector<int64_t> shape = first.shape();
    shape[axis] = 0;
    for (const Tensor &p : parts) {
        bool same = p.rank() == first.rank() && p.dtype() == first.dtype();
        for (size_t i = 0; same && i < p.rank(); ++i)
            same = i == axis || p.dim(i) == first.dim(i);
        if (!same)
            throw RuntimeError(std::string(what) + ": " + p.describe() + " does not match " + first.describe()
                + " along axis " + std::to_string(axis));
        shape[axis] += p.dim(axis);
    }
    requireElementSize<Exec>(first, what);
    Tensor out = exec.allocate(shape, first.dtype());
    joinAlong(exec, parts, axis, out);
    return out;
}

/// concat (combine(x...), axis).
template<class Exec> void concatKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::vector<Tensor> parts = exec.inputList(0);
    if (parts.empty())
        throw RuntimeError("concat: no input tensors");
    if (parts.front().rank() == 0)
        throw RuntimeError("concat: cannot concatenate 0-d tensors");
    const size_t axis = size_t(normalizeAxis(
        int64_t(scalarOperandOrAttr(ctx, 1, "axis", 0.0)), int64_t(parts.front().rank()), "concat axis"));
    ctx.setOutput(0, concatAlong(exec, parts, axis, "concat"));
}

/// x cut along `axis` into pieces of `sizes` (which sum to the dim).
template<class Exec>
std::vector<Tensor> cutAlong(
    const Exec &exec, const Tensor &x, size_t axis, const std::vector<int64_t> &sizes)
{
    requireElementSize<Exec>(x, "split");
    std::vector<Tensor> pieces;
    int64_t offset = 0;
    for (int64_t size : sizes) {
        pieces.push_back(gatherView(exec, x, slabView(x.shape(), axis, offset, size)));
        offset += size;
    }
    return pieces;
}

/// split (x, sections, axis): one section may be -1 (the rest). Result 0 is the list.
template<class Exec> void splitKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    std::vector<int64_t> sections = intsOperandOrAttr(ctx, 1, "sections");
    const size_t axis = size_t(
        normalizeAxis(int64_t(scalarOperandOrAttr(ctx, 2, "axis", 0.0)), int64_t(x.rank()), "split axis"));
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
    ctx.setOutputList(0, cutAlong(exec, x, axis, sections));
}

/// split_with_num (x, axis) {num}: `num` equal pieces.
template<class Exec> void splitWithNumKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    const int64_t num = ctx.intAttr("num");
    const size_t axis = size_t(
        normalizeAxis(int64_t(scalarOperandOrAttr(ctx, 1, "axis", 0.0)), int64_t(x.rank()), "split axis"));
    if (num <= 0 || x.dim(axis) % num != 0)
        throw RuntimeError("split_with_num: dim " + std::to_string(axis) + " of " + x.describe()
            + " does not split into " + std::to_string(num) + " equal pieces");
    ctx.setOutputList(0, cutAlong(exec, x, axis, std::vector<int64_t>(size_t(num), x.dim(axis) / num)));
}

/// stack (combine(x...)) {axis}: a new dim of size n at `axis`.
template<class Exec> void stackKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::vector<Tensor> parts = exec.inputList(0);
    if (parts.empty())
        throw RuntimeError("stack: no input tensors");
    const Tensor &first = parts.front();
    for (const Tensor &p : parts)
        if (p.shape() != first.shape() || p.dtype() != first.dtype())
            throw RuntimeError("stack: " + p.describe() + " does not match " + first.describe());
    const size_t axis
        = size_t(normalizeAxis(ctx.intAttr("axis", 0), int64_t(first.rank()) + 1, "stack axis"));
    std::vector<int64_t> shape = first.shape();
    shape.insert(shape.begin() + std::ptrdiff_t(axis), int64_t(parts.size()));
    requireElementSize<Exec>(first, "stack");
    Tensor out = exec.allocate(shape, first.dtype());
    std::vector<int64_t> partShape = shape;
    partShape[axis] = 1;
    std::vector<Tensor> views;
    for (const Tensor &p : parts)
        views.push_back(p.reshaped(partShape));
    joinAlong(exec, views, axis, out);
    ctx.setOutput(0, out);
}

/// tile (x, repeat_times): shorter of shape/repeats padded with leading 1s.
template<class Exec> void tileKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    std::vector<int64_t> outShape;
    const StridedView view
        = tileView(x.shape(), intsOperandOrAttr(ctx, 1, "repeat_times", std::vector<int64_t> {}), outShape);
    requireElementSize<Exec>(x, "tile");
    ctx.setOutput(0, gatherView(exec, x, view).reshaped(outShape));
}

/// expand (x, shape): x broadcast to `shape`; -1 keeps x's dim.
template<class Exec> void expandKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    const StridedView view = expandView(x.shape(), intsOperandOrAttr(ctx, 1, "shape"), x.describe());
    requireElementSize<Exec>(x, "expand");
    ctx.setOutput(0, gatherView(exec, x, view));
}

/// flip {axis}: the listed dims reversed.
template<class Exec> void flipKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    requireElementSize<Exec>(x, "flip");
    ctx.setOutput(0, gatherView(exec, x, flipView(x.shape(), ctx.intsAttr("axis"))));
}

template<class Exec> void registerLayoutKernels(KernelRegistry &registry)
{
    registerViewKernels(registry);
    registry.add("pd_op.transpose", &transposeKernel<Exec>);
    registry.add("pd_op.concat", &concatKernel<Exec>);
    registry.add("pd_op.split", &splitKernel<Exec>);
    registry.add("pd_op.split_with_num", &splitWithNumKernel<Exec>);
    registry.add("pd_op.stack", &stackKernel<Exec>);
    registry.add("pd_op.tile", &tileKernel<Exec>);
    registry.add("pd_op.expand", &expandKernel<Exec>);
    registry.add("pd_op.flip", &flipKernel<Exec>);
}

} // namespace ps::kernels
