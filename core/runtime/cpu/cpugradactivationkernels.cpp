#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ps {
namespace {

using namespace cpugrad;

/// Operands of a unary activation grad, as in Paddle's backward YAML.
enum class Layout {
    Grad, ///< (out_grad)
    OutGrad, ///< (out, out_grad)
    XGrad, ///< (x, out_grad)
    XOutGrad, ///< (x, out, out_grad)
};

struct Attrs
{
    double a = 0.0, b = 0.0;
};

/// `v` is x or out (per layout), `o` is out for XOutGrad, `g` the output gradient.
using ElemFn = double (*)(double v, double o, double g, const Attrs &);
using AttrFn = Attrs (*)(const KernelContext &);

Attrs noAttrs(const KernelContext &)
{
    return {};
}

template<Layout L, ElemFn F, AttrFn A = noAttrs> void unaryGrad(KernelContext &ctx)
{
    const size_t gradIndex = L == Layout::Grad ? 0 : (L == Layout::XOutGrad ? 2 : 1);
    const Tensor &g = ctx.input(gradIndex);
    requireFloating(g, ctx.opName());
    const std::vector<double> gv = values(g);
    std::vector<double> vv, ov;
    if constexpr (L != Layout::Grad) {
        const Tensor &v = ctx.input(0);
        if (v.numElements() != g.numElements())
            throw RuntimeError("operand 0 " + v.describe() + " does not match out_grad " + g.describe());
        vv = values(v);
    }
    if constexpr (L == Layout::XOutGrad) {
        const Tensor &o = ctx.input(1);
        if (o.numElements() != g.numElements())
            throw RuntimeError("out " + o.describe() + " does not match out_grad " + g.describe());
        ov = values(o);
    }
    const Attrs attrs = A(ctx);
    std::vector<double> dx(gv.size());
    for (size_t i = 0; i < gv.size(); ++i)
        dx[i] = F(vv.empty() ? 0.0 : vv[i], ov.empty() ? 0.0 : ov[i], gv[i], attrs);
    ctx.setOutput(0, makeTensor(ctx, g.shape(), g.dtype(), dx));
}

double sigmoid(double x)
{
    return 1.0 / (1.0 + std::exp(-x));
}

// Element rules; Paddle's activation grad functors, boundaries included.
double zeroG(double, double, double, const Attrs &)
{
    return 0.0;
}
double reluG(double out, double, double g, const Attrs &)
{
    return out > 0.0 ? g : 0.0;
}
double relu6G(double out, double, double g, const Attrs &)
{
    return out > 0.0 && out < 6.0 ? g : 0.0;
}
double tanhG(double out, double, double g, const Attrs &)
{
    return g * (1.0 - out * out);
}
double sigmoidG(double out, double, double g, const Attrs &)
{
    return g * out * (1.0 - out);
}
double expG(double out, double, double g, const Attrs &)
{
    return g * out;
}
double expm1G(double out, double, double g, const Attrs &)
{
    return g * (out + 1.0);
}
double sqrtG(double out, double, double g, const Attrs &)
{
    return 0.5 * g / out;
}
double rsqrtG(double out, double, double g, const Attrs &)
{
    return -0.5 * g * out * out * out;
}
double reciprocalG(double out, double, double g, const Attrs &)
{
    return -g * out * out;
}
double hardsigmoidG(double out, double, double g, const Attrs &a)
{
    return out > 0.0 && out < 1.0 ? g * a.a : 0.0;
}
double seluG(double out, double, double g, const Attrs &a)
{
    return out > 0.0 ? g * a.a : g * (out + a.a * a.b);
}
double geluG(double x, double, double g, const Attrs &a)
{
    if (a.a != 0.0) {
        const double k = std::sqrt(2.0 / std::numbers::pi);
        const double t = std::tanh(k * (x + 0.044715 * x * x * x));
        return g * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * x * x));
    }
    return g
        * (0.5 * (1.0 + std::erf(x / std::numbers::sqrt2))
            + x * std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi));
}
double swishG(double x, double, double g, const Attrs &)
{
    const double s = sigmoid(x);
    return g * s * (1.0 + x * (1.0 - s));
}
double hardswishG(double x, double, double g, const Attrs &)
{
    if (x + 3.0 >= 6.0)
        return g;
    return x + 3.0 > 0.0 ? g * (2.0 * x + 3.0) / 6.0 : 0.0;
}
double sinG(double x, double, double g, const Attrs &)
{
    return g * std::cos(x);
}
double cosG(double x, double, double g, const Attrs &)
{
    return -g * std::sin(x);
}
double tanG(double x, double, double g, const Attrs &)
{
    const double c = std::cos(x);
    return g / (c * c);
}
double asinG(double x, double, double g, const Attrs &)
{
    return g / std::sqrt(1.0 - x * x);
}
double acosG(double x, double, double g, const Attrs &)
{
    return -g / std::sqrt(1.0 - x * x);
}
double atanG(double x, double, double g, const Attrs &)
{
    return g / (1.0 + x * x);
}
double sinhG(double x, double, double g, const Attrs &)
{
    return g * std::cosh(x);
}
double coshG(double x, double, double g, const Attrs &)
{
    return g * std::sinh(x);
}
double asinhG(double x, double, double g, const Attrs &)
{
    return g / std::sqrt(x * x + 1.0);
}
double acoshG(double x, double, double g, const Attrs &)
{
    return g / std::sqrt(x * x - 1.0);
}
double atanhG(double x, double, double g, const Attrs &)
{
    return g / (1.0 - x * x);
}
double logG(double x, double, double g, const Attrs &)
{
    return g / x;
}
double log2G(double x, double, double g, const Attrs &)
{
    return g / (x * std::numbers::ln2);
}
double log10G(double x, double, double g, const Attrs &)
{
    return g / (x * std::numbers::ln10);
}
double log1pG(double x, double, double g, const Attrs &)
{
    return g / (1.0 + x);
}
double squareG(double x, double, double g, const Attrs &)
{
    return 2.0 * x * g;
}
double absG(double x, double, double g, const Attrs &)
{
    return x > 0.0 ? g : (x < 0.0 ? -g : 0.0);
}
double erfG(double x, double, double g, const Attrs &)
{
    return g * 2.0 / std::sqrt(std::numbers::pi) * std::exp(-x * x);
}
double softplusG(double x, double, double g, const Attrs &a)
{
    return x * a.a > a.b ? g : g * sigmoid(a.a * x);
}
double leakyReluG(double x, double, double g, const Attrs &a)
{
    return x >= 0.0 ? g : a.a * g;
}
double powG(double x, double, double g, const Attrs &a)
{
    return g * a.a * std::pow(x, a.a - 1.0);
}
double celuG(double x, double, double g, const Attrs &a)
{
    return x > 0.0 ? g : g * std::exp(x / a.a);
}
double shrinkG(double x, double, double g, const Attrs &a)
{
    return x < -a.a || x > a.a ? g : 0.0;
}
double softsignG(double x, double, double g, const Attrs &)
{
    const double d = 1.0 + std::abs(x);
    return g / (d * d);
}
double tanhShrinkG(double x, double, double g, const Attrs &)
{
    const double t = std::tanh(x);
    return g * t * t;
}
double thresholdedReluG(double x, double, double g, const Attrs &a)
{
    return x > a.a ? g : 0.0;
}
double hardtanhG(double x, double, double g, const Attrs &a)
{
    return x > a.a && x < a.b ? g : 0.0;
}
double logsigmoidG(double x, double, double g, const Attrs &)
{
    return g * sigmoid(-x);
}
double mishG(double x, double, double g, const Attrs &a)
{
    const double sp = x > a.a ? x : std::log1p(std::exp(x));
    const double tsp = std::tanh(sp);
    const double gradSp = -std::expm1(-sp);
    return g * (x * (1.0 - tsp * tsp) * gradSp + tsp);
}
double stanhG(double x, double, double g, const Attrs &a)
{
    const double t = std::tanh(a.a * x);
    return g * a.a * a.b * (1.0 - t * t);
}
double logitG(double x, double, double g, const Attrs &a)
{
    return x < a.a || x > 1.0 - a.a ? 0.0 : g / (x * (1.0 - x));
}
double clipG(double x, double, double g, const Attrs &a)
{
    return x >= a.a && x <= a.b ? g : 0.0;
}
double siluG(double x, double, double g, const Attrs &)
{
    const double s = sigmoid(x);
    return g * s * (1.0 + x * (1.0 - s));
}
double eluG(double x, double out, double g, const Attrs &a)
{
    if (x > 0.0)
        return g;
    return a.a >= 0.0 ? g * (out + a.a) : g * a.a * std::exp(x);
}

