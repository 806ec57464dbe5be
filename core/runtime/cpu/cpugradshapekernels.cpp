#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/cpu/cpushapecopy.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/indexingkernels.h"
#include "core/runtime/kernels/layoutgradkernels.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cstring>

namespace ps {
namespace {

using namespace cpugrad;

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

} // namespace

void registerCpuGradShapeKernels(KernelRegistry &registry)
{
    kernels::registerLayoutGradKernels<CpuExec>(registry);
    registry.add("pd_op.set_value_with_tensor_grad", setValueWithTensorGrad);
    kernels::registerIndexingGradKernels<CpuExec>(registry);
    registry.add("pd_op.pad3d_grad", pad3dGrad);
    registry.add("pd_op.pad_grad", padGrad);
}

} // namespace ps
