#pragma once

// The unary activation `*_grad` rules, one functor each, shared by the CPU loop and the CUDA
// grid (kernels/activationgradkernels.h runs them). A rule computes in double on
// (v, o, g): v is x or out as the op's layout says, o is out for the (x, out, out_grad) layout,
// g the output gradient; Paddle's activation grad functors, boundaries included. Rules with
// attributes read them in a host constructor.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernels/hostdevice.h"

#include <numbers>

namespace ps::kernels {

/// Operands of a unary activation grad, as in Paddle's backward YAML.
enum class GradLayout {
    Grad, ///< (out_grad)
    OutGrad, ///< (out, out_grad)
    XGrad, ///< (x, out_grad)
    XOutGrad, ///< (x, out, out_grad)
};

PS_HOST_DEVICE PS_INLINE double sigmoidOf(double x)
{
    return 1.0 / (1.0 + km::exp(-x));
}

#define PS_GRAD_RULE(Name, body)                                                                             \
    struct Name                                                                                              \
    {                                                                                                        \
        PS_HOST_DEVICE double operator()(double v, double o, double g) const { body }                        \
    };

PS_GRAD_RULE(ZeroGrad, (void)v; (void)o; (void)g; return 0.0;)
PS_GRAD_RULE(ReluGrad, (void)o; return v > 0.0 ? g : 0.0;)
PS_GRAD_RULE(Relu6Grad, (void)o; return v > 0.0 && v < 6.0 ? g : 0.0;)
PS_GRAD_RULE(TanhGrad, (void)o; return g * (1.0 - v * v);)
PS_GRAD_RULE(SigmoidGrad, (void)o; return g * v * (1.0 - v);)
PS_GRAD_RULE(ExpGrad, (void)o; return g * v;)
PS_GRAD_RULE(Expm1Grad, (void)o; return g * (v + 1.0);)
PS_GRAD_RULE(SqrtGrad, (void)o; return 0.5 * g / v;)
PS_GRAD_RULE(RsqrtGrad, (void)o; return -0.5 * g * v * v * v;)
PS_GRAD_RULE(ReciprocalGrad, (void)o; return -g * v * v;)
PS_GRAD_RULE(SwishGrad, (void)o; const double s = sigmoidOf(v); return g * s * (1.0 + v * (1.0 - s));)
PS_GRAD_RULE(HardswishGrad, (void)o; if (v + 3.0 >= 6.0) return g; return v + 3.0 > 0.0 ? g * (2.0 * v + 3.0) / 6.0 : 0.0;)
PS_GRAD_RULE(SinGrad, (void)o; return g * km::cos(v);)
PS_GRAD_RULE(CosGrad, (void)o; return -g * km::sin(v);)
PS_GRAD_RULE(TanGrad, (void)o; const double c = km::cos(v); return g / (c * c);)
PS_GRAD_RULE(AsinGrad, (void)o; return g / km::sqrt(1.0 - v * v);)
PS_GRAD_RULE(AcosGrad, (void)o; return -g / km::sqrt(1.0 - v * v);)
PS_GRAD_RULE(AtanGrad, (void)o; return g / (1.0 + v * v);)
PS_GRAD_RULE(SinhGrad, (void)o; return g * km::cosh(v);)
PS_GRAD_RULE(CoshGrad, (void)o; return g * km::sinh(v);)
PS_GRAD_RULE(AsinhGrad, (void)o; return g / km::sqrt(v * v + 1.0);)
PS_GRAD_RULE(AcoshGrad, (void)o; return g / km::sqrt(v * v - 1.0);)
PS_GRAD_RULE(AtanhGrad, (void)o; return g / (1.0 - v * v);)
PS_GRAD_RULE(LogGrad, (void)o; return g / v;)
PS_GRAD_RULE(Log2Grad, (void)o; return g / (v * std::numbers::ln2);)
PS_GRAD_RULE(Log10Grad, (void)o; return g / (v * std::numbers::ln10);)
PS_GRAD_RULE(Log1pGrad, (void)o; return g / (1.0 + v);)
PS_GRAD_RULE(SquareGrad, (void)o; return 2.0 * v * g;)
PS_GRAD_RULE(AbsGrad, (void)o; return v > 0.0 ? g : (v < 0.0 ? -g : 0.0);)
PS_GRAD_RULE(ErfGrad, (void)o; return g * 2.0 / km::sqrt(std::numbers::pi) * km::exp(-v * v);)
PS_GRAD_RULE(SoftsignGrad, (void)o; const double d = 1.0 + km::fabs(v); return g / (d * d);)
PS_GRAD_RULE(TanhShrinkGrad, (void)o; const double t = km::tanh(v); return g * t * t;)
PS_GRAD_RULE(LogsigmoidGrad, (void)o; return g * sigmoidOf(-v);)
#undef PS_GRAD_RULE

/// Rules with up to two attributes `a`, `b`.
struct AttrGrad
{
    double a = 0.0, b = 0.0;
};

/// approximate=true: the tanh formula's derivative.
struct GeluGrad : AttrGrad
{
    explicit GeluGrad(const KernelContext &ctx) { a = ctx.boolAttr("approximate", false) ? 1.0 : 0.0; }
    PS_HOST_DEVICE double operator()(double x, double, double g) const
    {
        if (a != 0.0) {
            const double k = km::sqrt(2.0 / std::numbers::pi);
            const double t = km::tanh(k * (x + 0.044715 * x * x * x));
            return g * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * x * x));
        }
        return g
            * (0.5 * (1.0 + km::erf(x / std::numbers::sqrt2))
                + x * km::exp(-0.5 * x * x) / km::sqrt(2.0 * std::numbers::pi));
    }
};
struct HardsigmoidGrad : AttrGrad
{
    explicit HardsigmoidGrad(const KernelContext &ctx)
    {
        a = ctx.floatAttr("slope", 0.2);
        b = ctx.floatAttr("offset", 0.5);
    }
    PS_HOST_DEVICE double operator()(double out, double, double g) const { return out > 0.0 && out < 1.0 ? g * a : 0.0; }
};
struct SeluGrad : AttrGrad
{
    explicit SeluGrad(const KernelContext &ctx)
    {
        a = ctx.floatAttr("scale", 1.0507009873554805);
        b = ctx.floatAttr("alpha", 1.6732632423543772);
    }
    PS_HOST_DEVICE double operator()(double out, double, double g) const { return out > 0.0 ? g * a : g * (out + a * b); }
};
struct SoftplusGrad : AttrGrad
{
    explicit SoftplusGrad(const KernelContext &ctx)
    {
        a = ctx.floatAttr("beta", 1.0);
        b = ctx.floatAttr("threshold", 20.0);
    }
    PS_HOST_DEVICE double operator()(double x, double, double g) const { return x * a > b ? g : g * sigmoidOf(a * x); }
};
struct LeakyReluGrad : AttrGrad
{
    explicit LeakyReluGrad(const KernelContext &ctx) { a = ctx.floatAttr("negative_slope", ctx.floatAttr("alpha", 0.02)); }
    PS_HOST_DEVICE double operator()(double x, double, double g) const { return x >= 0.0 ? g : a * g; }
};
/// pow's exponent: attribute `y`, or a tensor operand after out_grad.
struct PowGrad : AttrGrad
{
    explicit PowGrad(const KernelContext &ctx) { a = ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("y", 1.0); }
    PS_HOST_DEVICE double operator()(double x, double, double g) const { return g * a * km::pow(x, a - 1.0); }
};
struct CeluGrad : AttrGrad
{
    explicit CeluGrad(const KernelContext &ctx) { a = ctx.floatAttr("alpha", 1.0); }
    PS_HOST_DEVICE double operator()(double x, double, double g) const { return x > 0.0 ? g : g * km::exp(x / a); }
};
/// hardshrink and softshrink.
struct ShrinkGrad : AttrGrad
{
    explicit ShrinkGrad(const KernelContext &ctx) { a = ctx.floatAttr("threshold", ctx.floatAttr("lambda", 0.5)); }
    PS_HOST_DEVICE double operator()(double x, double, double g) const { return x < -a || x > a ? g : 0.0; }
};
struct ThresholdedReluGrad : AttrGrad
{
    explicit ThresholdedReluGrad(const KernelContext &ctx) { a = ctx.floatAttr("threshold", 1.0); }
    PS_HOST_DEVICE double operator()(double x, double, double g) const { return x > a ? g : 0.0; }
};
struct HardtanhGrad : AttrGrad
{
    explicit HardtanhGrad(const KernelContext &ctx)
    {
        a = ctx.floatAttr("t_min", 0.0);
        b = ctx.floatAttr("t_max", 24.0);
    }
    PS_HOST_DEVICE double operator()(double x, double, double g) const { return x > a && x < b ? g : 0.0; }
};
struct MishGrad : AttrGrad
{
    explicit MishGrad(const KernelContext &ctx) { a = ctx.floatAttr("lambda", ctx.floatAttr("threshold", 20.0)); }
    PS_HOST_DEVICE double operator()(double x, double, double g) const
    {
        const double sp = x > a ? x : km::log1p(km::exp(x));
        const double tsp = km::tanh(sp);
        const double gradSp = -km::expm1(-sp);
        return g * (x * (1.0 - tsp * tsp) * gradSp + tsp);
    }
};
struct StanhGrad : AttrGrad
{
    explicit StanhGrad(const KernelContext &ctx)
    {
        a = ctx.floatAttr("scale_a", 0.67);
        b = ctx.floatAttr("scale_b", 1.7159);
    }
    PS_HOST_DEVICE double operator()(double x, double, double g) const
    {
        const double t = km::tanh(a * x);
        return g * a * b * (1.0 - t * t);
    }
};
struct LogitGrad : AttrGrad
{
    explicit LogitGrad(const KernelContext &ctx) { a = ctx.floatAttr("eps", 0.0); }
    PS_HOST_DEVICE double operator()(double x, double, double g) const
    {
        return x < a || x > 1.0 - a ? 0.0 : g / (x * (1.0 - x));
    }
};
/// clip_grad(x, out_grad, min, max): bounds are tensor operands (or attributes), inclusive.
struct ClipGrad : AttrGrad
{
    explicit ClipGrad(const KernelContext &ctx)
    {
        a = ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("min");
        b = ctx.hasInput(3) ? ctx.inputAsScalar(3) : ctx.floatAttr("max");
    }
    PS_HOST_DEVICE double operator()(double x, double, double g) const { return x >= a && x <= b ? g : 0.0; }
};
/// elu_grad(x, out, out_grad).
struct EluGrad : AttrGrad
{
    explicit EluGrad(const KernelContext &ctx) { a = ctx.floatAttr("alpha", 1.0); }
    PS_HOST_DEVICE double operator()(double x, double out, double g) const
    {
        if (x > 0.0)
            return g;
        return a >= 0.0 ? g * (out + a) : g * a * km::exp(x);
    }
};

} // namespace ps::kernels
