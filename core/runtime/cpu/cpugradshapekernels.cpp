#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cstring>

namespace ps {
namespace {

using namespace cpugrad;

/// reshape/flatten/squeeze/unsqueeze grads (x, out_grad, ...): out_grad with x's shape. Operand 0
/// may also be an old-style `xshape` ([0, x dims...]).
void reshapeLikeGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(1);
    Shape shape = x.shape();
    if (numElementsOf(shape) != g.numElements() && !shape.empty() && shape[0] == 0)
        shape.erase(shape.begin());
    ctx.setOutput(0, copyAs(ctx, g, shape));
}

/// transpose_grad (out_grad, perm): the inverse permutation.
void transposeGrad(KernelContext &ctx)
{
    const Tensor &g = ctx.input(0);
    const Shape perm = ctx.intsAttr("perm");
    if (perm.size() != g.rank())
        throw RuntimeError(
            "transpose_grad: perm has " + std::to_string(perm.size()) + " entries for " + g.describe());
    Shape inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
        inverse[size_t(normalizeAxis(perm[i], int64_t(perm.size()), "perm entry"))] = int64_t(i);
    ctx.setOutput(0, permuted(ctx, g, inverse));
}

/// Scalar `axis` from an int tensor operand, else the attribute.
int64_t scalarAxis(const KernelContext &ctx, size_t operand, int64_t fallback)
{
    if (ctx.hasInput(operand))
        return ctx.inputAsInts(operand).at(0);
    return ctx.intAttr("axis", fallback);
}

/// Pieces of `g` along `axis` with the given sizes of that dim.
std::vector<Tensor> splitAlong(
    const KernelContext &ctx, const Tensor &g, int64_t axis, const std::vector<Shape> &shapes)
{
    std::vector<Tensor> pieces;
    int64_t offset = 0;
    for (const Shape &s : shapes) {
        Tensor piece = ctx.allocate(s, g.dtype());
        Shape start(g.rank(), 0), step(g.rank(), 1);
        start[size_t(axis)] = offset;
        gatherStrided(piece.rawData(), s, g.rawData(), g.shape(), start, step, g.elementSize());
        offset += s[size_t(axis)];
        pieces.push_back(std::move(piece));
    }
    if (offset != g.dim(size_t(axis)))
        throw RuntimeError("the pieces cover " + std::to_string(offset) + " of " + g.describe()
            + " along axis " + std::to_string(axis));
    return pieces;
}

/// concat_grad (combine(x), out_grad, axis): out_grad split back into x's shapes.
void concatGrad(KernelContext &ctx)
{
    const std::vector<Tensor> &xs = ctx.inputList(0);
    const Tensor &g = ctx.input(1);
    const int64_t axis = normalizeAxis(scalarAxis(ctx, 2, 0), int64_t(g.rank()), "axis");
    std::vector<Shape> shapes;
    for (const Tensor &x : xs) {
        if (x.rank() != g.rank())
            throw RuntimeError("concat_grad: x " + x.describe() + " does not match out_grad " + g.describe());
        shapes.push_back(x.shape());
    }
    ctx.setOutputList(0, splitAlong(ctx, g, axis, shapes));
}

/// split_grad / split_with_num_grad (combine(out_grad), axis): the pieces concatenated.
void splitGrad(KernelContext &ctx)
{
    const std::vector<Tensor> &pieces = ctx.inputList(0);
    if (pieces.empty())
        throw RuntimeError("split_grad needs at least one out_grad");
    const Tensor &first = pieces.front();
    const int64_t axis = normalizeAxis(scalarAxis(ctx, 1, -1), int64_t(first.rank()), "axis");
    Shape shape = first.shape();
    shape[size_t(axis)] = 0;
    for (const Tensor &p : pieces)
        shape[size_t(axis)] += p.dim(size_t(axis));
    Tensor out = ctx.allocate(shape, first.dtype());
    int64_t offset = 0;
    for (const Tensor &p : pieces) {
        if (p.dtype() != first.dtype() || p.rank() != first.rank())
            throw RuntimeError("split_grad: pieces " + first.describe() + " and " + p.describe() + " differ");
        Shape start(shape.size(), 0), step(shape.size(), 1);
        start[size_t(axis)] = offset;
        scatterStrided(out.rawData(), shape, p.rawData(), p.shape(), start, step, p.elementSize());
        offset += p.dim(size_t(axis));
    }
    ctx.setOutput(0, out);
}

/// stack_grad (combine(x), out_grad, axis): out_grad unstacked along axis.
void stackGrad(KernelContext &ctx)
{
    const std::vector<Tensor> &xs = ctx.inputList(0);
    const Tensor &g = ctx.input(1);
    const int64_t axis = normalizeAxis(ctx.intAttr("axis", 0), int64_t(g.rank()), "axis");
    if (g.rank() == 0 || g.dim(size_t(axis)) != int64_t(xs.size()))
        throw RuntimeError("stack_grad: out_grad " + g.describe() + " does not stack "
            + std::to_string(xs.size()) + " tensors along axis " + std::to_string(axis));
    Shape pieceShape = g.shape();
    pieceShape[size_t(axis)] = 1;
    std::vector<Tensor> pieces = splitAlong(ctx, g, axis, std::vector<Shape>(xs.size(), pieceShape));
    for (size_t i = 0; i < pieces.size(); ++i)
        pieces[i] = pieces[i].reshaped(xs[i].shape());
    ctx.setOutputList(0, std::move(pieces));
}

/// The region [start, end) of a slice along one dim (Paddle's CheckAndUpdateSliceAttrs, step 1).
std::pair<int64_t, int64_t> sliceBounds(int64_t start, int64_t end, int64_t dim)
{
    start = start < 0 ? start + dim : start;
    end = end < 0 ? end + dim : end;
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    return { start, std::max(start, end) };
}

/// slice_grad (input, out_grad, starts, ends): zeros with out_grad written into the region.
void sliceGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(1);
    const Shape axes = ctx.intsAttr("axes");
    const Shape starts = ctx.hasInput(2) ? ctx.inputAsInts(2) : ctx.intsAttr("starts");
    const Shape ends = ctx.hasInput(3) ? ctx.inputAsInts(3) : ctx.intsAttr("ends");
    if (starts.size() != axes.size() || ends.size() != axes.size())
        throw RuntimeError("slice_grad: axes, starts and ends differ in length");
    Shape region = x.shape(), start(x.rank(), 0), step(x.rank(), 1);
    for (size_t i = 0; i < axes.size(); ++i) {
        const size_t a = size_t(normalizeAxis(axes[i], int64_t(x.rank()), "axes entry"));
        const auto [s, e] = sliceBounds(starts[i], ends[i], x.dim(a));
        start[a] = s;
        region[a] = e - s;
    }
    if (numElementsOf(region) != g.numElements())
        throw RuntimeError("slice_grad: out_grad " + g.describe() + " does not fill the slice "
            + shapeText(region) + " of " + x.describe());
    Tensor out = zeroTensor(ctx, x.shape(), g.dtype());
    scatterStrided(out.rawData(), x.shape(), g.rawData(), region, start, step, g.elementSize());
    ctx.setOutput(0, out);
}