Attrs geluAttrs(const KernelContext &ctx)
{
    return { ctx.boolAttr("approximate", false) ? 1.0 : 0.0, 0.0 };
}
Attrs softplusAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("beta", 1.0), ctx.floatAttr("threshold", 20.0) };
}
Attrs leakyReluAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("negative_slope", ctx.floatAttr("alpha", 0.02)), 0.0 };
}
/// pow's exponent: attribute `y`, or a tensor operand after out_grad.
Attrs powAttrs(const KernelContext &ctx)
{
    return { ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("y", 1.0), 0.0 };
}
Attrs alphaAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("alpha", 1.0), 0.0 };
}
Attrs thresholdAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("threshold", ctx.floatAttr("lambda", 0.5)), 0.0 };
}
Attrs thresholdedReluAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("threshold", 1.0), 0.0 };
}
Attrs hardtanhAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("t_min", 0.0), ctx.floatAttr("t_max", 24.0) };
}
Attrs mishAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("lambda", ctx.floatAttr("threshold", 20.0)), 0.0 };
}
Attrs stanhAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("scale_a", 0.67), ctx.floatAttr("scale_b", 1.7159) };
}
Attrs logitAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("eps", 0.0), 0.0 };
}
Attrs hardsigmoidAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("slope", 0.2), ctx.floatAttr("offset", 0.5) };
}
Attrs seluAttrs(const KernelContext &ctx)
{
    return { ctx.floatAttr("scale", 1.0507009873554805), ctx.floatAttr("alpha", 1.6732632423543772) };
}
/// clip_grad(x, out_grad, min, max): bounds are tensor operands (or attributes), inclusive.
Attrs clipAttrs(const KernelContext &ctx)
{
    return { ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("min"),
        ctx.hasInput(3) ? ctx.inputAsScalar(3) : ctx.floatAttr("max") };
}

