#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>

namespace ps {
namespace {

using namespace cpugrad;

/// A tensor with a channel axis viewed as [n, c, s] doubles (s: the product of the spatial dims);
/// a channels-last layout is reordered on the way in and out.
struct Ncs
{
    std::vector<double> v;
    int64_t n = 1, c = 1, s = 1;
    bool lastAxis = false; ///< the channels are the last dim
};

Ncs ncsOf(const Tensor &t, bool lastAxis, const char *what)
{
    if (t.rank() < 2)
        throw RuntimeError(std::string(what) + " needs a tensor of rank >= 2, got " + t.describe());
    Ncs r;
    r.lastAxis = lastAxis && t.rank() > 2;
    r.n = t.dim(0);
    r.c = r.lastAxis ? t.dim(t.rank() - 1) : t.dim(1);
    r.s = r.n * r.c == 0 ? 0 : t.numElements() / (r.n * r.c);
    r.v = values(t);
    if (r.lastAxis)
        r.v = channelsFirst(r.v, r.n, r.s, r.c);
    return r;
}

Tensor storeNcs(const KernelContext &ctx, const Tensor &like, const Ncs &r, const std::vector<double> &ncs)
{
    return makeTensor(ctx, like.shape(), like.dtype(), r.lastAxis ? channelsLast(ncs, r.n, r.c, r.s) : ncs);
}

/// Optional per-channel operand as doubles; `count` copies of `fill` when absent.
std::vector<double> optionalValues(const KernelContext &ctx, size_t i, int64_t count, double fill)
{
    if (!ctx.hasInput(i))
        return std::vector<double>(size_t(count), fill);
    std::vector<double> v = values(ctx.input(i));
    if (int64_t(v.size()) != count)
        throw RuntimeError("operand " + std::to_string(i) + " has " + std::to_string(v.size())
            + " elements, expected " + std::to_string(count));
    return v;
}

/// Stores the per-channel grads of `scale`/`bias` (results 1 and 2) typed like those operands
/// (or like x when they are absent).
void storeAffineGrads(KernelContext &ctx, size_t scaleOperand, size_t biasOperand, const Tensor &x,
    const std::vector<double> &dscale, const std::vector<double> &dbias)
{
    const int64_t count = int64_t(dscale.size());
    if (wanted(ctx, 1)) {
        const DataType d = ctx.hasInput(scaleOperand) ? ctx.input(scaleOperand).dtype() : x.dtype();
        const Shape s = ctx.hasInput(scaleOperand) ? ctx.input(scaleOperand).shape() : Shape { count };
        ctx.setOutput(1, makeTensor(ctx, s, d, dscale));
    }
    if (wanted(ctx, 2)) {
        const DataType d = ctx.hasInput(biasOperand) ? ctx.input(biasOperand).dtype() : x.dtype();
        const Shape s = ctx.hasInput(biasOperand) ? ctx.input(biasOperand).shape() : Shape { count };
        ctx.setOutput(2, makeTensor(ctx, s, d, dbias));
    }
}

/// layer_norm_grad(x, scale, bias, mean, variance, out_grad): x is [m, d] split at begin_norm_axis;
/// `variance` is the variance (not its inverse).
void layerNormGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(5);
    requireFloating(g, "layer_norm_grad");
    const int64_t axis
        = normalizeAxisOrScalar(ctx.intAttr("begin_norm_axis", 1), int64_t(x.rank()), "begin_norm_axis");
    const double eps = ctx.floatAttr("epsilon", 1e-5);
    int64_t m = 1;
    for (int64_t i = 0; i < axis; ++i)
        m *= x.dim(size_t(i));
    const int64_t d = m == 0 ? 0 : x.numElements() / m;
    const std::vector<double> xv = values(x), gv = values(g), mean = values(ctx.input(3)),
                              var = values(ctx.input(4));
    if (int64_t(mean.size()) != m || int64_t(var.size()) != m || g.numElements() != x.numElements())
        throw RuntimeError("layer_norm_grad: mean/variance/out_grad do not match x " + x.describe());
    const std::vector<double> scale = optionalValues(ctx, 1, d, 1.0);
    std::vector<double> dx(xv.size()), dscale(size_t(d), 0.0), dbias(size_t(d), 0.0),
        xhat(static_cast<size_t>(d)), dxhat(static_cast<size_t>(d));
    for (int64_t r = 0; r < m; ++r) {
        const double rstd = 1.0 / std::sqrt(var[size_t(r)] + eps);
        double sumD = 0.0, sumDX = 0.0;
        for (int64_t j = 0; j < d; ++j) {
            const size_t i = size_t(r * d + j);
            xhat[size_t(j)] = (xv[i] - mean[size_t(r)]) * rstd;
            dxhat[size_t(j)] = gv[i] * scale[size_t(j)];
            dscale[size_t(j)] += gv[i] * xhat[size_t(j)];
            dbias[size_t(j)] += gv[i];
            sumD += dxhat[size_t(j)];
            sumDX += dxhat[size_t(j)] * xhat[size_t(j)];
        }
        for (int64_t j = 0; j < d; ++j)
            dx[size_t(r * d + j)]
                = rstd * (dxhat[size_t(j)] - sumD / double(d) - xhat[size_t(j)] * sumDX / double(d));
    }
    if (wanted(ctx, 0))
        ctx.setOutput(0, makeTensor(ctx, x.shape(), x.dtype(), dx));
    storeAffineGrads(ctx, 1, 2, x, dscale, dbias);
}

/// batch_norm_grad(x, scale, bias, mean_out, variance_out, saved_mean, saved_variance, reserve_space,
/// out_grad). Training: saved_variance holds 1/sqrt(var + eps) (Paddle's CPU kernel); with global
/// statistics (use_global_stats or is_test) the running mean/variance are constants.
void batchNormGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(8);
    requireFloating(g, "batch_norm_grad");
    const bool lastAxis = kernels::isChannelsLast(ctx.stringAttr("data_format", "NCHW"));
    const Ncs xs = ncsOf(x, lastAxis, "batch_norm_grad"), gs = ncsOf(g, lastAxis, "batch_norm_grad");
    const double eps = ctx.floatAttr("epsilon", 1e-5);
    const bool global = ctx.boolAttr("use_global_stats", false) || ctx.boolAttr("is_test", false);
    const int64_t c = xs.c, count = xs.n * xs.s;
    const std::vector<double> scale = optionalValues(ctx, 1, c, 1.0);
    std::vector<double> mean, invStd;
    if (global) {
        mean = values(ctx.input(3));
        invStd = values(ctx.input(4));
        for (double &v : invStd)
            v = 1.0 / std::sqrt(v + eps);
    } else {
        mean = values(ctx.input(5));
        invStd = values(ctx.input(6));
    }
    if (int64_t(mean.size()) != c || int64_t(invStd.size()) != c)
        throw RuntimeError("batch_norm_grad: statistics do not have " + std::to_string(c) + " channels");
    std::vector<double> dscale(size_t(c), 0.0), dbias(size_t(c), 0.0), dx(xs.v.size());
    for (int64_t ch = 0; ch < c; ++ch) {
        double sumG = 0.0, sumGX = 0.0;
        for (int64_t b = 0; b < xs.n; ++b)
            for (int64_t i = 0; i < xs.s; ++i) {
                const size_t k = size_t((b * c + ch) * xs.s + i);
                sumG += gs.v[k];
                sumGX += gs.v[k] * (xs.v[k] - mean[size_t(ch)]) * invStd[size_t(ch)];
            }
        dbias[size_t(ch)] = sumG;
        dscale[size_t(ch)] = sumGX;
        const double factor = scale[size_t(ch)] * invStd[size_t(ch)];
        for (int64_t b = 0; b < xs.n; ++b)
            for (int64_t i = 0; i < xs.s; ++i) {
                const size_t k = size_t((b * c + ch) * xs.s + i);
                if (global) {
                    dx[k] = gs.v[k] * factor;
                } else {
                    const double xhat = (xs.v[k] - mean[size_t(ch)]) * invStd[size_t(ch)];
                    dx[k] = factor * (gs.v[k] - sumG / double(count) - xhat * sumGX / double(count));
                }
            }
    }
    if (wanted(ctx, 0))
        ctx.setOutput(0, storeNcs(ctx, x, xs, dx));
    storeAffineGrads(ctx, 1, 2, x, dscale, dbias);
}

