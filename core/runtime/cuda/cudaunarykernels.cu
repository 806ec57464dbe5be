// Unary elementwise ops: activations, math functions, predicates, the unary ops with scalar
// arguments (pow, scale, clip) and cast. Formulas, dtype domains and the inplace convention
// follow core/runtime/cpu/cpuelementwiseunary.cpp; float16/bfloat16 compute in float.

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudakernelutil.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudamath.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelregistry.h"

namespace ps {
namespace {

using namespace cuda;

enum class Domain { Floating, Numeric, Any };

template<Domain D, class T>
inline constexpr bool kAccepts
    = D == Domain::Any || (D == Domain::Numeric && !std::is_same_v<T, bool>) || kIsFloating<T>;

template<Domain D = Domain::Floating, bool B = false> struct UnaryTraits
{
    static constexpr Domain kDomain = D;
    static constexpr bool kBoolResult = B;
};

struct ReluOp : UnaryTraits<>
{
    template<class C> __device__ C operator()(C x) const { return x > C(0) ? x : C(0); }
};
struct Relu6Op : UnaryTraits<>
{
    template<class C> __device__ C operator()(C x) const { return x > C(0) ? (x < C(6) ? x : C(6)) : C(0); }
};
struct GeluOp : UnaryTraits<>
{
    bool approximate;
    explicit GeluOp(const KernelContext &ctx)
        : approximate(ctx.boolAttr("approximate", false))
    {
    }
    template<class C> __device__ C operator()(C x) const
    {
        if (approximate) {
            const C k = C(0.79788456080286535587989211986876); // sqrt(2 / pi)
            return C(0.5) * x * (C(1) + dm::tanh(k * (x + C(0.044715) * x * x * x)));
        }
        return C(0.5) * x * (C(1) + dm::erf(x * C(0.70710678118654752440084436210485)));
    }
};
struct TanhOp : UnaryTraits<>
{
    template<class C> __device__ C operator()(C x) const { return dm::tanh(x); }
};
struct SigmoidOp : UnaryTraits<>
{
    template<class C> __device__ C operator()(C x) const { return C(1) / (C(1) + dm::exp(-x)); }
};
struct SiluOp : UnaryTraits<>
{
    template<class C> __device__ C operator()(C x) const { return x / (C(1) + dm::exp(-x)); }
};
struct HardswishOp : UnaryTraits<>
{
    template<class C> __device__ C operator()(C x) const
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
    template<class C> __device__ C operator()(C x) const
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
    template<class C> __device__ C operator()(C x) const { return x > C(0) ? x : C(slope) * x; }
};
struct EluOp : UnaryTraits<>
{
    double alpha;
    explicit EluOp(const KernelContext &ctx)
        : alpha(ctx.floatAttr("alpha", 1.0))
    {
    }
    template<class C> __device__ C operator()(C x) const
    {
        return x > C(0) ? x : C(alpha) * (dm::exp(x) - C(1));
    }
};

#define PS_FLOAT_UNARY(Name, expr)                                                                           \
    struct Name : UnaryTraits<>                                                                              \
    {                                                                                                        \
        template<class C> __device__ C operator()(C x) const { return expr; }                                \
    };
PS_FLOAT_UNARY(ExpOp, dm::exp(x))
PS_FLOAT_UNARY(Expm1Op, dm::expm1(x))
PS_FLOAT_UNARY(LogOp, dm::log(x))
PS_FLOAT_UNARY(Log2Op, dm::log2(x))
PS_FLOAT_UNARY(Log10Op, dm::log10(x))
PS_FLOAT_UNARY(Log1pOp, dm::log1p(x))
PS_FLOAT_UNARY(SqrtOp, dm::sqrt(x))
PS_FLOAT_UNARY(RsqrtOp, C(1) / dm::sqrt(x))
PS_FLOAT_UNARY(SinOp, dm::sin(x))
PS_FLOAT_UNARY(CosOp, dm::cos(x))
PS_FLOAT_UNARY(TanOp, dm::tan(x))
PS_FLOAT_UNARY(AsinOp, dm::asin(x))
PS_FLOAT_UNARY(AcosOp, dm::acos(x))
PS_FLOAT_UNARY(AtanOp, dm::atan(x))
PS_FLOAT_UNARY(SinhOp, dm::sinh(x))
PS_FLOAT_UNARY(CoshOp, dm::cosh(x))
PS_FLOAT_UNARY(FloorOp, dm::floor(x))
PS_FLOAT_UNARY(CeilOp, dm::ceil(x))
PS_FLOAT_UNARY(TruncOp, dm::trunc(x))
PS_FLOAT_UNARY(ReciprocalOp, C(1) / x)
PS_FLOAT_UNARY(ErfOp, dm::erf(x))
#undef PS_FLOAT_UNARY

/// Half to even, after scaling by 10^decimals.
struct RoundOp : UnaryTraits<>
{
    int64_t decimals;
    double scale;
    explicit RoundOp(const KernelContext &ctx)
        : decimals(ctx.intAttr("decimals", 0))
        , scale(std::pow(10.0, double(decimals)))
    {
    }
    template<class C> __device__ C operator()(C x) const
    {
        if (decimals == 0)
            return dm::nearbyint(x);
        return dm::nearbyint(x * C(scale)) / C(scale);
    }
};

struct AbsOp : UnaryTraits<Domain::Numeric>
{
    template<class C> __device__ C operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return dm::fabs(x);
        else
            return isNegative(x) ? C(-x) : x;
    }
};
struct SignOp : UnaryTraits<Domain::Numeric>
{
    template<class C> __device__ C operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            if (x != x)
                return x;
        return x > C(0) ? C(1) : (isNegative(x) ? C(-1) : C(0));
    }
};
struct SquareOp : UnaryTraits<Domain::Numeric>
{
    template<class C> __device__ C operator()(C x) const { return C(x * x); }
};
struct LogicalNotOp : UnaryTraits<Domain::Any, true>
{
    template<class C> __device__ bool operator()(C x) const { return x == C(0); }
};
struct IsNanOp : UnaryTraits<Domain::Any, true>
{
    template<class C> __device__ bool operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return isnan(x);
        else
            return false;
    }
};
struct IsInfOp : UnaryTraits<Domain::Any, true>
{
    template<class C> __device__ bool operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return isinf(x);
        else
            return false;
    }
};
struct IsFiniteOp : UnaryTraits<Domain::Any, true>
{
    template<class C> __device__ bool operator()(C x) const
    {
        if constexpr (std::is_floating_point_v<C>)
            return isfinite(x);
        else
            return true;
    }
};