/// silu_grad is (x, out, out_grad) in Paddle 3.x and (x, out_grad) before.
void siluGrad(KernelContext &ctx)
{
    if (ctx.numInputs() >= 3)
        unaryGrad<Layout::XOutGrad, siluG>(ctx);
    else
        unaryGrad<Layout::XGrad, siluG>(ctx);
}

} // namespace

void registerCpuGradActivationKernels(KernelRegistry &registry)
{
    using L = Layout;
    for (const char *name : { "pd_op.floor_grad", "pd_op.ceil_grad", "pd_op.round_grad", "pd_op.trunc_grad" })
        registry.add(name, unaryGrad<L::Grad, zeroG>);
    registry.add("pd_op.relu_grad", unaryGrad<L::OutGrad, reluG>);
    registry.add("pd_op.relu6_grad", unaryGrad<L::OutGrad, relu6G>);
    registry.add("pd_op.tanh_grad", unaryGrad<L::OutGrad, tanhG>);
    registry.add("pd_op.sigmoid_grad", unaryGrad<L::OutGrad, sigmoidG>);
    registry.add("pd_op.exp_grad", unaryGrad<L::OutGrad, expG>);
    registry.add("pd_op.expm1_grad", unaryGrad<L::OutGrad, expm1G>);
    registry.add("pd_op.sqrt_grad", unaryGrad<L::OutGrad, sqrtG>);
    registry.add("pd_op.rsqrt_grad", unaryGrad<L::OutGrad, rsqrtG>);
    registry.add("pd_op.reciprocal_grad", unaryGrad<L::OutGrad, reciprocalG>);
    registry.add("pd_op.hardsigmoid_grad", unaryGrad<L::OutGrad, hardsigmoidG, hardsigmoidAttrs>);
    registry.add("pd_op.selu_grad", unaryGrad<L::OutGrad, seluG, seluAttrs>);
    registry.add("pd_op.gelu_grad", unaryGrad<L::XGrad, geluG, geluAttrs>);
    registry.add("pd_op.swish_grad", unaryGrad<L::XGrad, swishG>);
    registry.add("pd_op.hardswish_grad", unaryGrad<L::XGrad, hardswishG>);
    registry.add("pd_op.sin_grad", unaryGrad<L::XGrad, sinG>);
    registry.add("pd_op.cos_grad", unaryGrad<L::XGrad, cosG>);
    registry.add("pd_op.tan_grad", unaryGrad<L::XGrad, tanG>);
    registry.add("pd_op.asin_grad", unaryGrad<L::XGrad, asinG>);
    registry.add("pd_op.acos_grad", unaryGrad<L::XGrad, acosG>);
    registry.add("pd_op.atan_grad", unaryGrad<L::XGrad, atanG>);
    registry.add("pd_op.sinh_grad", unaryGrad<L::XGrad, sinhG>);
    registry.add("pd_op.cosh_grad", unaryGrad<L::XGrad, coshG>);
    registry.add("pd_op.asinh_grad", unaryGrad<L::XGrad, asinhG>);
    registry.add("pd_op.acosh_grad", unaryGrad<L::XGrad, acoshG>);
    registry.add("pd_op.atanh_grad", unaryGrad<L::XGrad, atanhG>);
    registry.add("pd_op.log_grad", unaryGrad<L::XGrad, logG>);
    registry.add("pd_op.log2_grad", unaryGrad<L::XGrad, log2G>);
    registry.add("pd_op.log10_grad", unaryGrad<L::XGrad, log10G>);
    registry.add("pd_op.log1p_grad", unaryGrad<L::XGrad, log1pG>);
    registry.add("pd_op.square_grad", unaryGrad<L::XGrad, squareG>);
    registry.add("pd_op.abs_grad", unaryGrad<L::XGrad, absG>);
    registry.add("pd_op.erf_grad", unaryGrad<L::XGrad, erfG>);
    registry.add("pd_op.softplus_grad", unaryGrad<L::XGrad, softplusG, softplusAttrs>);
    registry.add("pd_op.leaky_relu_grad", unaryGrad<L::XGrad, leakyReluG, leakyReluAttrs>);
    registry.add("pd_op.pow_grad", unaryGrad<L::XGrad, powG, powAttrs>);
    registry.add("pd_op.celu_grad", unaryGrad<L::XGrad, celuG, alphaAttrs>);
    registry.add("pd_op.hardshrink_grad", unaryGrad<L::XGrad, shrinkG, thresholdAttrs>);
    registry.add("pd_op.softshrink_grad", unaryGrad<L::XGrad, shrinkG, thresholdAttrs>);
    registry.add("pd_op.softsign_grad", unaryGrad<L::XGrad, softsignG>);
    registry.add("pd_op.tanh_shrink_grad", unaryGrad<L::XGrad, tanhShrinkG>);
    registry.add("pd_op.thresholded_relu_grad", unaryGrad<L::XGrad, thresholdedReluG, thresholdedReluAttrs>);
    registry.add("pd_op.hardtanh_grad", unaryGrad<L::XGrad, hardtanhG, hardtanhAttrs>);
    registry.add("pd_op.logsigmoid_grad", unaryGrad<L::XGrad, logsigmoidG>);
    registry.add("pd_op.mish_grad", unaryGrad<L::XGrad, mishG, mishAttrs>);
    registry.add("pd_op.stanh_grad", unaryGrad<L::XGrad, stanhG, stanhAttrs>);
    registry.add("pd_op.logit_grad", unaryGrad<L::XGrad, logitG, logitAttrs>);
    registry.add("pd_op.clip_grad", unaryGrad<L::XGrad, clipG, clipAttrs>);
    registry.add("pd_op.silu_grad", siluGrad);
    registry.add("pd_op.elu_grad", unaryGrad<L::XOutGrad, eluG, alphaAttrs>);
}

} // namespace ps
