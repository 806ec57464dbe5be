#pragma once

// Grads of the layout ops and cast, written once for both backends over an execution policy
// `Exec` (layoutkernels.h): reshape-family, transpose, concat, split and stack grads move elements with the
// backend's gather/scatter (every dtype); expand and tile grads sum out_grad with `exec.sumTo` (in double,
// rounded once, as every arithmetic grad of the CPU oracle).

#include "core/runtime/kernels/elementwisekernels.h"
#include "core/runtime/kernels/layoutkernels.h"

namespace ps::kernels {

/// reshape/flatten/squeeze/unsqueeze grads (x, out_grad, ...): out_grad copied to x's shape.
/// Operand 0 may also be an old-style `xshape` ([0, x dims...]).
template<class Exec> void reshapeLikeGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor g = exec.input(1);
    std::vector<int64_t> shape = x.shape();
    if (numElementsOf(shape) != g.numElements() && !shape.empty() && shape[0] == 0)
        shape.erase(shape.begin());
    if (numElementsOf(shape) != g.numElements())
        throw RuntimeError(
            shortName(ctx) + ": out_grad " + g.describe() + " does not reshape to " + shapeText(shape));
    Tensor out = exec.allocate(shape, g.dtype());
    exec.copy(out, g);
    ctx.setOutput(0, out);
}

/// cast_grad (x, out_grad): out_grad converted to x's dtype.
template<class Exec> void castGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor g = exec.input(1);
    Tensor out = exec.allocate(g.shape(), x.dtype());
    castInto(exec, g, out);
    ctx.setOutput(0, out);
}

/// transpose_grad (out_grad) {perm}: out_grad read through the inverse permutation.
template<class Exec> void transposeGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor g = exec.input(0);
    const std::vector<int64_t> perm = ctx.intsAttr("perm");
    if (perm.size() != g.rank())
        throw RuntimeError("transpose_grad: perm " + shapeText(perm) + " has " + std::to_string(perm.size())
            + " entries for " + g.describe());
    requireElementSize<Exec>(g, "transpose_grad");
    ctx.setOutput(
        0, gatherView(exec, g, transposeView(g.shape(), inversePermutation(perm, "transpose_grad"))));
}

/// out_grad `g` cut along `axis` into pieces of the shapes of list operand `xs` (which must match
/// g but along `axis` and cover it). Only the shapes of `xs` are read.
template<class Exec>
std::vector<Tensor> cutLike(
    const Exec &exec, const Tensor &g, size_t axis, const std::vector<Tensor> &xs, const char *what)
{
    std::vector<int64_t> sizes;
    int64_t covered = 0;
    for (const Tensor &x : xs) {
        bool same = x.rank() == g.rank();
        for (size_t i = 0; same && i < g.rank(); ++i)
            same = i == axis || x.dim(i) == g.dim(i);
        if (!same)
            throw RuntimeError(std::string(what) + ": x " + x.describe() + " does not match out_grad "
                + g.describe() + " along axis " + std::to_string(axis));
        sizes.push_back(x.dim(axis));
        covered += x.dim(axis);
    }
    if (covered != g.dim(axis))
        throw RuntimeError(std::string(what) + ": the x cover " + std::to_string(covered) + " of "
            + g.describe() + " along axis " + std::to_string(axis));
    return cutAlong(exec, g, axis, sizes);
}

/// concat_grad (combine(x), out_grad, axis): out_grad split back into x's shapes.
template<class Exec> void concatGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::vector<Tensor> &xs = ctx.inputList(0);
    const Tensor g = exec.input(1);
    if (g.rank() == 0)
        throw RuntimeError("concat_grad: out_grad " + g.describe() + " is 0-d");
    const size_t axis = size_t(normalizeAxis(scalarAxis(ctx, 2, 0), int64_t(g.rank()), "concat_grad axis"));
    ctx.setOutputList(0, cutLike(exec, g, axis, xs, "concat_grad"));
}

/// split_grad / split_with_num_grad (combine(out_grad), axis): the pieces concatenated.
template<class Exec> void splitGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::vector<Tensor> pieces = exec.inputList(0);
    if (pieces.empty())
        throw RuntimeError("split_grad needs at least one out_grad");
    if (pieces.front().rank() == 0)
        throw RuntimeError("split_grad: out_grad " + pieces.front().describe() + " is 0-d");
    const size_t axis
        = size_t(normalizeAxis(scalarAxis(ctx, 1, -1), int64_t(pieces.front().rank()), "split_grad axis"));
    ctx.setOutput(0, concatAlong(exec, pieces, axis, "split_grad"));
}

/// stack_grad (combine(x), out_grad) {axis}: out_grad unstacked along axis.
template<class Exec> void stackGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::vector<Tensor> &xs = ctx.inputList(0);
    const Tensor g = exec.input(1);
    if (g.rank() == 0)
        throw RuntimeError("stack_grad: out_grad " + g.describe() + " is 0-d");
    const size_t axis = size_t(normalizeAxis(ctx.intAttr("axis", 0), int64_t(g.rank()), "stack_grad axis"));
    if (g.dim(axis) != int64_t(xs.size()))
        throw RuntimeError("stack_grad: out_grad " + g.describe() + " does not stack "
            + std::to_string(xs.size()) + " tensors along axis " + std::to_string(axis));
    std::vector<Tensor> pieces = cutAlong(exec, g, axis, std::vector<int64_t>(xs.size(), 1));
    for (size_t i = 0; i < pieces.size(); ++i)
        pieces[i] = pieces[i].reshaped(xs[i].shape());
    ctx.setOutputList(0, std::move(pieces));
}

/// expand_grad / expand_as_grad (x, out_grad, ...): out_grad summed over the broadcast dims.
template<class Exec> void expandGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor g = exec.input(1);
    requireNumeric(g, "expand_grad");
    if (x.rank() > g.rank())
        throw RuntimeError(
            "expand_grad: out_grad " + g.describe() + " is not an expansion of " + x.describe());
    ctx.setOutput(0, exec.sumTo(g, alignShape(x.shape(), g.rank()), g.dtype()).reshaped(x.shape()));
}

/// tile_grad (x, out_grad, repeat_times): every tile summed back onto x.
template<class Exec> void tileGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor g = exec.input(1);
    requireNumeric(g, "tile_grad");
    const TileGradShapes s = tileGradShapes(x.shape(), g.shape());
    ctx.setOutput(0, exec.sumTo(g.reshaped(s.split), s.kept, g.dtype()).reshaped(x.shape()));
}

template<class Exec> void registerLayoutGradKernels(KernelRegistry &registry)
{
    for (const char *name : { "pd_op.reshape_grad", "pd_op.flatten_grad", "pd_op.squeeze_grad",
             "pd_op.unsqueeze_grad", "pd_op.legacy_reshape_grad" })
        registry.add(name, &reshapeLikeGradKernel<Exec>);
    registry.add("pd_op.cast_grad", &castGradKernel<Exec>);
    registry.add("pd_op.transpose_grad", &transposeGradKernel<Exec>);
    registry.add("pd_op.concat_grad", &concatGradKernel<Exec>);
    registry.add("pd_op.split_grad", &splitGradKernel<Exec>);
    registry.add("pd_op.split_with_num_grad", &splitGradKernel<Exec>);
    registry.add("pd_op.stack_grad", &stackGradKernel<Exec>);
    registry.add("pd_op.expand_grad", &expandGradKernel<Exec>);
    registry.add("pd_op.expand_as_grad", &expandGradKernel<Exec>);
    registry.add("pd_op.tile_grad", &tileGradKernel<Exec>);
}

} // namespace ps::kernels
