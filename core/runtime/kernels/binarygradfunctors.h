#pragma once

// The broadcasting binary `*_grad` rules, one functor each, shared by the CPU oracle
// (cpu/cpugradbinarykernels.cpp) and the CUDA grid (cuda/cudagradkernels.cu): each backend's
// `binaryGrad<Rule>` reads the operands, calls the rule in double on every element of out_grad
// with (x, y, out, out_grad) and sums its (dx, dy) over the broadcast dims. Besides its math a
// rule names its op for errors (kWhat), says where `out` sits among the operands (kOutIndex; -1
// for the (x, y, out_grad) layout) and whether integer gradients are accepted (kNumeric; floating
// only otherwise). Paddle's elementwise grad functors, ties and boundaries included.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernels/hostdevice.h"

namespace ps::kernels {

struct MultiplyGrad
{
    static constexpr const char *kWhat = "multiply_grad";
    static constexpr int kOutIndex = -1;
    static constexpr bool kNumeric = true;
    explicit MultiplyGrad(const KernelContext &) { }
    PS_HOST_DEVICE void operator()(double x, double y, double, double g, double &dx, double &dy) const
    {
        dx = g * y;
        dy = g * x;
    }
};

/// divide_grad(x, y, out, out_grad): dy = -out_grad * out / y, as Paddle computes it (x / y
/// stands in for a missing out).
struct DivideGrad
{
    static constexpr const char *kWhat = "divide_grad";
    static constexpr int kOutIndex = 2;
    static constexpr bool kNumeric = false;
    bool haveOut;
    explicit DivideGrad(const KernelContext &ctx)
        : haveOut(ctx.hasInput(kOutIndex))
    {
    }
    PS_HOST_DEVICE void operator()(double x, double y, double out, double g, double &dx, double &dy) const
    {
        dx = g / y;
        dy = -g * (haveOut ? out : x / y) / y;
    }
};

/// Ties split the gradient evenly, as Paddle's maximum/minimum grads do.
struct MaximumGrad
{
    static constexpr const char *kWhat = "maximum_grad";
    static constexpr int kOutIndex = -1;
    static constexpr bool kNumeric = true;
    explicit MaximumGrad(const KernelContext &) { }
    PS_HOST_DEVICE void operator()(double x, double y, double, double g, double &dx, double &dy) const
    {
        dx = x > y ? g : (x == y ? 0.5 * g : 0.0);
        dy = x < y ? g : (x == y ? 0.5 * g : 0.0);
    }
};

struct MinimumGrad
{
    static constexpr const char *kWhat = "minimum_grad";
    static constexpr int kOutIndex = -1;
    static constexpr bool kNumeric = true;
    explicit MinimumGrad(const KernelContext &) { }
    PS_HOST_DEVICE void operator()(double x, double y, double, double g, double &dx, double &dy) const
    {
        dx = x < y ? g : (x == y ? 0.5 * g : 0.0);
        dy = x > y ? g : (x == y ? 0.5 * g : 0.0);
    }
};

struct ElementwisePowGrad
{
    static constexpr const char *kWhat = "elementwise_pow_grad";
    static constexpr int kOutIndex = -1;
    static constexpr bool kNumeric = false;
    explicit ElementwisePowGrad(const KernelContext &) { }
    PS_HOST_DEVICE void operator()(double x, double y, double, double g, double &dx, double &dy) const
    {
        dx = g * y * km::pow(x, y - 1.0);
        dy = g * km::pow(x, y) * km::log(x);
    }
};

} // namespace ps::kernels
