#pragma once

// The unary activation grad kernels of both backends over an execution policy `Exec`: one
// GradMap per op runs the op's rule (activationgradfunctors.h) in double on (x | out, out_grad)
// and stores in out_grad's dtype.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/activationgradfunctors.h"
#include "core/runtime/kernels/elementwisekernels.h"
#include "core/runtime/kernels/kernelargs.h"

namespace ps::kernels {

template<class T, class Rule> struct GradMap
{
    const T *v; ///< x or out (nullptr for the (out_grad) layout)
    const T *o; ///< out of the (x, out, out_grad) layout
    const T *g;
    T *dx;
    Rule rule;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        const double vv = v ? double(loadElement(v[i])) : 0.0;
        const double ov = o ? double(loadElement(o[i])) : 0.0;
        dx[i] = storeElement<T>(rule(vv, ov, double(loadElement(g[i]))));
    }
};

template<class Exec, GradLayout L, class Rule> void activationGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    GradLayout layout = L;
    // silu_grad is (x, out, out_grad) in Paddle 3.x and (x, out_grad) before.
    if (L == GradLayout::XGrad && ctx.opName() == "pd_op.silu_grad" && ctx.numInputs() >= 3)
        layout = GradLayout::XOutGrad;
    const size_t gradIndex = layout == GradLayout::Grad ? 0 : (layout == GradLayout::XOutGrad ? 2 : 1);
    const Tensor g = exec.input(gradIndex);
    requireFloating(g, ctx.opName());
    Tensor v, o;
    if (layout != GradLayout::Grad) {
        v = castTo(exec, exec.input(0), g.dtype());
        if (v.numElements() != g.numElements())
            throw RuntimeError("operand 0 " + v.describe() + " does not match out_grad " + g.describe());
    }
    if (layout == GradLayout::XOutGrad) {
        o = castTo(exec, exec.input(1), g.dtype());
        if (o.numElements() != g.numElements())
            throw RuntimeError("out " + o.describe() + " does not match out_grad " + g.describe());
    }
    const Rule rule = makeOp<Rule>(ctx);
    Tensor dx = exec.allocate(g.shape(), g.dtype());
    Exec::dispatchFloating(g.dtype(), "activation grad", [&](auto tag) {
        using T = decltype(tag);
        exec.launch(g.numElements(),
            GradMap<T, Rule> { v.defined() ? static_cast<const T *>(v.rawData()) : nullptr,
                o.defined() ? static_cast<const T *>(o.rawData()) : nullptr, static_cast<const T *>(g.rawData()),
                static_cast<T *>(dx.rawData()), rule },
            "activation grad");
    });
    ctx.setOutput(0, dx);
}

