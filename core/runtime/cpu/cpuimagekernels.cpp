#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ps {
namespace {

// ---- nearest_interp / bilinear_interp (x, out_size?, size_tensor?, scale_tensor?) ----
// Output size and source coordinates follow Paddle's CPU Interpolate2D exactly, float
// arithmetic included (the nearest index of a boundary pixel depends on it): size_tensor wins,
// else out_h/out_w, overridden by scale (scale_tensor, else the `scale` attribute) when
// positive, overridden by out_size.

struct InterpPlan
{
    int64_t inH = 0, inW = 0, outH = 0, outW = 0;
    float ratioH = 0, ratioW = 0;
    bool alignCorners = false;
    int alignMode = 1;
};

InterpPlan interpPlan(const KernelContext &ctx, int64_t inH, int64_t inW, const std::string &label)
{
    InterpPlan p;
    p.inH = inH;
    p.inW = inW;
    p.alignCorners = ctx.boolAttr("align_corners", true);
    p.alignMode = int(ctx.intAttr("align_mode", 1));
    float scaleH = -1, scaleW = -1;
    int64_t outH = ctx.intAttr("out_h", 0), outW = ctx.intAttr("out_w", 0);
    std::vector<int64_t> sizes;
    if (ctx.hasInput(2))
        sizes = ctx.inputAsInts(2);
    if (!sizes.empty()) {
        if (sizes.size() != 2)
            throw RuntimeError(label + ": size_tensor needs 2 values, got " + shapeText(sizes));
        outH = sizes[0];
        outW = sizes[1];
    } else {
        std::vector<double> scale;
        if (ctx.hasInput(3))
            scale = ctx.input(3).toDoubles();
        else
            scale = ctx.floatsAttr("scale", std::vector<double> {});
        if (scale.size() == 1)
            scale.push_back(scale[0]);
        if (scale.size() >= 2) {
            scaleH = float(scale[0]);
            scaleW = float(scale[1]);
            if (ctx.hasInput(3) && (scaleH <= 0 || scaleW <= 0))
                throw RuntimeError(label + ": scale_tensor values must be positive");
        }
        if (scaleH > 0 && scaleW > 0) {
            outH = int64_t(float(inH) * scaleH);
            outW = int64_t(float(inW) * scaleW);
        }
        if (ctx.hasInput(1)) {
            const std::vector<int64_t> outSize = ctx.inputAsInts(1);
            if (outSize.size() != 2)
                throw RuntimeError(label + ": out_size needs 2 values, got " + shapeText(outSize));
            outH = outSize[0];
            outW = outSize[1];
        }
    }
    if (outH <= 0 || outW <= 0)
        throw RuntimeError(label + ": output size " + std::to_string(outH) + "x" + std::to_string(outW)
            + " is not positive (set out_h/out_w, scale, out_size or size_tensor)");
    p.outH = outH;
    p.outW = outW;
    auto ratio = [&](int64_t in, int64_t out, float scale) {
        if (out <= 1)
            return 0.0f;
        const float newScale = scale > 0 ? float(1.0 / scale) : float(in) / float(out);
        return p.alignCorners ? float(in - 1) / float(out - 1) : newScale;
    };
    p.ratioH = ratio(inH, outH, scaleH);
    p.ratioW = ratio(inW, outW, scaleW);
    return p;
}

std::vector<int64_t> nearestIndices(float ratio, int64_t outN, bool alignCorners)
{
    std::vector<int64_t> idx(static_cast<size_t>(outN));
    for (int64_t k = 0; k < outN; ++k)
        idx[size_t(k)] = alignCorners ? int64_t(double(ratio * float(k)) + 0.5) : int64_t(ratio * float(k));
    return idx;
}

struct LinearTaps
{
    std::vector<int64_t> lo, hi;
    std::vector<float> dLo; // distance from lo (weight of hi)
};

LinearTaps linearTaps(float ratio, int64_t inN, int64_t outN, bool alignFlag)
{
    LinearTaps t;
    t.lo.resize(size_t(outN));
    t.hi.resize(size_t(outN));
    t.dLo.resize(size_t(outN));
    for (int64_t k = 0; k < outN; ++k) {
        int64_t lo = alignFlag ? int64_t(double(ratio) * (double(k) + 0.5) - 0.5) : int64_t(ratio * float(k));
        lo = lo > 0 ? lo : 0;
        const int64_t hi = lo + 1 < inN - 1 ? lo + 1 : inN - 1;
        float src = float(double(ratio) * (double(k) + 0.5) - 0.5);
        src = src > 0 ? src : 0;
        t.lo[size_t(k)] = lo;
        t.hi[size_t(k)] = hi;
        t.dLo[size_t(k)] = alignFlag ? src - float(lo) : ratio * float(k) - float(lo);
    }
    return t;
}

void interpKernel(KernelContext &ctx, bool bilinear)
{
    const std::string label = nnOpLabel(ctx);
    const Tensor &x = ctx.input(0);
    if (x.rank() != 4)
        throw RuntimeError(label + ": only 4-D input is supported, got " + shapeText(x.shape()));
    std::string format = ctx.stringAttr("data_format", std::string(""));
    if (format.empty())
        format = ctx.stringAttr("data_layout", std::string("NCHW"));
    const bool last = isChannelsLast(format);
    const Tensor in = last ? permuteChannels(x, true) : x;
    const int64_t planes = in.dim(0) * in.dim(1), inH = in.dim(2), inW = in.dim(3);
    const InterpPlan p = interpPlan(ctx, inH, inW, label);
    Tensor out = Tensor::empty({ in.dim(0), in.dim(1), p.outH, p.outW }, x.dtype());
    dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *src = in.data<T>();
        T *dst = out.data<T>();
        if (inH == p.outH && inW == p.outW) {
            std::copy(src, src + in.numElements(), dst);
            return;
        }
        if (!bilinear) {
            const std::vector<int64_t> ih = nearestIndices(p.ratioH, p.outH, p.alignCorners);
            const std::vector<int64_t> iw = nearestIndices(p.ratioW, p.outW, p.alignCorners);
            for (int64_t q = 0; q < planes; ++q)
                for (int64_t k = 0; k < p.outH; ++k)
                    for (int64_t l = 0; l < p.outW; ++l)
                        dst[(q * p.outH + k) * p.outW + l]
                            = src[(q * inH + std::min(ih[size_t(k)], inH - 1)) * inW
                                + std::min(iw[size_t(l)], inW - 1)];
            return;
        }
        const bool alignFlag = p.alignMode == 0 && !p.alignCorners;
        const LinearTaps th = linearTaps(p.ratioH, inH, p.outH, alignFlag);
        const LinearTaps tw = linearTaps(p.ratioW, inW, p.outW, alignFlag);
        for (int64_t q = 0; q < planes; ++q) {
            const T *plane = src + q * inH * inW;
            for (int64_t k = 0; k < p.outH; ++k) {
                const double dn = th.dLo[size_t(k)], ds = 1.0 - dn;
                const T *rn = plane + th.lo[size_t(k)] * inW;
                const T *rs = plane + th.hi[size_t(k)] * inW;
                for (int64_t l = 0; l < p.outW; ++l) {
                    const double dw = tw.dLo[size_t(l)], de = 1.0 - dw;
                    const int64_t w = tw.lo[size_t(l)], e = tw.hi[size_t(l)];
                    const double v = double(convertElement<double>(rn[w])) * ds * de
                        + double(convertElement<double>(rs[w])) * dn * de
                        + double(convertElement<double>(rn[e])) * ds * dw
                        + double(convertElement<double>(rs[e])) * dn * dw;
                    dst[(q * p.outH + k) * p.outW + l] = convertElement<T>(v);
                }
            }
        }
    });
    ctx.setOutput(0, last ? permuteChannels(out, false) : out);
}

