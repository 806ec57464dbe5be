// The activation `*_grad` ops: one device rule per op, evaluated in double on (x | out,
// out_grad) as in the CPU oracle (cpugradactivationkernels.cpp, Paddle's grad functors).

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudakernelutil.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelregistry.h"

namespace ps {
namespace {

using namespace cuda;

void requireFloating(const Tensor &t, std::string_view what)
{
    if (!isFloatingType(t.dtype()))
        throw RuntimeError(std::string(what) + " expects a floating-point tensor, got " + t.describe());
}

/// Operands of a unary activation grad (Paddle's backward YAML).
enum class Layout { Grad, OutGrad, XGrad, XOutGrad };

/// One rule: `v` is x or out (per layout), `o` out (XOutGrad), `g` the output gradient.
enum class Rule {
    Zero,
    Relu,
    Relu6,
    Tanh,
    Sigmoid,
    Exp,
    Expm1,
    Sqrt,
    Rsqrt,
    Reciprocal,
    Hardsigmoid,
    Gelu,
    Swish,
    Hardswish,
    Sin,
    Cos,
    Tan,
    Atan,
    Log,
    Log2,
    Log10,
    Log1p,
    Square,
    Abs,
    Erf,
    Softplus,
    LeakyRelu,
    Pow,
    Celu,
    Softsign,
    Logsigmoid,
    Clip,
    Elu
};

struct RuleArgs
{
    Rule rule;
    double a = 0, b = 0;
};

__device__ __forceinline__ double sigmoidOf(double x)
{
    return 1.0 / (1.0 + ::exp(-x));
}

__device__ double applyRule(const RuleArgs &r, double v, double o, double g)
{
    constexpr double kPi = 3.14159265358979323846, kSqrt2 = 1.41421356237309504880;
    constexpr double kLn2 = 0.69314718055994530942, kLn10 = 2.30258509299404568402;
    switch (r.rule) {
    case Rule::Zero:
        return 0.0;
    case Rule::Relu:
        return v > 0.0 ? g : 0.0;
    case Rule::Relu6:
        return v > 0.0 && v < 6.0 ? g : 0.0;
    case Rule::Tanh:
        return g * (1.0 - v * v);
    case Rule::Sigmoid:
        return g * v * (1.0 - v);
    case Rule::Exp:
        return g * v;
    case Rule::Expm1:
        return g * (v + 1.0);
    case Rule::Sqrt:
        return 0.5 * g / v;
    case Rule::Rsqrt:
        return -0.5 * g * v * v * v;
    case Rule::Reciprocal:
        return -g * v * v;
    case Rule::Hardsigmoid:
        return v > 0.0 && v < 1.0 ? g * r.a : 0.0;
    case Rule::Gelu:
        if (r.a != 0.0) {
            const double k = ::sqrt(2.0 / kPi);
            const double t = ::tanh(k * (v + 0.044715 * v * v * v));
            return g * (0.5 * (1.0 + t) + 0.5 * v * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * v * v));
        }
        return g * (0.5 * (1.0 + ::erf(v / kSqrt2)) + v * ::exp(-0.5 * v * v) / ::sqrt(2.0 * kPi));
    case Rule::Swish: {
        const double s = sigmoidOf(v);
        return g * s * (1.0 + v * (1.0 - s));
    }
    case Rule::Hardswish:
        if (v + 3.0 >= 6.0)
            return g;
        return v + 3.0 > 0.0 ? g * (2.0 * v + 3.0) / 6.0 : 0.0;
    case Rule::Sin:
        return g * ::cos(v);
    case Rule::Cos:
        return -g * ::sin(v);
    case Rule::Tan: {
        const double c = ::cos(v);
        return g / (c * c);
    }
    case Rule::Atan:
        return g / (1.0 + v * v);
    case Rule::Log:
        return g / v;
    case Rule::Log2:
        return g / (v * kLn2);
    case Rule::Log10:
        return g / (v * kLn10);
    case Rule::Log1p:
        return g / (1.0 + v);
    case Rule::Square:
        return 2.0 * v * g;
    case Rule::Abs:
        return v > 0.0 ? g : (v < 0.0 ? -g : 0.0);
    case Rule::Erf:
        return g * 2.0 / ::sqrt(kPi) * ::exp(-v * v);
    case Rule::Softplus:
        return v * r.a > r.b ? g : g * sigmoidOf(r.a * v);
    case Rule::LeakyRelu:
        return v >= 0.0 ? g : r.a * g;
    case Rule::Pow:
        return g * r.a * ::pow(v, r.a - 1.0);
    case Rule::Celu:
        return v > 0.0 ? g : g * ::exp(v / r.a);
    case Rule::Softsign: {
        const double d = 1.0 + ::fabs(v);
        return g / (d * d);
    }
    case Rule::Logsigmoid:
        return g * sigmoidOf(-v);
    case Rule::Clip:
        return v >= r.a && v <= r.b ? g : 0.0;
    case Rule::Elu:
        if (v > 0.0)
            return g;
        return r.a >= 0.0 ? g * (o + r.a) : g * r.a * ::exp(v);
    }
    return 0.0;
}

template<class T>
void runRule(const CudaRuntime &rt, RuleArgs r, const Tensor *v, const Tensor *o, const Tensor &g, Tensor &dx)
{
    const T *pv = v ? static_cast<const T *>(v->rawData()) : nullptr;
    const T *po = o ? static_cast<const T *>(o->rawData()) : nullptr;
    const T *pg = static_cast<const T *>(g.rawData());
    T *pd = static_cast<T *>(dx.rawData());
    launchFlat(
        rt, g.numElements(),
        [=] __device__(int64_t i) {
            pd[i] = store<T>(applyRule(
                r, pv ? double(load(pv[i])) : 0.0, po ? double(load(po[i])) : 0.0, double(load(pg[i]))));
        },
        "activation grad");
}

RuleArgs ruleArgs(const KernelContext &ctx, Rule rule)
{
    RuleArgs r { rule };
    switch (rule) {
    case Rule::Hardsigmoid:
        r.a = ctx.floatAttr("slope", 0.2);
        r.b = ctx.floatAttr("offset", 0.5);
        break;
    case Rule::Gelu:
        r.a = ctx.boolAttr("approximate", false) ? 1.0 : 0.0;
        break;
    case Rule::Softplus:
        r.a = ctx.floatAttr("beta", 1.0);
        r.b = ctx.floatAttr("threshold", 20.0);
        break;
    case Rule::LeakyRelu:
        r.a = ctx.floatAttr("negative_slope", ctx.floatAttr("alpha", 0.02));
        break;
    case Rule::Pow:
        r.a = ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("y", 1.0);
        break;
    case Rule::Celu:
    case Rule::Elu:
        r.a = ctx.floatAttr("alpha", 1.0);
        break;
    case Rule::Clip:
        r.a = ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("min");
        r.b = ctx.hasInput(3) ? ctx.inputAsScalar(3) : ctx.floatAttr("max");
        break;
    default:
        break;
    }
    return r;
}

template<Layout L, Rule R> void activationGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    Layout layout = L;
    if (R == Rule::Swish && ctx.opName() == "pd_op.silu_grad" && ctx.numInputs() >= 3)
        layout = Layout::XOutGrad; // silu_grad is (x, out, out_grad) in Paddle 3.x
    const size_t gradIndex = layout == Layout::Grad ? 0 : (layout == Layout::XOutGrad ? 2 : 1);
    const Tensor g = deviceInput(ctx, gradIndex);
    requireFloating(g, ctx.opName());
    Tensor v, o;
    if (layout != Layout::Grad) {
        v = cast(rt, deviceInput(ctx, 0), g.dtype());
        if (v.numElements() != g.numElements())
            throw RuntimeError("operand 0 " + v.describe() + " does not match out_grad " + g.describe());
    }
    if (layout == Layout::XOutGrad) {
        o = cast(rt, deviceInput(ctx, 1), g.dtype());
        if (o.numElements() != g.numElements())
            throw RuntimeError("out " + o.describe() + " does not match out_grad " + g.describe());
    }
    const RuleArgs args = ruleArgs(ctx, R);
    Tensor dx = ctx.allocate(g.shape(), g.dtype());
    dispatchFloating(g.dtype(), "activation grad", [&](auto tag) {
        runRule<decltype(tag)>(rt, args, v.defined() ? &v : nullptr, o.defined() ? &o : nullptr, g, dx);
    });
    ctx.setOutput(0, dx);
}

} // namespace