template<class Exec> void registerActivationGradKernels(KernelRegistry &registry)
{
    using L = GradLayout;
    for (const char *name : { "pd_op.floor_grad", "pd_op.ceil_grad", "pd_op.round_grad", "pd_op.trunc_grad" })
        registry.add(name, &activationGradKernel<Exec, L::Grad, ZeroGrad>);
    registry.add("pd_op.relu_grad", &activationGradKernel<Exec, L::OutGrad, ReluGrad>);
    registry.add("pd_op.relu6_grad", &activationGradKernel<Exec, L::OutGrad, Relu6Grad>);
    registry.add("pd_op.tanh_grad", &activationGradKernel<Exec, L::OutGrad, TanhGrad>);
    registry.add("pd_op.sigmoid_grad", &activationGradKernel<Exec, L::OutGrad, SigmoidGrad>);
    registry.add("pd_op.exp_grad", &activationGradKernel<Exec, L::OutGrad, ExpGrad>);
    registry.add("pd_op.expm1_grad", &activationGradKernel<Exec, L::OutGrad, Expm1Grad>);
    registry.add("pd_op.sqrt_grad", &activationGradKernel<Exec, L::OutGrad, SqrtGrad>);
    registry.add("pd_op.rsqrt_grad", &activationGradKernel<Exec, L::OutGrad, RsqrtGrad>);
    registry.add("pd_op.reciprocal_grad", &activationGradKernel<Exec, L::OutGrad, ReciprocalGrad>);
    registry.add("pd_op.hardsigmoid_grad", &activationGradKernel<Exec, L::OutGrad, HardsigmoidGrad>);
    registry.add("pd_op.selu_grad", &activationGradKernel<Exec, L::OutGrad, SeluGrad>);
    registry.add("pd_op.gelu_grad", &activationGradKernel<Exec, L::XGrad, GeluGrad>);
    registry.add("pd_op.swish_grad", &activationGradKernel<Exec, L::XGrad, SwishGrad>);
    registry.add("pd_op.silu_grad", &activationGradKernel<Exec, L::XGrad, SwishGrad>);
    registry.add("pd_op.hardswish_grad", &activationGradKernel<Exec, L::XGrad, HardswishGrad>);
    registry.add("pd_op.sin_grad", &activationGradKernel<Exec, L::XGrad, SinGrad>);
    registry.add("pd_op.cos_grad", &activationGradKernel<Exec, L::XGrad, CosGrad>);
    registry.add("pd_op.tan_grad", &activationGradKernel<Exec, L::XGrad, TanGrad>);
    registry.add("pd_op.asin_grad", &activationGradKernel<Exec, L::XGrad, AsinGrad>);
    registry.add("pd_op.acos_grad", &activationGradKernel<Exec, L::XGrad, AcosGrad>);
    registry.add("pd_op.atan_grad", &activationGradKernel<Exec, L::XGrad, AtanGrad>);
    registry.add("pd_op.sinh_grad", &activationGradKernel<Exec, L::XGrad, SinhGrad>);
    registry.add("pd_op.cosh_grad", &activationGradKernel<Exec, L::XGrad, CoshGrad>);
    registry.add("pd_op.asinh_grad", &activationGradKernel<Exec, L::XGrad, AsinhGrad>);
    registry.add("pd_op.acosh_grad", &activationGradKernel<Exec, L::XGrad, AcoshGrad>);
    registry.add("pd_op.atanh_grad", &activationGradKernel<Exec, L::XGrad, AtanhGrad>);
    registry.add("pd_op.log_grad", &activationGradKernel<Exec, L::XGrad, LogGrad>);
    registry.add("pd_op.log2_grad", &activationGradKernel<Exec, L::XGrad, Log2Grad>);
    registry.add("pd_op.log10_grad", &activationGradKernel<Exec, L::XGrad, Log10Grad>);
    registry.add("pd_op.log1p_grad", &activationGradKernel<Exec, L::XGrad, Log1pGrad>);
    registry.add("pd_op.square_grad", &activationGradKernel<Exec, L::XGrad, SquareGrad>);
    registry.add("pd_op.abs_grad", &activationGradKernel<Exec, L::XGrad, AbsGrad>);
    registry.add("pd_op.erf_grad", &activationGradKernel<Exec, L::XGrad, ErfGrad>);
    registry.add("pd_op.softplus_grad", &activationGradKernel<Exec, L::XGrad, SoftplusGrad>);
    registry.add("pd_op.leaky_relu_grad", &activationGradKernel<Exec, L::XGrad, LeakyReluGrad>);
    registry.add("pd_op.pow_grad", &activationGradKernel<Exec, L::XGrad, PowGrad>);
    registry.add("pd_op.celu_grad", &activationGradKernel<Exec, L::XGrad, CeluGrad>);
    registry.add("pd_op.hardshrink_grad", &activationGradKernel<Exec, L::XGrad, ShrinkGrad>);
    registry.add("pd_op.softshrink_grad", &activationGradKernel<Exec, L::XGrad, ShrinkGrad>);
    registry.add("pd_op.softsign_grad", &activationGradKernel<Exec, L::XGrad, SoftsignGrad>);
    registry.add("pd_op.tanh_shrink_grad", &activationGradKernel<Exec, L::XGrad, TanhShrinkGrad>);
    registry.add("pd_op.thresholded_relu_grad", &activationGradKernel<Exec, L::XGrad, ThresholdedReluGrad>);
    registry.add("pd_op.hardtanh_grad", &activationGradKernel<Exec, L::XGrad, HardtanhGrad>);
    registry.add("pd_op.logsigmoid_grad", &activationGradKernel<Exec, L::XGrad, LogsigmoidGrad>);
    registry.add("pd_op.mish_grad", &activationGradKernel<Exec, L::XGrad, MishGrad>);
    registry.add("pd_op.stanh_grad", &activationGradKernel<Exec, L::XGrad, StanhGrad>);
    registry.add("pd_op.logit_grad", &activationGradKernel<Exec, L::XGrad, LogitGrad>);
    registry.add("pd_op.clip_grad", &activationGradKernel<Exec, L::XGrad, ClipGrad>);
    registry.add("pd_op.elu_grad", &activationGradKernel<Exec, L::XOutGrad, EluGrad>);
}

} // namespace ps::kernels