void nearestInterpKernel(KernelContext &ctx)
{
    interpKernel(ctx, false);
}

void bilinearInterpKernel(KernelContext &ctx)
{
    interpKernel(ctx, true);
}

// ---- grid_sample (x [N, C, H, W], grid [N, Ho, Wo, 2]) {mode, padding_mode, align_corners} ----
// Coordinates are computed in the compute type as Paddle's CPU kernel does: unnormalise
// ((g + 1) / 2 * (size - 1) with align_corners, ((g + 1) * size - 1) / 2 without), then border:
// clip to [0, size - 1]; reflection: reflect about the edges (pixel centres with align_corners,
// pixel borders without) then clip; zeros: out-of-range taps read 0. nearest rounds half away
// from zero (Eigen round).

template<class C> C unnormalize(C g, int64_t size, bool alignCorners)
{
    const C maxVal = C(size - 1);
    return alignCorners ? (g + C(1)) * (maxVal * C(0.5)) : (g + C(1)) * (C(size) * C(0.5)) - C(0.5);
}

template<class C> C clipCoordinate(C v, int64_t size)
{
    return std::min(std::max(v, C(0)), C(size - 1));
}

template<class C> C reflectCoordinate(C v, int64_t size, bool alignCorners)
{
    const int64_t maxVal = size - 1;
    if (alignCorners) {
        const C range = C(maxVal * 2);
        if (range <= C(0))
            return C(0);
        const C a = std::abs(v);
        const C extra = a - std::floor(a / range) * range;
        return std::min(extra, range - extra);
    }
    const C range = C((maxVal + 1) * 2);
    const C a = std::abs(v + C(0.5));
    const C extra = a - std::floor(a / range) * range;
    return clipCoordinate(std::min(extra, range - extra) - C(0.5), size);
}