void registerCudaActivationGradKernels(KernelRegistry &registry)
{
    using L = Layout;
    for (const char *name : { "pd_op.floor_grad", "pd_op.ceil_grad", "pd_op.round_grad", "pd_op.trunc_grad" })
        registry.add(name, &activationGrad<L::Grad, Rule::Zero>);
    registry.add("pd_op.relu_grad", &activationGrad<L::OutGrad, Rule::Relu>);
    registry.add("pd_op.relu6_grad", &activationGrad<L::OutGrad, Rule::Relu6>);
    registry.add("pd_op.tanh_grad", &activationGrad<L::OutGrad, Rule::Tanh>);
    registry.add("pd_op.sigmoid_grad", &activationGrad<L::OutGrad, Rule::Sigmoid>);
    registry.add("pd_op.exp_grad", &activationGrad<L::OutGrad, Rule::Exp>);
    registry.add("pd_op.expm1_grad", &activationGrad<L::OutGrad, Rule::Expm1>);
    registry.add("pd_op.sqrt_grad", &activationGrad<L::OutGrad, Rule::Sqrt>);
    registry.add("pd_op.rsqrt_grad", &activationGrad<L::OutGrad, Rule::Rsqrt>);
    registry.add("pd_op.reciprocal_grad", &activationGrad<L::OutGrad, Rule::Reciprocal>);
    registry.add("pd_op.hardsigmoid_grad", &activationGrad<L::OutGrad, Rule::Hardsigmoid>);
    registry.add("pd_op.gelu_grad", &activationGrad<L::XGrad, Rule::Gelu>);
    registry.add("pd_op.swish_grad", &activationGrad<L::XGrad, Rule::Swish>);
    registry.add("pd_op.silu_grad", &activationGrad<L::XGrad, Rule::Swish>);
    registry.add("pd_op.hardswish_grad", &activationGrad<L::XGrad, Rule::Hardswish>);
    registry.add("pd_op.sin_grad", &activationGrad<L::XGrad, Rule::Sin>);
    registry.add("pd_op.cos_grad", &activationGrad<L::XGrad, Rule::Cos>);
    registry.add("pd_op.tan_grad", &activationGrad<L::XGrad, Rule::Tan>);
    registry.add("pd_op.atan_grad", &activationGrad<L::XGrad, Rule::Atan>);
    registry.add("pd_op.log_grad", &activationGrad<L::XGrad, Rule::Log>);
    registry.add("pd_op.log2_grad", &activationGrad<L::XGrad, Rule::Log2>);
    registry.add("pd_op.log10_grad", &activationGrad<L::XGrad, Rule::Log10>);
    registry.add("pd_op.log1p_grad", &activationGrad<L::XGrad, Rule::Log1p>);
    registry.add("pd_op.square_grad", &activationGrad<L::XGrad, Rule::Square>);
    registry.add("pd_op.abs_grad", &activationGrad<L::XGrad, Rule::Abs>);
    registry.add("pd_op.erf_grad", &activationGrad<L::XGrad, Rule::Erf>);
    registry.add("pd_op.softplus_grad", &activationGrad<L::XGrad, Rule::Softplus>);
    registry.add("pd_op.leaky_relu_grad", &activationGrad<L::XGrad, Rule::LeakyRelu>);
    registry.add("pd_op.pow_grad", &activationGrad<L::XGrad, Rule::Pow>);
    registry.add("pd_op.celu_grad", &activationGrad<L::XGrad, Rule::Celu>);
    registry.add("pd_op.softsign_grad", &activationGrad<L::XGrad, Rule::Softsign>);
    registry.add("pd_op.logsigmoid_grad", &activationGrad<L::XGrad, Rule::Logsigmoid>);
    registry.add("pd_op.clip_grad", &activationGrad<L::XGrad, Rule::Clip>);
    registry.add("pd_op.elu_grad", &activationGrad<L::XOutGrad, Rule::Elu>);
}

} // namespace ps
