// Unary elementwise ops: activations, math functions, predicates, and the unary ops with
// scalar arguments (pow, scale, clip) plus cast.

#include "core/runtime/cpu/cpuelementwisecommon.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace ps::cpuew {
namespace {

/// Which element types an op accepts: floating point only, any but bool, or any.
enum class Domain { Floating, Numeric, Any };

template<Domain D, class T>
inline constexpr bool kAccepts
    = D == Domain::Any || (D == Domain::Numeric && !std::is_same_v<T, bool>) || kIsFloating<T>;

// Each op: kDomain, kBoolResult, and a call operator on the compute type C (float for
// float16/bfloat16/float32, double, or the integer type). Ops with attributes read them in a
// constructor taking the KernelContext.

template<Domain D = Domain::Floating, bool B = false> struct UnaryTraits
{
    static constexpr Domain kDomain = D;
    static constexpr bool kBoolResult = B;
};

/// NaN maps to 0, as Paddle's `x > 0 ? x : 0`.
struct ReluOp : UnaryTraits<>
{
    template<class C> C operator()(C x) const { return x > C(0) ? x : C(0); }
};
struct Relu6Op : UnaryTraits<>
{
    template<class C> C operator()(C x) const { return x > C(0) ? (x < C(6) ? x : C(6)) : C(0); }
};
/// approximate=false: x/2 (1 + erf(x/sqrt 2)); true: the tanh formula.
struct GeluOp : UnaryTraits<>
{
    bool approximate;
    explicit GeluOp(const KernelContext &ctx)
        : approximate(ctx.boolAttr("approximate", false))
    {
    }
    template<class C> C operator()(C x) const
    {
        if (approximate) {
            const C k = C(std::numbers::sqrt2 * std::numbers::inv_sqrtpi); // sqrt(2 / pi)
            return C(0.5) * x * (C(1) + std::tanh(k * (x + C(0.044715) * x * x * x)));
        }
        return C(0.5) * x * (C(1) + std::erf(x * C(1.0 / std::numbers::sqrt2)));
    }
};
struct TanhOp : UnaryTraits<>
{
    template<class C> C operator()(C x) const { return std::tanh(x); }
};
struct SigmoidOp : UnaryTraits<>
{
    template<class C> C operator()(C x) const { return C(1) / (C(1) + std::exp(-x)); }
};
/// silu and swish (beta = 1): x * sigmoid(x).
struct SiluOp : UnaryTraits<>
{
    template<class C> C operator()(C x) const { return x / (C(1) + std::exp(-x)); }
};
/// x * min(max(x + 3, 0), 6) / 6.
struct HardswishOp : UnaryTraits<>
{
    template<class C> C operator()(C x) const
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
    template<class C> C operator()(C x) const
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
    template<class C> C operator()(C x) const { return x > C(0) ? x : C(slope) * x; }
};
/// alpha * (exp(x) - 1) below 0, as Paddle computes it.
struct EluOp : UnaryTraits<>
{
    double alpha;
    explicit EluOp(const KernelContext &ctx)
        : alpha(ctx.floatAttr("alpha", 1.0))
    {
    }
    template<class C> C operator()(C x) const { return x > C(0) ? x : C(alpha) * (std::exp(x) - C(1)); }
};

#define PS_FLOAT_UNARY(Name, expr)                                                                           \
    struct Name : UnaryTraits<>                                                                              \
    {                                                                                                        \
        template<class C> C operator()(C x) const { return expr; }                                           \
    };
PS_FLOAT_UNARY(ExpOp, std::exp(x))
PS_FLOAT_UNARY(Expm1Op, std::expm1(x))
PS_FLOAT_UNARY(LogOp, std::log(x))
PS_FLOAT_UNARY(Log2Op, std::log2(x))
PS_FLOAT_UNARY(Log10Op, std::log10(x))
PS_FLOAT_UNARY(Log1pOp, std::log1p(x))
PS_FLOAT_UNARY(SqrtOp, std::sqrt(x))
PS_FLOAT_UNARY(RsqrtOp, C(1) / std::sqrt(x))
PS_FLOAT_UNARY(SinOp, std::sin(x))
PS_FLOAT_UNARY(CosOp, std::cos(x))
PS_FLOAT_UNARY(TanOp, std::tan(x))
PS_FLOAT_UNARY(AsinOp, std::asin(x))
PS_FLOAT_UNARY(AcosOp, std::acos(x))
PS_FLOAT_UNARY(AtanOp, std::atan(x))
PS_FLOAT_UNARY(SinhOp, std::sinh(x))
PS_FLOAT_UNARY(CoshOp, std::cosh(x))
PS_FLOAT_UNARY(FloorOp, std::floor(x))
PS_FLOAT_UNARY(CeilOp, std::ceil(x))
PS_FLOAT_UNARY(TruncOp, std::trunc(x))
PS_FLOAT_UNARY(ReciprocalOp, C(1) / x)
PS_FLOAT_UNARY(ErfOp, std::erf(x))
#undef PS_FLOAT_UNARY

/// Half to even (std::nearbyint), after scaling by 10^decimals.
struct RoundOp : UnaryTraits<>
{
    int64_t decimals;
    explicit RoundOp(const KernelContext &ctx)
        : decimals(ctx.intAttr("decimals", 0))
    {
    }
    template<class C> C operator()(C x) const
    {
        if (decimals == 0)
            return std::nearbyint(x);
        const C scale = C(std::pow(10.0, double(decimals)));
        return std::nearbyint(x * scale) / scale;
    }
};

struct AbsOp : UnaryTraits<Domain::Numeric>
{
    template<class C> C operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return std::fabs(x);
        else
            return x < C(0) ? C(-x) : x;
    }
};
/// -1, 0 or 1; NaN stays NaN.
struct SignOp : UnaryTraits<Domain::Numeric>
{
    template<class C> C operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            if (std::isnan(x))
                return x;
        return x > C(0) ? C(1) : (x < C(0) ? C(-1) : C(0));
    }
};
struct SquareOp : UnaryTraits<Domain::Numeric>
{
    template<class C> C operator()(C x) const { return C(x * x); }
};

