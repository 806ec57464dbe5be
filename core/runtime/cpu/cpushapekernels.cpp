// Layout ops: reshape, flatten, squeeze, unsqueeze (views of the input's storage), transpose,
// concat, split, split_with_num, stack, tile, expand, flip. Indexing ops (slice, gather,
// set_value, embedding, shape, ...) live in cpushapeindexing.cpp. Every op moves bytes, so every
// dtype with an element size is supported.

#include "core/runtime/cpu/cpuelementwisecommon.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/cpu/cpushapecopy.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cstring>

namespace ps {
namespace {

using namespace cpuew;

/// reshape (x, shape): 0 copies x's dim at that index, one -1 is inferred. A view of x; result 1
/// (xshape, older programs) stays null.
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

/// flatten {start_axis, stop_axis}: dims start..stop merged into one; 0-d becomes [1]. A view.
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

/// squeeze (x, axis): the listed size-1 dims removed (a listed dim of another size stays, as in
/// Paddle); no axes removes every size-1 dim; a 0-d x stays 0-d. A view.
void squeezeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const std::vector<int64_t> axes = intsOperandOrAttr(ctx, 1, "axis", std::vector<int64_t> {});
    if (x.rank() == 0) {
        ctx.setOutput(0, x.reshaped({}));
        return;
    }
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

/// unsqueeze (x, axis): a 1 inserted per axis, in order, each axis read against the rank so far
/// (negative: counted from the end of the grown shape). A view.
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

/// transpose {perm}: out dim i is x dim perm[i].
void transposeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const std::vector<int64_t> perm = ctx.intsAttr("perm");
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
    elementBytes(x, "transpose");
    ctx.setOutput(0, gatherTensor(x, view, [&](auto s, DataType d) { return ctx.allocate(s, d); }));
}

/// Copies `parts` (equal shapes but for `axis`) into `out` side by side along `axis`.
void joinAlong(const std::vector<Tensor> &parts, size_t axis, Tensor &out)
{
    int64_t outer = 1;
    for (size_t i = 0; i < axis; ++i)
        outer *= out.dim(i);
    const size_t bytes = out.elementSize();
    const size_t outRow = size_t(out.numElements() / std::max<int64_t>(outer, 1)) * bytes;
    char *dst = static_cast<char *>(out.rawData());
    size_t column = 0;
    for (const Tensor &p : parts) {
        const size_t row = outer ? size_t(p.numElements() / outer) * bytes : 0;
        const char *src = static_cast<const char *>(p.rawData());
        for (int64_t o = 0; o < outer && row; ++o)
            std::memcpy(dst + size_t(o) * outRow + column, src + size_t(o) * row, row);
        column += row;
    }
}

/// concat (combine(x...), axis).
void concatKernel(KernelContext &ctx)
{
    const std::vector<Tensor> &parts = ctx.inputList(0);
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
    elementBytes(first, "concat");
    Tensor out = ctx.allocate(shape, first.dtype());
    joinAlong(parts, axis, out);
    ctx.setOutput(0, out);
}

/// x cut along `axis` into pieces of `sizes` (which sum to the dim).
std::vector<Tensor> cutAlong(
    const KernelContext &ctx, const Tensor &x, size_t axis, const std::vector<int64_t> &sizes)
{
    int64_t outer = 1;
    for (size_t i = 0; i < axis; ++i)
        outer *= x.dim(i);
    const size_t bytes = elementBytes(x, "split");
    const size_t inRow = outer ? size_t(x.numElements() / outer) * bytes : 0;
    const char *src = static_cast<const char *>(x.rawData());
    std::vector<Tensor> pieces;
    size_t column = 0;
    for (int64_t size : sizes) {
        std::vector<int64_t> shape = x.shape();
        shape[axis] = size;
        Tensor piece = ctx.allocate(shape, x.dtype());
        const size_t row = outer ? size_t(piece.numElements() / outer) * bytes : 0;
        char *dst = static_cast<char *>(piece.rawData());
        for (int64_t o = 0; o < outer && row; ++o)
            std::memcpy(dst + size_t(o) * row, src + size_t(o) * inRow + column, row);
        column += row;
        pieces.push_back(std::move(piece));
    }
    return pieces;
}

/// split (x, sections, axis): one section may be -1 (the rest). Result 0 is the list.
void splitKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
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
    ctx.setOutputList(0, cutAlong(ctx, x, axis, sections));
}

