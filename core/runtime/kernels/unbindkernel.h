#pragma once

// unbind: the shared kernel (CPU today; a CUDA backend registers it the same way).

#include "core/runtime/kernels/layoutkernels.h"

namespace ps::kernels {

/// unbind (x) {axis}: x cut along `axis` into dim-many pieces, that axis dropped from each.
/// Result 0 is the list (as split's), read by builtin.split.
template<class Exec> void unbindKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    if (x.rank() == 0)
        throw RuntimeError("unbind: " + x.describe() + " has no axis to unbind");
    const size_t axis = size_t(normalizeAxis(ctx.intAttr("axis", 0), int64_t(x.rank()), "unbind axis"));
    std::vector<int64_t> pieceShape = x.shape();
    pieceShape.erase(pieceShape.begin() + std::ptrdiff_t(axis));
    std::vector<Tensor> pieces = cutAlong(exec, x, axis, std::vector<int64_t>(size_t(x.dim(axis)), 1));
    for (Tensor &p : pieces)
        p = p.reshaped(pieceShape);
    ctx.setOutputList(0, std::move(pieces));
}

} // namespace ps::kernels