/// The strided region written by set_value: per dim its start, step and length.
struct StridedRegion
{
    Shape start, step, shape;
};

StridedRegion setValueRegion(const KernelContext &ctx, const Shape &xShape, size_t startsOperand)
{
    const Shape axes = ctx.intsAttr("axes");
    const Shape starts = ctx.inputAsInts(startsOperand), ends = ctx.inputAsInts(startsOperand + 1);
    const Shape steps
        = ctx.hasInput(startsOperand + 2) ? ctx.inputAsInts(startsOperand + 2) : Shape(axes.size(), 1);
    if (starts.size() != axes.size() || ends.size() != axes.size() || steps.size() != axes.size())
        throw RuntimeError("set_value grad: axes, starts, ends and steps differ in length");
    StridedRegion r { Shape(xShape.size(), 0), Shape(xShape.size(), 1), xShape };
    for (size_t i = 0; i < axes.size(); ++i) {
        const size_t a = size_t(normalizeAxis(axes[i], int64_t(xShape.size()), "axes entry"));
        const int64_t dim = xShape[a], st = steps[i];
        if (st == 0)
            throw RuntimeError("set_value grad: step 0");
        int64_t s = starts[i] < 0 ? starts[i] + dim : starts[i];
        int64_t e = ends[i] < 0 ? ends[i] + dim : ends[i];
        int64_t count;
        if (st > 0) {
            s = std::clamp<int64_t>(s, 0, dim);
            e = std::clamp<int64_t>(e, 0, dim);
            count = e > s ? (e - s + st - 1) / st : 0;
        } else {
            s = std::clamp<int64_t>(s, -1, dim - 1);
            e = std::clamp<int64_t>(e, -1, dim - 1);
            count = s > e ? (s - e - st - 1) / -st : 0;
        }
        r.start[a] = s;
        r.step[a] = st;
        r.shape[a] = count;
    }
    return r;
}

