#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernels/poolspec.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>

namespace ps {
namespace {

using namespace cpugrad;

bool isChannelsLast(const KernelContext &ctx)
{
    const std::string format = ctx.stringAttr("data_format", "NCHW");
    if (format != "NCHW" && format != "NHWC" && format != "AnyLayout")
        throw RuntimeError("unsupported data_format '" + format + "'");
    return format == "NHWC";
}

/// pool2d_grad(x, out, out_grad, kernel_size): the windows of PoolSpec (shared with pool2d). Max:
/// the first window element equal to `out` takes the gradient (Paddle's MaxPool2dGradFunctor);
/// avg: every window element gets out_grad / divisor.
void pool2dGrad(KernelContext &ctx)
{
    const char *what = "pool2d_grad";
    const Tensor &xt = ctx.input(0), &gt = ctx.input(2);
    requireFloating(gt, what);
    const Shape kernel = ctx.hasInput(3) ? ctx.inputAsInts(3) : ctx.intsAttr("kernel_size");
    const PoolSpec spec = PoolSpec::fromContext(ctx, xt.shape(), kernel);
    if (gt.shape() != spec.outputShape())
        throw RuntimeError(std::string(what) + ": out_grad " + gt.describe() + " is not the pooled shape "
            + shapeText(spec.outputShape()));
    const bool nhwc = spec.channelsLast;
    const Nchw x = nchwOf(xt, nhwc, what), g = nchwOf(gt, nhwc, what);
    Nchw out;
    if (spec.isMax)
        out = nchwOf(ctx.input(1), nhwc, what);
    std::vector<PoolSpec::Window> rows, cols;
    for (int64_t oy = 0; oy < g.h; ++oy)
        rows.push_back(spec.rowWindow(oy));
    for (int64_t ox = 0; ox < g.w; ++ox)
        cols.push_back(spec.colWindow(ox));
    Nchw dx = x;
    std::fill(dx.v.begin(), dx.v.end(), 0.0);
    for (int64_t plane = 0; plane < x.n * x.c; ++plane) {
        const double *xp = x.v.data() + plane * x.h * x.w;
        double *dp = dx.v.data() + plane * x.h * x.w;
        for (int64_t oy = 0; oy < g.h; ++oy)
            for (int64_t ox = 0; ox < g.w; ++ox) {
                const PoolSpec::Window &r = rows[size_t(oy)], &c = cols[size_t(ox)];
                const size_t o = size_t(plane * g.h * g.w + oy * g.w + ox);
                const double gv = g.v[o];
                if (spec.isMax) {
                    bool done = false;
                    for (int64_t y = r.begin; y < r.end && !done; ++y)
                        for (int64_t xx = c.begin; xx < c.end && !done; ++xx)
                            if (xp[y * x.w + xx] == out.v[o]) {
                                dp[y * x.w + xx] += gv;
                                done = true;
                            }
                    continue;
                }
                const double share = gv / spec.divisor(r, c);
                for (int64_t y = r.begin; y < r.end; ++y)
                    for (int64_t xx = c.begin; xx < c.end; ++xx)
                        dp[y * x.w + xx] += share;
            }
    }
    ctx.setOutput(0, storeNchw(ctx, xt, nhwc, dx));
}

/// The source-over-destination ratio Paddle's interpolate grads use, in float as Paddle does.
float interpRatio(int64_t in, int64_t out, float scale, bool alignCorners)
{
    if (out <= 1)
        return 0.0f;
    if (alignCorners)
        return float(in - 1) / float(out - 1);
    return scale > 0.0f ? 1.0f / scale : float(in) / float(out);
}

/// The (h, w) scales of an interp op: scale_tensor operand 3, else the `scale` attribute; <= 0 when unset.
std::pair<float, float> interpScales(const KernelContext &ctx)
{
    std::vector<double> scale;
    if (ctx.hasInput(3)) {
        scale = values(ctx.input(3));
    } else if (const auto *a = ctx.attribute("scale"); a) {
        scale = ctx.floatsAttr("scale");
    }
    if (scale.empty())
        return { -1.0f, -1.0f };
    if (scale.size() == 1)
        return { float(scale[0]), float(scale[0]) };
    return { float(scale[0]), float(scale[1]) };
}

/// nearest_interp_grad / bilinear_interp_grad (x, out_size, size_tensor, scale_tensor, output_grad).
void interpGrad(KernelContext &ctx)
{
    const bool bilinear = ctx.opName() == "pd_op.bilinear_interp_grad";
    const char *what = bilinear ? "bilinear_interp_grad" : "nearest_interp_grad";
    const Tensor &xt = ctx.input(0), &gt = ctx.input(4);
    requireFloating(gt, what);
    const bool nhwc = isChannelsLast(ctx);
    const Nchw x = nchwOf(xt, nhwc, what), g = nchwOf(gt, nhwc, what);
    const bool alignCorners = ctx.boolAttr("align_corners", false);
    const int64_t alignMode = ctx.intAttr("align_mode", 1);
    const auto [scaleH, scaleW] = interpScales(ctx);
    const float rh = interpRatio(x.h, g.h, scaleH, alignCorners),
                rw = interpRatio(x.w, g.w, scaleW, alignCorners);
    Nchw dx = x;
    std::fill(dx.v.begin(), dx.v.end(), 0.0);
    const bool alignFlag = alignMode == 0 && !alignCorners;
    // Source index (n, s) and weights (1 - d, d) per output row / column, as Paddle computes them.
    struct Tap
    {
        int64_t n, s;
        double d;
    };
    auto taps = [&](int64_t outSize, int64_t inSize, float ratio) {
        std::vector<Tap> t(static_cast<size_t>(outSize));
        for (int64_t k = 0; k < outSize; ++k) {
            if (!bilinear) {
                const int64_t i
                    = alignCorners ? int64_t(double(ratio * float(k)) + 0.5) : int64_t(ratio * float(k));
                t[size_t(k)] = { std::min(i, inSize - 1), 0, 0.0 };
                continue;
            }
            const double centre = double(ratio) * (double(k) + 0.5) - 0.5;
            int64_t n = alignFlag ? int64_t(centre) : int64_t(ratio * float(k));
            n = std::max<int64_t>(n, 0);
            const int64_t sIdx = std::min(n + 1, inSize - 1);
            const float src = std::max(float(centre), 0.0f);
            const float d = alignFlag ? src - float(n) : ratio * float(k) - float(n);
            t[size_t(k)] = { n, sIdx, double(d) };
        }
        return t;
    };
    const std::vector<Tap> ty = taps(g.h, x.h, rh), tx = taps(g.w, x.w, rw);
    for (int64_t plane = 0; plane < x.n * x.c; ++plane) {
        double *dp = dx.v.data() + plane * x.h * x.w;
        const double *gp = g.v.data() + plane * g.h * g.w;
        for (int64_t k = 0; k < g.h; ++k)
            for (int64_t l = 0; l < g.w; ++l) {
                const double v = gp[k * g.w + l];
                const Tap &a = ty[size_t(k)], &b = tx[size_t(l)];
                if (!bilinear) {
                    dp[a.n * x.w + b.n] += v;
                    continue;
                }
                dp[a.n * x.w + b.n] += v * (1.0 - a.d) * (1.0 - b.d);
                dp[a.s * x.w + b.n] += v * a.d * (1.0 - b.d);
                dp[a.n * x.w + b.s] += v * (1.0 - a.d) * b.d;
                dp[a.s * x.w + b.s] += v * a.d * b.d;
            }
    }
    ctx.setOutput(0, storeNchw(ctx, xt, nhwc, dx));
}

} // namespace

void registerCpuGradPoolKernels(KernelRegistry &registry)
{
    registry.add("pd_op.pool2d_grad", pool2dGrad);
    registry.add("pd_op.nearest_interp_grad", interpGrad);
    registry.add("pd_op.bilinear_interp_grad", interpGrad);
}

} // namespace ps
