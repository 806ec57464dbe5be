#pragma once

// The unary elementwise ops, one functor each, shared by the CPU loop and the CUDA grid
// (kernels/elementwisekernels.h runs them). Each functor names the element types it accepts
// (kDomain), whether it yields bool (kBoolResult), and computes on the compute type C (float for
// float16/bfloat16/float32, double, or the integer type itself). Ops with attributes read them
// in a host constructor taking the KernelContext; the functor is then copied to the device.
// Adding a unary op: one functor here, one line in registerUnaryKernels (elementwisekernels.h),
// its grad rule in activationgradfunctors.h.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernels/hostdevice.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/runtimeerror.h"

#include <cmath>
#include <numbers>
#include <type_traits>

namespace ps::kernels {

/// Which element types an op accepts: floating point only, any but bool, or any.
enum class Domain { Floating, Numeric, Any };

template<Domain D = Domain::Floating, bool B = false> struct UnaryTraits
{
    static constexpr Domain kDomain = D;
    static constexpr bool kBoolResult = B;
};

/// NaN maps to 0, as Paddle's `x > 0 ? x : 0`.
struct ReluOp : UnaryTraits<>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const { return x > C(0) ? x : C(0); }
};
struct Relu6Op : UnaryTraits<>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        return x > C(0) ? (x < C(6) ? x : C(6)) : C(0);
    }
};
/// approximate=false: x/2 (1 + erf(x/sqrt 2)); true: the tanh formula.
struct GeluOp : UnaryTraits<>
{
    bool approximate;
    explicit GeluOp(const KernelContext &ctx)
        : approximate(ctx.boolAttr("approximate", false))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        if (approximate) {
            const C k = C(std::numbers::sqrt2 * std::numbers::inv_sqrtpi); // sqrt(2 / pi)
            return C(0.5) * x * (C(1) + km::tanh(k * (x + C(0.044715) * x * x * x)));
        }
        return C(0.5) * x * (C(1) + km::erf(x * C(1.0 / std::numbers::sqrt2)));
    }
};
struct TanhOp : UnaryTraits<>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const { return km::tanh(x); }
};
struct SigmoidOp : UnaryTraits<>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const { return C(1) / (C(1) + km::exp(-x)); }
};
/// silu and swish (beta = 1): x * sigmoid(x).
struct SiluOp : UnaryTraits<>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const { return x / (C(1) + km::exp(-x)); }
};
/// x * min(max(x + 3, 0), 6) / 6.
struct HardswishOp : UnaryTraits<>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        const C t = x + C(3);
        return x * (t > C(0) ? (t < C(6) ? t : C(6)) : C(0)) / C(6);
    }
};
struct HardsigmoidOp : UnaryTraits<>
{
    double slope, offset;
    explicit HardsigmoidOp(const KernelContext &ctx)
        : slope(ctx.floatAttr("slope", 0.2))
        , offset(ctx.floatAttr("offset", 0.5))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        const C t = C(slope) * x + C(offset);
        return t > C(0) ? (t < C(1) ? t : C(1)) : C(0);
    }
};
struct LeakyReluOp : UnaryTraits<>
{
    double slope;
    explicit LeakyReluOp(const KernelContext &ctx)
        : slope(ctx.floatAttr("negative_slope", 0.02))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const { return x > C(0) ? x : C(slope) * x; }
};
/// x * tanh(softplus(x)), softplus(x) = x above `lambda` (Paddle's threshold), log1p(exp(x))
/// below it.
struct MishOp : UnaryTraits<>
{
    double threshold;
    explicit MishOp(const KernelContext &ctx)
        : threshold(ctx.floatAttr("lambda", 20.0))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        const C softplus = x > C(threshold) ? x : km::log1p(km::exp(x));
        return x * km::tanh(softplus);
    }
};
/// log1p(exp(beta x)) / beta, x itself where beta x exceeds `threshold` (Paddle's softplus).
struct SoftplusOp : UnaryTraits<>
{
    double beta, threshold;
    explicit SoftplusOp(const KernelContext &ctx)
        : beta(ctx.floatAttr("beta", 1.0))
        , threshold(ctx.floatAttr("threshold", 20.0))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        const C scaled = C(beta) * x;
        return scaled > C(threshold) ? x : km::log1p(km::exp(scaled)) / C(beta);
    }
};
/// alpha * (exp(x) - 1) below 0, as Paddle computes it.
struct EluOp : UnaryTraits<>
{
    double alpha;
    explicit EluOp(const KernelContext &ctx)
        : alpha(ctx.floatAttr("alpha", 1.0))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        return x > C(0) ? x : C(alpha) * (km::exp(x) - C(1));
    }
};

#define PS_FLOAT_UNARY(Name, expr)                                                                           \
    struct Name : UnaryTraits<>                                                                              \
    {                                                                                                        \
        template<class C> PS_HOST_DEVICE C operator()(C x) const { return expr; }                            \
    };