/// set_value_grad: Paddle 3.3.1's static form is (out_grad) -> x_grad, a plain copy (its kernel is
/// `assign`); the dygraph form (out_grad, starts, ends, steps) zeroes the written region.
void setValueGrad(KernelContext &ctx)
{
    const Tensor &g = ctx.input(0);
    if (!ctx.hasInput(1)) {
        ctx.setOutput(0, copyAs(ctx, g, g.shape()));
        return;
    }
    const StridedRegion r = setValueRegion(ctx, g.shape(), 1);
    Tensor out = copyAs(ctx, g, g.shape());
    Tensor zeros = zeroTensor(ctx, r.shape, g.dtype());
    scatterStrided(out.rawData(), g.shape(), zeros.rawData(), r.shape, r.start, r.step, g.elementSize());
    ctx.setOutput(0, out);
}

/// set_value_with_tensor_grad (values, out_grad, starts, ends, steps): x_grad zeroes the region,
/// values_grad is the region summed to the shape of values.
void setValueWithTensorGrad(KernelContext &ctx)
{
    const Tensor &v = ctx.input(0), &g = ctx.input(1);
    const StridedRegion r = setValueRegion(ctx, g.shape(), 2);
    if (wanted(ctx, 1)) {
        Tensor region = ctx.allocate(r.shape, g.dtype());
        gatherStrided(region.rawData(), r.shape, g.rawData(), g.shape(), r.start, r.step, g.elementSize());
        const std::vector<double> rv = values(region);
        Shape regionShape = r.shape;
        // Decreased axes are absent from `values`: drop length-1 dims until the ranks can align.
        const Shape decrease = ctx.intsAttr("decrease_axes", Shape {});
        for (auto it = decrease.rbegin(); it != decrease.rend() && regionShape.size() > v.rank(); ++it)
            regionShape.erase(
                regionShape.begin() + normalizeAxis(*it, int64_t(regionShape.size()), "decrease axis"));
        const Shape to = alignShape(v.shape(), regionShape.size());
        ctx.setOutput(1, makeTensor(ctx, v.shape(), v.dtype(), sumToShape(rv, regionShape, to)));
    }
    if (wanted(ctx, 0)) {
        Tensor out = copyAs(ctx, g, g.shape());
        Tensor zeros = zeroTensor(ctx, r.shape, g.dtype());
        scatterStrided(out.rawData(), g.shape(), zeros.rawData(), r.shape, r.start, r.step, g.elementSize());
        ctx.setOutput(0, out);
    }
}