/// split_with_num (x, axis) {num}: `num` equal pieces.
void splitWithNumKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const int64_t num = ctx.intAttr("num");
    const size_t axis
        = normalizeAxis(int64_t(scalarOperandOrAttr(ctx, 1, "axis", 0.0)), x.rank(), "split axis");
    if (num <= 0 || x.dim(axis) % num != 0)
        throw RuntimeError("split_with_num: dim " + std::to_string(axis) + " of " + x.describe()
            + " does not split into " + std::to_string(num) + " equal pieces");
    ctx.setOutputList(0, cutAlong(ctx, x, axis, std::vector<int64_t>(size_t(num), x.dim(axis) / num)));
}

/// stack (combine(x...)) {axis}: a new dim of size n at `axis`.
void stackKernel(KernelContext &ctx)
{
    const std::vector<Tensor> &parts = ctx.inputList(0);
    if (parts.empty())
        throw RuntimeError("stack: no input tensors");
    const Tensor &first = parts.front();
    for (const Tensor &p : parts)
        if (p.shape() != first.shape() || p.dtype() != first.dtype())
            throw RuntimeError("stack: " + p.describe() + " does not match " + first.describe());
    const size_t axis = normalizeAxis(ctx.intAttr("axis", 0), first.rank() + 1, "stack axis");
    std::vector<int64_t> shape = first.shape();
    shape.insert(shape.begin() + std::ptrdiff_t(axis), int64_t(parts.size()));
    elementBytes(first, "stack");
    Tensor out = ctx.allocate(shape, first.dtype());
    std::vector<int64_t> partShape = shape;
    partShape[axis] = 1;
    std::vector<Tensor> views;
    for (const Tensor &p : parts)
        views.push_back(p.reshaped(partShape));
    joinAlong(views, axis, out);
    ctx.setOutput(0, out);
}

/// tile (x, repeat_times): shorter of shape/repeats padded with leading 1s.
void tileKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> repeats = intsOperandOrAttr(ctx, 1, "repeat_times", std::vector<int64_t> {});
    std::vector<int64_t> shape = x.shape();
    const size_t rank = std::max(repeats.size(), shape.size());
    repeats.insert(repeats.begin(), rank - repeats.size(), 1);
    shape.insert(shape.begin(), rank - shape.size(), 1);
    // View x as [r0, d0, r1, d1, ...] with stride 0 on each repeat dim; the output is that, merged.
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
    elementBytes(x, "tile");
    Tensor out = gatherTensor(x, view, [&](auto s, DataType d) { return ctx.allocate(s, d); });
    ctx.setOutput(0, out.reshaped(outShape));
}

/// expand (x, shape): x broadcast to `shape`; -1 keeps x's dim.
void expandKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
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
    StridedView view;
    view.shape = shape;
    try {
        view.strides = broadcastStrides(x.shape(), shape);
    } catch (const RuntimeError &) {
        throw RuntimeError("expand: cannot expand " + x.describe() + " to " + shapeText(shape));
    }
    elementBytes(x, "expand");
    ctx.setOutput(0, gatherTensor(x, view, [&](auto s, DataType d) { return ctx.allocate(s, d); }));
}

/// flip {axis}: the listed dims reversed.
void flipKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
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
    elementBytes(x, "flip");
    ctx.setOutput(0, gatherTensor(x, view, [&](auto s, DataType d) { return ctx.allocate(s, d); }));
}

} // namespace

void registerCpuShapeKernels(KernelRegistry &registry)
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
    cpuew::registerIndexingKernels(registry);
}

} // namespace ps