/// instance_norm_grad: Paddle 3.3.1 passes (x, scale, bias, saved_mean, saved_variance, y_grad),
/// the op YAML (x, scale, saved_mean, saved_variance, y_grad). saved_variance is 1/sqrt(var + eps).
void instanceNormGrad(KernelContext &ctx)
{
    const bool withBias = ctx.numInputs() >= 6;
    const size_t meanIndex = withBias ? 3 : 2;
    const Tensor &x = ctx.input(0), &g = ctx.input(meanIndex + 2);
    requireFloating(g, "instance_norm_grad");
    const Ncs xs = ncsOf(x, false, "instance_norm_grad"), gs = ncsOf(g, false, "instance_norm_grad");
    const int64_t c = xs.c, s = xs.s;
    const std::vector<double> scale = optionalValues(ctx, 1, c, 1.0);
    const std::vector<double> mean = values(ctx.input(meanIndex)), invStd = values(ctx.input(meanIndex + 1));
    if (int64_t(mean.size()) != xs.n * c || int64_t(invStd.size()) != xs.n * c)
        throw RuntimeError("instance_norm_grad: statistics do not have n * c entries");
    std::vector<double> dscale(size_t(c), 0.0), dbias(size_t(c), 0.0), dx(xs.v.size());
    for (int64_t b = 0; b < xs.n; ++b)
        for (int64_t ch = 0; ch < c; ++ch) {
            const size_t st = size_t(b * c + ch);
            double sumG = 0.0, sumGX = 0.0;
            for (int64_t i = 0; i < s; ++i) {
                const size_t k = st * size_t(s) + size_t(i);
                const double xhat = (xs.v[k] - mean[st]) * invStd[st];
                sumG += gs.v[k];
                sumGX += gs.v[k] * xhat;
            }
            dbias[size_t(ch)] += sumG;
            dscale[size_t(ch)] += sumGX;
            const double factor = scale[size_t(ch)] * invStd[st];
            for (int64_t i = 0; i < s; ++i) {
                const size_t k = st * size_t(s) + size_t(i);
                const double xhat = (xs.v[k] - mean[st]) * invStd[st];
                dx[k] = factor * (gs.v[k] - sumG / double(s) - xhat * sumGX / double(s));
            }
        }
    if (wanted(ctx, 0))
        ctx.setOutput(0, makeTensor(ctx, x.shape(), x.dtype(), dx));
    storeAffineGrads(ctx, 1, withBias ? 2 : 99, x, dscale, dbias);
}