/// pad3d_grad (x, out_grad, paddings): paddings [left, right, top, bottom, front, back] over
/// (W, H, D). constant: the interior; reflect/replicate/circular: every output accumulates to its source.
void pad3dGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(1);
    requireNumeric(g, "pad3d_grad");
    if (x.rank() != 5 || g.rank() != 5)
        throw RuntimeError("pad3d_grad needs 5-D tensors, got " + x.describe() + " and " + g.describe());
    const Shape p = ctx.hasInput(2) ? ctx.inputAsInts(2) : ctx.intsAttr("paddings");
    if (p.size() != 6)
        throw RuntimeError("pad3d_grad needs 6 paddings");
    const std::string mode = ctx.stringAttr("mode", "constant");
    const bool last = ctx.stringAttr("data_format", "NCDHW") == "NDHWC";
    // Spatial dims in tensor order (D, H, W) and their leading pads.
    const size_t d0 = last ? 1 : 2;
    const Shape lead { p[4], p[2], p[0] };
    if (mode == "constant") {
        Shape start(5, 0), step(5, 1);
        for (size_t i = 0; i < 3; ++i)
            start[d0 + i] = lead[i];
        Tensor out = ctx.allocate(x.shape(), g.dtype());
        gatherStrided(out.rawData(), x.shape(), g.rawData(), g.shape(), start, step, g.elementSize());
        ctx.setOutput(0, out);
        return;
    }
    if (mode != "reflect" && mode != "replicate" && mode != "circular")
        throw RuntimeError("pad3d_grad: unsupported mode '" + mode + "'");
    auto source = [&](int64_t o, int64_t pad, int64_t in) {
        int64_t i = o - pad;
        if (mode == "replicate")
            return std::clamp<int64_t>(i, 0, in - 1);
        if (mode == "circular")
            return ((i % in) + in) % in;
        if (i < 0)
            i = -i;
        if (i >= in)
            i = 2 * (in - 1) - i;
        return i;
    };
    const std::vector<double> gv = values(g);
    std::vector<double> dx(size_t(x.numElements()), 0.0);
    const Shape xs = stridesOf(x.shape());
    Shape index(5, 0);
    for (size_t i = 0; i < gv.size(); ++i) {
        int64_t off = 0;
        for (size_t d = 0; d < 5; ++d) {
            int64_t src = index[d];
            if (d >= d0 && d < d0 + 3)
                src = source(index[d], lead[d - d0], x.dim(d));
            off += src * xs[d];
        }
        dx[size_t(off)] += gv[i];
        for (size_t d = 5; d-- > 0;) {
            if (++index[d] < g.dim(d))
                break;
            index[d] = 0;
        }
    }
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

/// pad_grad (x, out_grad) with attribute paddings [before0, after0, before1, ...]: the interior.
void padGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(1);
    const Shape p = ctx.intsAttr("paddings");
    if (p.size() != 2 * x.rank())
        throw RuntimeError("pad_grad needs 2 paddings per dim of " + x.describe());
    Shape start(x.rank()), step(x.rank(), 1);
    for (size_t d = 0; d < x.rank(); ++d)
        start[d] = p[2 * d];
    Tensor out = ctx.allocate(x.shape(), g.dtype());
    gatherStrided(out.rawData(), x.shape(), g.rawData(), g.shape(), start, step, g.elementSize());
    ctx.setOutput(0, out);
}

/// cast_grad (x, out_grad): out_grad converted to x's dtype.
void castGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(1);
    if (x.dtype() == g.dtype()) {
        ctx.setOutput(0, copyAs(ctx, g, g.shape()));
        return;
    }
    ctx.setOutput(0, makeTensor(ctx, g.shape(), x.dtype(), values(g)));
}

} // namespace

void registerCpuGradShapeKernels(KernelRegistry &registry)
{
    for (const char *name : { "pd_op.reshape_grad", "pd_op.flatten_grad", "pd_op.squeeze_grad",
             "pd_op.unsqueeze_grad", "pd_op.legacy_reshape_grad" })
        registry.add(name, reshapeLikeGrad);
    registry.add("pd_op.transpose_grad", transposeGrad);
    registry.add("pd_op.concat_grad", concatGrad);
    registry.add("pd_op.split_grad", splitGrad);
    registry.add("pd_op.split_with_num_grad", splitGrad);
    registry.add("pd_op.stack_grad", stackGrad);
    registry.add("pd_op.slice_grad", sliceGrad);
    registry.add("pd_op.set_value_grad", setValueGrad);
    registry.add("pd_op.set_value_with_tensor_grad", setValueWithTensorGrad);
    registry.add("pd_op.pad3d_grad", pad3dGrad);
    registry.add("pd_op.pad_grad", padGrad);
    registry.add("pd_op.cast_grad", castGrad);
}

} // namespace ps