PS_FLOAT_UNARY(ExpOp, km::exp(x))
PS_FLOAT_UNARY(Expm1Op, km::expm1(x))
PS_FLOAT_UNARY(LogOp, km::log(x))
PS_FLOAT_UNARY(Log2Op, km::log2(x))
PS_FLOAT_UNARY(Log10Op, km::log10(x))
PS_FLOAT_UNARY(Log1pOp, km::log1p(x))
PS_FLOAT_UNARY(SqrtOp, km::sqrt(x))
PS_FLOAT_UNARY(RsqrtOp, C(1) / km::sqrt(x))
PS_FLOAT_UNARY(SinOp, km::sin(x))
PS_FLOAT_UNARY(CosOp, km::cos(x))
PS_FLOAT_UNARY(TanOp, km::tan(x))
PS_FLOAT_UNARY(AsinOp, km::asin(x))
PS_FLOAT_UNARY(AcosOp, km::acos(x))
PS_FLOAT_UNARY(AtanOp, km::atan(x))
PS_FLOAT_UNARY(SinhOp, km::sinh(x))
PS_FLOAT_UNARY(CoshOp, km::cosh(x))
PS_FLOAT_UNARY(FloorOp, km::floor(x))
PS_FLOAT_UNARY(CeilOp, km::ceil(x))
PS_FLOAT_UNARY(TruncOp, km::trunc(x))
PS_FLOAT_UNARY(ReciprocalOp, C(1) / x)
PS_FLOAT_UNARY(ErfOp, km::erf(x))
#undef PS_FLOAT_UNARY

/// Half to even (nearbyint), after scaling by 10^decimals.
struct RoundOp : UnaryTraits<>
{
    int64_t decimals;
    double scale;
    explicit RoundOp(const KernelContext &ctx)
        : decimals(ctx.intAttr("decimals", 0))
        , scale(std::pow(10.0, double(decimals)))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        if (decimals == 0)
            return km::nearbyint(x);
        return km::nearbyint(x * C(scale)) / C(scale);
    }
};

struct AbsOp : UnaryTraits<Domain::Numeric>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return km::fabs(x);
        else
            return km::isNegative(x) ? C(-x) : x;
    }
};
/// -1, 0 or 1; NaN stays NaN.
struct SignOp : UnaryTraits<Domain::Numeric>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        if (km::isnan(x))
            return x;
        return x > C(0) ? C(1) : (km::isNegative(x) ? C(-1) : C(0));
    }
};
struct SquareOp : UnaryTraits<Domain::Numeric>
{
    template<class C> PS_HOST_DEVICE C operator()(C x) const { return C(x * x); }
};

struct LogicalNotOp : UnaryTraits<Domain::Any, true>
{
    template<class C> PS_HOST_DEVICE bool operator()(C x) const { return x == C(0); }
};
struct IsNanOp : UnaryTraits<Domain::Any, true>
{
    template<class C> PS_HOST_DEVICE bool operator()(C x) const { return km::isnan(x); }
};
struct IsInfOp : UnaryTraits<Domain::Any, true>
{
    template<class C> PS_HOST_DEVICE bool operator()(C x) const { return km::isinf(x); }
};
struct IsFiniteOp : UnaryTraits<Domain::Any, true>
{
    template<class C> PS_HOST_DEVICE bool operator()(C x) const { return km::isfinite(x); }
};

/// x^y for attribute (or operand) y. Integers: y truncated to the integer type first, then
/// llrint(pow(double, double)), as Paddle's integer kernel.
struct PowScalarOp : UnaryTraits<Domain::Numeric>
{
    double y;
    explicit PowScalarOp(const KernelContext &ctx)
        : y(scalarOperandOrAttr(ctx, 1, "y", 1.0))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        if constexpr (std::is_integral_v<C>)
            return C(km::llrint(km::pow(double(x), double(C(y)))));
        else
            return km::pow(x, C(y));
    }
};

/// bias_after_scale ? scale*x + bias : scale*(x + bias). Integer tensors truncate scale and bias
/// to the integer type first (Paddle's kernel converts both to T).
struct ScaleOp : UnaryTraits<Domain::Numeric>
{
    double scale, bias;
    bool biasAfterScale;
    explicit ScaleOp(const KernelContext &ctx)
        : scale(scalarOperandOrAttr(ctx, 1, "scale", 1.0))
        , bias(ctx.floatAttr("bias", 0.0))
        , biasAfterScale(ctx.boolAttr("bias_after_scale", true))
    {
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        const C s = C(scale), b = C(bias);
        return C(biasAfterScale ? s * x + b : s * (x + b));
    }
};

/// min/max from operands 1 and 2 (PIR) or attributes; NaN stays NaN.
struct ClipOp : UnaryTraits<Domain::Numeric>
{
    double lo, hi;
    explicit ClipOp(const KernelContext &ctx)
        : lo(scalarOperandOrAttr(ctx, 1, "min"))
        , hi(scalarOperandOrAttr(ctx, 2, "max"))
    {
        if (lo > hi)
            throw RuntimeError(
                "clip: min " + std::to_string(lo) + " is greater than max " + std::to_string(hi));
    }
    template<class C> PS_HOST_DEVICE C operator()(C x) const
    {
        return x < C(lo) ? C(lo) : (x > C(hi) ? C(hi) : x);
    }
};

/// A floating value converted to an integer type as x86 does for static_cast: truncation toward
/// zero through a 32-bit (64-bit for int64) conversion whose NaN/out-of-range result is that
/// width's minimum, then wrapped to the target width. Matches Paddle's cast on x86 CPUs (the
/// device's own conversion saturates instead, so it is spelled out).
template<class To> PS_HOST_DEVICE PS_INLINE To floatToInteger(double v)
{
    if constexpr (sizeof(To) == 8) {
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
            return To(int64_t(uint64_t(1) << 63));
        return To(int64_t(v));
    } else {
        const int32_t w
            = (v >= -2147483648.0 && v < 2147483648.0) ? int32_t(v) : int32_t(int64_t(-2147483648LL));
        return To(w);
    }
}

} // namespace ps::kernels