/// group_norm_grad(x, scale, bias, y, mean, variance, y_grad): mean/variance are [n, groups],
/// variance the variance itself.
void groupNormGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(6);
    requireFloating(g, "group_norm_grad");
    const bool lastAxis = kernels::isChannelsLast(ctx.stringAttr("data_format", "NCHW"));
    const Ncs xs = ncsOf(x, lastAxis, "group_norm_grad"), gs = ncsOf(g, lastAxis, "group_norm_grad");
    const int64_t c = xs.c, groups = ctx.intAttr("groups", 1);
    if (groups <= 0 || c % groups != 0)
        throw RuntimeError("group_norm_grad: " + std::to_string(c) + " channels do not split into "
            + std::to_string(groups) + " groups");
    const double eps = ctx.floatAttr("epsilon", 1e-5);
    const int64_t cg = c / groups, len = cg * xs.s;
    const std::vector<double> scale = optionalValues(ctx, 1, c, 1.0);
    const std::vector<double> mean = values(ctx.input(4)), var = values(ctx.input(5));
    if (int64_t(mean.size()) != xs.n * groups || int64_t(var.size()) != xs.n * groups)
        throw RuntimeError("group_norm_grad: mean/variance do not have n * groups entries");
    std::vector<double> dscale(size_t(c), 0.0), dbias(size_t(c), 0.0), dx(xs.v.size());
    for (int64_t b = 0; b < xs.n; ++b)
        for (int64_t gr = 0; gr < groups; ++gr) {
            const size_t st = size_t(b * groups + gr);
            const double rstd = 1.0 / std::sqrt(var[st] + eps);
            const size_t base = size_t((b * c + gr * cg) * xs.s);
            double sumD = 0.0, sumDX = 0.0;
            for (int64_t i = 0; i < len; ++i) {
                const size_t k = base + size_t(i);
                const int64_t ch = gr * cg + i / xs.s;
                const double xhat = (xs.v[k] - mean[st]) * rstd;
                const double dxhat = gs.v[k] * scale[size_t(ch)];
                dscale[size_t(ch)] += gs.v[k] * xhat;
                dbias[size_t(ch)] += gs.v[k];
                sumD += dxhat;
                sumDX += dxhat * xhat;
            }
            for (int64_t i = 0; i < len; ++i) {
                const size_t k = base + size_t(i);
                const int64_t ch = gr * cg + i / xs.s;
                const double xhat = (xs.v[k] - mean[st]) * rstd;
                const double dxhat = gs.v[k] * scale[size_t(ch)];
                dx[k] = rstd * (dxhat - sumD / double(len) - xhat * sumDX / double(len));
            }
        }
    if (wanted(ctx, 0))
        ctx.setOutput(0, storeNcs(ctx, x, xs, dx));
    storeAffineGrads(ctx, 1, 2, x, dscale, dbias);
}

} // namespace

void registerCpuGradNormKernels(KernelRegistry &registry)
{
    registry.add("pd_op.layer_norm_grad", layerNormGrad);
    registry.add("pd_op.batch_norm_grad", batchNormGrad);
    registry.add("pd_op.instance_norm_grad", instanceNormGrad);
    registry.add("pd_op.group_norm_grad", groupNormGrad);
}

} // namespace ps
