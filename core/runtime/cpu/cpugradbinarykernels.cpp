#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/binarygradfunctors.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>

namespace ps {
namespace {

using namespace cpugrad;

/// x's and y's element offsets for every element of the output gradient.
struct Broadcast : kernels::BinaryGradShapes
{
    std::vector<int64_t> xOffsets, yOffsets;
};

Broadcast broadcastOf(const KernelContext &ctx, const Tensor &x, const Tensor &y, const Tensor &grad)
{
    Broadcast b { kernels::binaryGradShapes(ctx, x, y, grad), {}, {} };
    b.xOffsets = broadcastOffsets(b.x, b.out);
    b.yOffsets = broadcastOffsets(b.y, b.out);
    return b;
}

/// x_grad and y_grad of a broadcasting binary op: the rule (kernels/binarygradfunctors.h) gives the
/// per-element contributions, which are summed over the broadcast dims. Operand layout:
/// (x, y, [out,] out_grad) with out at `Rule::kOutIndex` when >= 0.
template<class Rule> void binaryGrad(KernelContext &ctx)
{
    const Rule fn(ctx);
    const int outIndex = Rule::kOutIndex;
    const size_t gradIndex = outIndex >= 0 ? 3 : 2;
    const Tensor &x = ctx.input(0), &y = ctx.input(1), &grad = ctx.input(gradIndex);
    if (Rule::kNumeric)
        requireNumeric(grad, Rule::kWhat);
    else
        requireFloating(grad, Rule::kWhat);
    const Broadcast b = broadcastOf(ctx, x, y, grad);
    const std::vector<double> xv = values(x), yv = values(y), gv = values(grad);
    std::vector<double> ov;
    if (outIndex >= 0 && ctx.hasInput(size_t(outIndex)))
        ov = values(ctx.input(size_t(outIndex)));
    const size_t n = gv.size();
    std::vector<double> dx(n), dy(n);
    for (size_t i = 0; i < n; ++i) {
        const double xe = xv[size_t(b.xOffsets[i])], ye = yv[size_t(b.yOffsets[i])];
        fn(xe, ye, ov.empty() ? 0.0 : ov[i], gv[i], dx[i], dy[i]);
    }
    if (wanted(ctx, 0))
        ctx.setOutput(0, makeTensor(ctx, x.shape(), x.dtype(), sumToShape(dx, b.out, b.x)));
    if (wanted(ctx, 1))
        ctx.setOutput(1, makeTensor(ctx, y.shape(), y.dtype(), sumToShape(dy, b.out, b.y)));
}

/// add/subtract grads only need shapes: no value of x or y is read.
void addLikeGrad(KernelContext &ctx, double ySign)
{
    const Tensor &x = ctx.input(0), &y = ctx.input(1), &grad = ctx.input(2);
    requireNumeric(grad, ctx.opName() == "pd_op.add_grad" ? "add_grad" : "subtract_grad");
    const Broadcast b = broadcastOf(ctx, x, y, grad);
    std::vector<double> gv = values(grad);
    if (wanted(ctx, 0))
        ctx.setOutput(0, makeTensor(ctx, x.shape(), x.dtype(), sumToShape(gv, b.out, b.x)));
    if (wanted(ctx, 1)) {
        std::vector<double> dy = sumToShape(gv, b.out, b.y);
        for (double &v : dy)
            v *= ySign;
        ctx.setOutput(1, makeTensor(ctx, y.shape(), y.dtype(), dy));
    }
}

void addGrad(KernelContext &ctx)
{
    addLikeGrad(ctx, 1.0);
}

void subtractGrad(KernelContext &ctx)
{
    addLikeGrad(ctx, -1.0);
}

/// where_grad(condition, x, y, out_grad).
void whereGrad(KernelContext &ctx)
{
    const Tensor &cond = ctx.input(0), &x = ctx.input(1), &y = ctx.input(2), &grad = ctx.input(3);
    requireNumeric(grad, "where_grad");
    const size_t rank = std::max({ cond.rank(), x.rank(), y.rank(), grad.rank() });
    const Shape out = alignShape(grad.shape(), rank);
    const Shape cs = alignShape(cond.shape(), rank), xs = alignShape(x.shape(), rank),
                ys = alignShape(y.shape(), rank);
    const std::vector<int64_t> co = broadcastOffsets(cs, out);
    const std::vector<double> c = values(cond), g = values(grad);
    std::vector<double> dx(g.size()), dy(g.size());
    for (size_t i = 0; i < g.size(); ++i) {
        const bool take = c[size_t(co[i])] != 0.0;
        dx[i] = take ? g[i] : 0.0;
        dy[i] = take ? 0.0 : g[i];
    }
    if (wanted(ctx, 0))
        ctx.setOutput(0, makeTensor(ctx, x.shape(), x.dtype(), sumToShape(dx, out, xs)));
    if (wanted(ctx, 1))
        ctx.setOutput(1, makeTensor(ctx, y.shape(), y.dtype(), sumToShape(dy, out, ys)));
}

} // namespace

void registerCpuGradBinaryKernels(KernelRegistry &registry)
{
    registry.add("pd_op.add_grad", addGrad);
    registry.add("pd_op.subtract_grad", subtractGrad);
    registry.add("pd_op.multiply_grad", binaryGrad<kernels::MultiplyGrad>);
    registry.add("pd_op.divide_grad", binaryGrad<kernels::DivideGrad>);
    registry.add("pd_op.maximum_grad", binaryGrad<kernels::MaximumGrad>);
    registry.add("pd_op.minimum_grad", binaryGrad<kernels::MinimumGrad>);
    registry.add("pd_op.elementwise_pow_grad", binaryGrad<kernels::ElementwisePowGrad>);
    registry.add("pd_op.where_grad", whereGrad);
}

} // namespace ps