/// x^y for attribute (or operand) y; integers: llrint(pow(double, double)) with y truncated.
struct PowScalarOp : UnaryTraits<Domain::Numeric>
{
    double y;
    explicit PowScalarOp(const KernelContext &ctx)
        : y(scalarOperandOrAttr(ctx, 1, "y", 1.0))
    {
    }
    template<class C> __device__ C operator()(C x) const
    {
        if constexpr (std::is_integral_v<C>)
            return C(llrint(::pow(double(x), double(C(y)))));
        else
            return dm::pow(x, C(y));
    }
};

/// bias_after_scale ? scale*x + bias : scale*(x + bias); integers truncate scale and bias first.
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
    template<class C> __device__ C operator()(C x) const
    {
        const C s = C(scale), b = C(bias);
        return C(biasAfterScale ? s * x + b : s * (x + b));
    }
};

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
    template<class C> __device__ C operator()(C x) const
    {
        return x < C(lo) ? C(lo) : (x > C(hi) ? C(hi) : x);
    }
};

template<class Op> Op makeOp(const KernelContext &ctx)
{
    if constexpr (std::is_constructible_v<Op, const KernelContext &>)
        return Op(ctx);
    else
        return Op {};
}

template<class T, class R, class Op>
void runUnary(const CudaRuntime &rt, const Op op, const Tensor &x, Tensor &out)
{
    const T *px = static_cast<const T *>(x.rawData());
    R *po = static_cast<R *>(out.rawData());
    launchFlat(
        rt, x.numElements(), [=] __device__(int64_t i) { po[i] = store<R>(op(load(px[i]))); }, "unary");
}