void gridSampleKernel(KernelContext &ctx)
{
    const std::string label = nnOpLabel(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor &grid = ctx.input(1);
    if (x.rank() != 4 || grid.rank() != 4 || grid.dim(3) != 2 || grid.dim(0) != x.dim(0))
        throw RuntimeError(label + ": x " + shapeText(x.shape()) + " and grid " + shapeText(grid.shape())
            + " must be [N, C, H, W] and [N, Ho, Wo, 2] (only 4-D is supported)");
    if (grid.dtype() != x.dtype())
        throw RuntimeError(
            label + ": x " + x.describe() + " and grid " + grid.describe() + " have different dtypes");
    const std::string mode = ctx.stringAttr("mode", std::string("bilinear"));
    const std::string padding = ctx.stringAttr("padding_mode", std::string("zeros"));
    const bool alignCorners = ctx.boolAttr("align_corners", true);
    if (mode != "bilinear" && mode != "nearest")
        throw RuntimeError(label + ": unsupported mode '" + mode + "'");
    if (padding != "zeros" && padding != "border" && padding != "reflection")
        throw RuntimeError(label + ": unsupported padding_mode '" + padding + "'");
    const bool nearest = mode == "nearest";
    const int pad = padding == "zeros" ? 0 : (padding == "border" ? 1 : 2);
    const int64_t n = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3), oh = grid.dim(1), ow = grid.dim(2);
    Tensor out = Tensor::empty({ n, c, oh, ow }, x.dtype());
    dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        using C = ComputeType<T>;
        const T *in = x.data<T>();
        const T *g = grid.data<T>();
        T *o = out.data<T>();
        auto source = [&](C v, int64_t size) {
            v = unnormalize(v, size, alignCorners);
            if (pad == 1)
                v = clipCoordinate(v, size);
            else if (pad == 2)
                v = reflectCoordinate(v, size, alignCorners);
            return v;
        };
        auto at = [&](const T *plane, int64_t yy, int64_t xx) {
            return yy >= 0 && yy < h && xx >= 0 && xx < w ? double(convertElement<C>(plane[yy * w + xx]))
                                                          : 0.0;
        };
        // A coordinate far outside the image (or infinite) maps to an index that reads zero.
        auto index = [](C v) { return v > C(-1e9) && v < C(1e9) ? int64_t(v) : int64_t(-2); };
        for (int64_t b = 0; b < n; ++b)
            for (int64_t i = 0; i < oh; ++i)
                for (int64_t j = 0; j < ow; ++j) {
                    const T *gp = g + ((b * oh + i) * ow + j) * 2;
                    const C gx = source(convertElement<C>(gp[0]), w);
                    const C gy = source(convertElement<C>(gp[1]), h);
                    for (int64_t ch = 0; ch < c; ++ch) {
                        const T *plane = in + (b * c + ch) * h * w;
                        double v;
                        if (std::isnan(gx) || std::isnan(gy)) {
                            v = std::nan("");
                        } else if (nearest) {
                            v = at(plane, index(std::round(gy)), index(std::round(gx)));
                        } else {
                            const C xw = std::floor(gx), yn = std::floor(gy);
                            const double dw = double(gx - xw), de = double(xw + C(1) - gx);
                            const double dn = double(gy - yn), ds = double(yn + C(1) - gy);
                            const int64_t x0 = index(xw), y0 = index(yn);
                            v = at(plane, y0, x0) * de * ds + at(plane, y0, x0 + 1) * dw * ds
                                + at(plane, y0 + 1, x0) * de * dn + at(plane, y0 + 1, x0 + 1) * dw * dn;
                        }
                        o[((b * c + ch) * oh + i) * ow + j] = convertElement<T>(v);
                    }
                }
    });
    ctx.setOutput(0, out);
}

} // namespace

void registerCpuImageKernels(KernelRegistry &registry)
{
    registry.add("pd_op.nearest_interp", nearestInterpKernel);
    registry.add("pd_op.bilinear_interp", bilinearInterpKernel);
    registry.add("pd_op.grid_sample", gridSampleKernel);
}

} // namespace ps
