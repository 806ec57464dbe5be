#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/cpu/cpushapecopy.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/indexingkernels.h"
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
        inverse[size_t(normalizeAxisOrScalar(perm[i], int64_t(perm.size()), "perm entry"))] = int64_t(i);
    ctx.setOutput(0, permuted(ctx, g, inverse));
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
    const int64_t axis = normalizeAxisOrScalar(scalarAxis(ctx, 2, 0), int64_t(g.rank()), "axis");
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
    const int64_t axis = normalizeAxisOrScalar(scalarAxis(ctx, 1, -1), int64_t(first.rank()), "axis");
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
    const int64_t axis = normalizeAxisOrScalar(ctx.intAttr("axis", 0), int64_t(g.rank()), "axis");
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

/// set_value_with_tensor_grad (values, out_grad, starts, ends, steps): x_grad zeroes the region,
/// values_grad is the region summed to the shape of values.
void setValueWithTensorGrad(KernelContext &ctx)
{
    const Tensor &v = ctx.input(0), &g = ctx.input(1);
    const StridedView r = kernels::setValueGradRegion(ctx, g.shape(), 2);
    if (wanted(ctx, 1)) {
        Tensor region = ctx.allocate(r.shape, g.dtype());
        cpuew::gatherStrided(g.rawData(), r, region.rawData(), g.elementSize());
        const std::vector<double> rv = values(region);
        Shape regionShape = r.shape;
        // Decreased axes are absent from `values`: drop length-1 dims until the ranks can align.
        const Shape decrease = ctx.intsAttr("decrease_axes", Shape {});
        for (auto it = decrease.rbegin(); it != decrease.rend() && regionShape.size() > v.rank(); ++it)
            regionShape.erase(regionShape.begin()
                + normalizeAxisOrScalar(*it, int64_t(regionShape.size()), "decrease axis"));
        const Shape to = alignShape(v.shape(), regionShape.size());
        ctx.setOutput(1, makeTensor(ctx, v.shape(), v.dtype(), sumToShape(rv, regionShape, to)));
    }
    if (wanted(ctx, 0)) {
        Tensor out = copyAs(ctx, g, g.shape());
        Tensor zeros = zeroTensor(ctx, r.shape, g.dtype());
        cpuew::scatterStrided(zeros.rawData(), out.rawData(), r, g.elementSize());
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
    const Shape xs = contiguousStrides(x.shape());
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
    registry.add("pd_op.set_value_with_tensor_grad", setValueWithTensorGrad);
    kernels::registerIndexingGradKernels<CpuExec>(registry);
    registry.add("pd_op.pad3d_grad", pad3dGrad);
    registry.add("pd_op.pad_grad", padGrad);
    registry.add("pd_op.cast_grad", castGrad);
}

} // namespace ps