template<class Op> void unaryKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const std::string name = shortName(ctx);
    const Op op = makeOp<Op>(ctx);
    Tensor out = resultTensor(ctx, x, x.shape(), Op::kBoolResult ? DataType::Bool : x.dtype());
    dispatchAll(x.dtype(), name.c_str(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!kAccepts<Op::kDomain, T>)
            throw RuntimeError(name + ": " + x.describe() + " is not supported"
                + (Op::kDomain == Domain::Floating ? " (floating-point tensors only)" : ""));
        else if constexpr (Op::kBoolResult)
            runUnary<T, bool>(rt, op, x, out);
        else
            runUnary<T, T>(rt, op, x, out);
    });
    ctx.setOutput(0, out);
}

/// Float to integer as x86's static_cast does it (the CPU oracle): truncation through a 32-bit
/// (64-bit for int64) conversion whose NaN/out-of-range result is that width's minimum, then
/// wrapped to the target width. The device's own conversion saturates instead.
template<class To> __device__ __forceinline__ To floatToInteger(double v)
{
    if constexpr (sizeof(To) == 8) {
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
            return To(int64_t(1) << 63);
        return To(int64_t(v));
    } else {
        const int32_t w = (v >= -2147483648.0 && v < 2147483648.0) ? int32_t(v) : int32_t(0x80000000u);
        return To(w);
    }
}

template<class To, class From> __device__ __forceinline__ To castElement(From v)
{
    if constexpr (kIsFloating<From> && std::is_integral_v<To> && !std::is_same_v<To, bool>)
        return floatToInteger<To>(convert<double>(v));
    else if constexpr (std::is_same_v<From, bool>)
        return convert<To>(int(v));
    else
        return convert<To>(v);
}

template<class From, class To> void runCast(const CudaRuntime &rt, const Tensor &x, Tensor &out)
{
    const From *px = static_cast<const From *>(x.rawData());
    To *po = static_cast<To *>(out.rawData());
    launchFlat(
        rt, x.numElements(), [=] __device__(int64_t i) { po[i] = castElement<To>(px[i]); }, "cast");
}

void castTyped(const CudaRuntime &rt, const Tensor &x, Tensor &out)
{
    dispatchAll(x.dtype(), "cast", [&](auto fromTag) {
        dispatchAll(out.dtype(), "cast",
            [&](auto toTag) { runCast<decltype(fromTag), decltype(toTag)>(rt, x, out); });
    });
}

/// cast and cast_ (cast_ writes into x when the dtype does not change).
void castKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const DataType to = ctx.dtypeAttr("dtype");
    if (to == x.dtype()) {
        if (isInplaceOp(ctx)) {
            ctx.setOutput(0, x);
            return;
        }
        ctx.setOutput(0, cuda::copy(rt, x));
        return;
    }
    Tensor out = ctx.allocate(x.shape(), to);
    castTyped(rt, x, out);
    ctx.setOutput(0, out);
}

} // namespace

namespace cuda {

Tensor cast(CudaRuntime &rt, const Tensor &x, DataType dtype)
{
    if (x.dtype() == dtype)
        return x;
    Tensor out = rt.allocate(x.shape(), dtype);
    castTyped(rt, x, out);
    return out;
}

void castInto(CudaRuntime &rt, const Tensor &x, Tensor &out)
{
    if (x.numElements() != out.numElements())
        throw RuntimeError("cast: " + x.describe() + " into " + out.describe());
    if (x.dtype() == out.dtype()) {
        if (x.rawData() != out.rawData() && x.byteSize() > 0)
            checkCuda(cudaMemcpyAsync(
                          out.rawData(), x.rawData(), x.byteSize(), cudaMemcpyDeviceToDevice, rt.stream),
                "cast copy");
        return;
    }
    castTyped(rt, x, out);
}

Tensor copy(CudaRuntime &rt, const Tensor &x)
{
    Tensor out = rt.allocate(x.shape(), x.dtype());
    if (x.byteSize() > 0)
        checkCuda(
            cudaMemcpyAsync(out.rawData(), x.rawData(), x.byteSize(), cudaMemcpyDeviceToDevice, rt.stream),
            "copy");
    return out;
}

} // namespace cuda

void registerCudaUnaryKernels(KernelRegistry &registry)
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

} // namespace ps