struct LogicalNotOp : UnaryTraits<Domain::Any, true>
{
    template<class C> bool operator()(C x) const { return x == C(0); }
};
struct IsNanOp : UnaryTraits<Domain::Any, true>
{
    template<class C> bool operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return std::isnan(x);
        else
            return false;
    }
};
struct IsInfOp : UnaryTraits<Domain::Any, true>
{
    template<class C> bool operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return std::isinf(x);
        else
            return false;
    }
};
struct IsFiniteOp : UnaryTraits<Domain::Any, true>
{
    template<class C> bool operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return std::isfinite(x);
        else
            return true;
    }
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
    template<class C> C operator()(C x) const
    {
        if constexpr (std::is_integral_v<C>)
            return C(std::llrint(std::pow(double(x), double(C(y)))));
        else
            return std::pow(x, C(y));
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
    template<class C> C operator()(C x) const
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
    template<class C> C operator()(C x) const { return x < C(lo) ? C(lo) : (x > C(hi) ? C(hi) : x); }
};

template<class Op> Op makeOp(const KernelContext &ctx)
{
    if constexpr (std::is_constructible_v<Op, const KernelContext &>)
        return Op(ctx);
    else
        return Op {};
}

template<class Op> void unaryKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const std::string name = shortName(ctx);
    const Op op = makeOp<Op>(ctx);
    Tensor out = resultTensor(ctx, x.shape(), Op::kBoolResult ? DataType::Bool : x.dtype());
    dispatchDtype(x.dtype(), name.c_str(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!kAccepts<Op::kDomain, T>)
            throw RuntimeError(name + ": " + x.describe() + " is not supported"
                + (Op::kDomain == Domain::Floating ? " (floating-point tensors only)" : ""));
        else if constexpr (Op::kBoolResult)
            mapUnary<T, bool>(x, out, op);
        else
            mapUnary<T, T>(x, out, op);
    });
    ctx.setOutput(0, out);
}

/// A floating value converted to an integer type as x86 does for static_cast: truncation toward
/// zero through a 32-bit (64-bit for int64) conversion whose NaN/out-of-range result is that
/// width's minimum, then wrapped to the target width. Matches Paddle's cast on x86 CPUs.
template<class To> To floatToInteger(double v)
{
    if constexpr (sizeof(To) == 8) {
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
            return To(std::numeric_limits<int64_t>::min());
        return To(int64_t(v));
    } else {
        const int32_t w
            = (v >= -2147483648.0 && v < 2147483648.0) ? int32_t(v) : std::numeric_limits<int32_t>::min();
        return To(w);
    }
}

