#pragma once

// dropout and dropout_grad for both backends over an execution policy `Exec`.
//
// dropout(x, seed_tensor?, p) {is_test, mode, seed, fix_seed} -> out, mask (uint8). Inference
// (is_test) and p == 0: out = x ("upscale_in_train") or x * (1 - p) ("downgrade_in_infer"), mask
// all ones. Training with p > 0: the mask is drawn on the host from std::mt19937_64 seeded with
// the seed_tensor value, else the `seed` attribute (whether or not fix_seed is set: a debugger
// run must be reproducible), keeping an element when a uniform [0, 1) draw is >= p, and uploaded,
// so every backend applies the very same mask; "upscale_in_train" scales kept elements by
// 1 / (1 - p). The mask will not match Paddle's random stream.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/elementtraits.h"
#include "core/runtime/kernels/elementwisekernels.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/runtimeerror.h"

#include <string>

namespace ps::kernels {

/// dropout's settings and host mask (uint8, all ones when nothing is dropped).
struct DropoutPlan
{
    double p = 0.5;
    bool isTest = false;
    bool upscale = false;
    double factor = 1.0; ///< applied to kept elements
    Tensor mask; ///< host uint8 of x's shape
};
DropoutPlan dropoutPlan(const KernelContext &ctx, const std::vector<int64_t> &shape);

template<class T> struct DropoutMap
{
    const T *x;
    const uint8_t *mask;
    T *out;
    double factor;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        out[i] = mask[i] ? storeElement<T>(double(loadElement(x[i])) * factor) : storeElement<T>(0.0);
    }
};

template<class Exec> void dropoutKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0);
    const DropoutPlan plan = dropoutPlan(ctx, x.shape());
    Tensor mask = exec.allocate(x.shape(), DataType::UInt8);
    exec.copy(mask, plan.mask);
    Tensor out = exec.allocate(x.shape(), x.dtype());
    Exec::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        exec.launch(x.numElements(),
            DropoutMap<T> { static_cast<const T *>(x.rawData()), static_cast<const uint8_t *>(mask.rawData()),
                static_cast<T *>(out.rawData()), plan.factor },
            label.c_str());
    });
    ctx.setOutput(0, out);
    if (ctx.numOutputs() > 1)
        ctx.setOutput(1, mask);
}

/// dx = out_grad * mask * scale (mask already in out_grad's dtype; nullptr: no mask).
template<class T> struct DropoutGradMap
{
    const T *g;
    const T *mask;
    T *dx;
    double scale;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        const double m = mask ? double(loadElement(mask[i])) : 1.0;
        dx[i] = storeElement<T>(double(loadElement(g[i])) * (m * scale));
    }
};

/// dropout_grad (mask, out_grad, p): upscale_in_train scales kept elements by 1 / (1 - p) in
/// training and passes through at test; downgrade_in_infer multiplies by the mask in training and
/// by (1 - p) at test.
template<class Exec> void dropoutGradKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor g = exec.input(1);
    requireFloating(g, "dropout_grad");
    const double p = ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("p", 0.5);
    const bool isTest = ctx.boolAttr("is_test", false);
    const bool upscale = ctx.stringAttr("mode", "upscale_in_train") == "upscale_in_train";
    Tensor mask;
    double scale = 1.0;
    if (isTest) {
        scale = upscale ? 1.0 : 1.0 - p;
    } else {
        mask = castTo(exec, exec.input(0), g.dtype());
        if (mask.numElements() != g.numElements())
            throw RuntimeError(
                "dropout_grad: mask " + ctx.input(0).describe() + " does not match out_grad " + g.describe());
        scale = upscale ? (p >= 1.0 ? 0.0 : 1.0 / (1.0 - p)) : 1.0;
    }
    Tensor dx = exec.allocate(g.shape(), g.dtype());
    Exec::dispatchFloating(g.dtype(), "dropout_grad", [&](auto tag) {
        using T = decltype(tag);
        exec.launch(g.numElements(),
            DropoutGradMap<T> { static_cast<const T *>(g.rawData()),
                mask.defined() ? static_cast<const T *>(mask.rawData()) : nullptr,
                static_cast<T *>(dx.rawData()), scale },
            "dropout_grad");
    });
    ctx.setOutput(0, dx);
}

/// dropout_ (what Paddle's inplace_pass makes of a dropout whose input dies there): dropout,
/// its result written back into x's storage, which it then shares.
template<class Exec> void dropoutInplaceKernel(KernelContext &ctx)
{
    dropoutKernel<Exec>(ctx);
    Exec exec(ctx);
    Tensor target = exec.input(0);
    const Tensor out = ctx.output(0).tensor();
    if (out.storage() != target.storage()) {
        exec.copy(target, out);
        ctx.setOutput(0, target);
    }
}

template<class Exec> void registerDropoutKernels(KernelRegistry &registry)
{
    registry.add("pd_op.dropout", &dropoutKernel<Exec>);
    registry.add("pd_op.dropout_", &dropoutInplaceKernel<Exec>);
    registry.add("pd_op.dropout_grad", &dropoutGradKernel<Exec>);
}

} // namespace ps::kernels