template<class To, class From> To castElement(From v)
{
    if constexpr (kIsFloating<From> && kIsInteger<To>)
        return floatToInteger<To>(convertElement<double>(v));
    else if constexpr (std::is_same_v<From, bool>)
        return convertElement<To>(int(v));
    else
        return convertElement<To>(v);
}

/// cast and cast_ (cast_ writes into x when the dtype does not change, else makes a new tensor).
void castKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const DataType to = ctx.dtypeAttr("dtype");
    Tensor out = (isInplaceOp(ctx) && to == x.dtype()) ? x : ctx.allocate(x.shape(), to);
    dispatchDtype(x.dtype(), "cast", [&](auto fromTag) {
        using From = decltype(fromTag);
        dispatchDtype(to, "cast", [&](auto toTag) {
            using To = decltype(toTag);
            const From *px = x.data<From>();
            To *po = out.data<To>();
            const int64_t n = x.numElements();
            for (int64_t i = 0; i < n; ++i)
                po[i] = castElement<To>(px[i]);
        });
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerUnaryKernels(KernelRegistry &registry)
{
    const auto add = [&registry](const char *name, KernelFn fn, bool inplace) {
        registry.add(std::string("pd_op.") + name, fn);
        if (inplace)
            registry.add(std::string("pd_op.") + name + "_", fn);
    };
    add("relu", &unaryKernel<ReluOp>, true);
    add("relu6", &unaryKernel<Relu6Op>, false);
    add("gelu", &unaryKernel<GeluOp>, false);
    add("tanh", &unaryKernel<TanhOp>, true);
    add("sigmoid", &unaryKernel<SigmoidOp>, true);
    add("silu", &unaryKernel<SiluOp>, false);
    add("swish", &unaryKernel<SiluOp>, false);
    add("hardswish", &unaryKernel<HardswishOp>, false);
    add("hardsigmoid", &unaryKernel<HardsigmoidOp>, false);
    add("leaky_relu", &unaryKernel<LeakyReluOp>, true);
    add("elu", &unaryKernel<EluOp>, true);
    add("exp", &unaryKernel<ExpOp>, true);
    add("expm1", &unaryKernel<Expm1Op>, true);
    add("log", &unaryKernel<LogOp>, true);
    add("log2", &unaryKernel<Log2Op>, true);
    add("log10", &unaryKernel<Log10Op>, true);
    add("log1p", &unaryKernel<Log1pOp>, true);
    add("sqrt", &unaryKernel<SqrtOp>, true);
    add("rsqrt", &unaryKernel<RsqrtOp>, true);
    add("sin", &unaryKernel<SinOp>, true);
    add("cos", &unaryKernel<CosOp>, true);
    add("tan", &unaryKernel<TanOp>, true);
    add("asin", &unaryKernel<AsinOp>, true);
    add("acos", &unaryKernel<AcosOp>, true);
    add("atan", &unaryKernel<AtanOp>, true);
    add("sinh", &unaryKernel<SinhOp>, true);
    add("cosh", &unaryKernel<CoshOp>, true);
    add("floor", &unaryKernel<FloorOp>, true);
    add("ceil", &unaryKernel<CeilOp>, true);
    add("trunc", &unaryKernel<TruncOp>, true);
    add("round", &unaryKernel<RoundOp>, true);
    add("reciprocal", &unaryKernel<ReciprocalOp>, true);
    add("erf", &unaryKernel<ErfOp>, true);
    add("abs", &unaryKernel<AbsOp>, true);
    add("sign", &unaryKernel<SignOp>, false);
    add("square", &unaryKernel<SquareOp>, true);
    add("logical_not", &unaryKernel<LogicalNotOp>, false);
    add("isnan", &unaryKernel<IsNanOp>, false);
    add("isinf", &unaryKernel<IsInfOp>, false);
    add("isfinite", &unaryKernel<IsFiniteOp>, false);
    add("pow", &unaryKernel<PowScalarOp>, true);
    add("scale", &unaryKernel<ScaleOp>, true);
    add("clip", &unaryKernel<ClipOp>, true);
    add("cast", &castKernel, true);
}

} // namespace ps::cpuew
