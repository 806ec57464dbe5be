#pragma once

// nearest_interp, bilinear_interp and grid_sample for both backends over an execution policy
// `Exec`. Interp: the output size and the per-row / per-column source indices and weights
// (InterpPlan, interpTaps) are computed on the host with Paddle's CPU Interpolate2D float
// arithmetic (the nearest index of a boundary pixel depends on it) into small tables; one
// functor gathers and blends in double per output element. grid_sample: coordinates in the
// compute type as Paddle's CPU kernel (unnormalise, clip or reflect), taps blended in double.

#include "core/runtime/backend.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/elementtraits.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/layoutkernels.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/runtimeerror.h"

#include <cmath>
#include <string>

namespace ps::kernels {

/// The output size and source ratios of an interp op: size_tensor wins, else out_h/out_w,
/// overridden by scale (scale_tensor, else the `scale` attribute) when positive, overridden by
/// out_size.
struct InterpPlan
{
    int64_t outH = 0, outW = 0;
    float ratioH = 0, ratioW = 0;
    bool alignCorners = false;
    int alignMode = 1;
};
InterpPlan interpPlan(const KernelContext &ctx, int64_t inH, int64_t inW, const std::string &label);

/// The host table of an interp: loH[outH], hiH[outH], loW[outW], hiW[outW] (int64) and the weight
/// of the high tap dH[outH], dW[outW] (double); nearest: lo == hi, weight 0.
struct InterpTaps
{
    Tensor index; ///< int64 [2 * (outH + outW)]
    Tensor weight; ///< float64 [outH + outW]
};
InterpTaps interpTaps(const InterpPlan &p, bool bilinear, int64_t inH, int64_t inW);

template<class T> struct InterpMap
{
    const T *src;
    T *dst;
    const int64_t *idx;
    const double *wts;
    int64_t inH, inW, outH, outW;
    bool nearest;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        const int64_t q = i / (outH * outW), rem = i - q * outH * outW, k = rem / outW, l = rem - k * outW;
        const T *plane = src + q * inH * inW;
        const int64_t n = idx[k], s = idx[outH + k], w = idx[2 * outH + l], e = idx[2 * outH + outW + l];
        if (nearest) {
            dst[i] = plane[n * inW + w];
            return;
        }
        const double dn = wts[k], ds = 1.0 - dn, dw = wts[outH + l], de = 1.0 - dw;
        const double v = double(loadElement(plane[n * inW + w])) * ds * de + double(loadElement(plane[s * inW + w])) * dn * de
            + double(loadElement(plane[n * inW + e])) * ds * dw + double(loadElement(plane[s * inW + e])) * dn * dw;
        dst[i] = storeElement<T>(v);
    }
};

/// Data format of an interp op (data_format, else data_layout) is channels-last.
bool interpChannelsLast(const KernelContext &ctx);

template<class Exec> void interpKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const bool bilinear = ctx.opName() == "pd_op.bilinear_interp";
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0);
    if (x.rank() != 4)
        throw RuntimeError(label + ": only 4-D input is supported, got " + shapeText(x.shape()));
    const bool last = interpChannelsLast(ctx);
    const Tensor in = last ? gatherView(exec, x, transposeView(x.shape(), { 0, 3, 1, 2 })) : x;
    const int64_t inH = in.dim(2), inW = in.dim(3);
    const InterpPlan p = interpPlan(ctx, inH, inW, label);
    Tensor out = exec.allocate({ in.dim(0), in.dim(1), p.outH, p.outW }, x.dtype());
    if (inH == p.outH && inW == p.outW) {
        exec.copy(out, in);
    } else if (out.numElements() > 0) {
        const InterpTaps taps = interpTaps(p, bilinear, inH, inW);
        const Tensor idx = ctx.backend().toDevice(taps.index), wts = ctx.backend().toDevice(taps.weight);
        Exec::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
            using T = decltype(tag);
            exec.launch(out.numElements(),
                InterpMap<T> { static_cast<const T *>(in.rawData()), static_cast<T *>(out.rawData()),
                    static_cast<const int64_t *>(idx.rawData()), static_cast<const double *>(wts.rawData()), inH, inW,
                    p.outH, p.outW, !bilinear },
                label.c_str());
        });
    }
    ctx.setOutput(0, last ? gatherView(exec, out, transposeView(out.shape(), { 0, 2, 3, 1 })) : out);
}

/// grid_sample's source coordinate of a normalised grid value along a dim of `size`:
/// unnormalise ((g + 1) / 2 * (size - 1) with align_corners, ((g + 1) * size - 1) / 2 without),
/// then padding 1 (border): clip to [0, size - 1]; 2 (reflection): reflect about the edges (pixel
/// centres with align_corners, pixel borders without) then clip; 0 (zeros): as is.
template<class C> PS_HOST_DEVICE PS_INLINE C gridSource(C g, int64_t size, bool alignCorners, int padding)
{
    const auto clip = [size](C v) { return km::min(km::max(v, C(0)), C(size - 1)); };
    C v = alignCorners ? (g + C(1)) * (C(size - 1) * C(0.5)) : (g + C(1)) * (C(size) * C(0.5)) - C(0.5);
    if (padding == 1)
        return clip(v);
    if (padding == 2) {
        const int64_t maxVal = size - 1;
        if (alignCorners) {
            const C range = C(maxVal * 2);
            if (range <= C(0))
                return C(0);
            const C a = km::fabs(v);
            const C extra = a - km::floor(a / range) * range;
            return km::min(extra, range - extra);
        }
        const C range = C((maxVal + 1) * 2);
        const C a = km::fabs(v + C(0.5));
        const C extra = a - km::floor(a / range) * range;
        return clip(km::min(extra, range - extra) - C(0.5));
    }
    return v;
}

template<class T> struct GridSampleMap
{
    const T *in;
    const T *grid;
    T *out;
    int64_t c, h, w, oh, ow;
    bool alignCorners, nearest;
    int padding;

    /// A coordinate far outside the image (or infinite) maps to an index that reads zero.
    PS_HOST_DEVICE static int64_t index(ComputeOf<T> v)
    {
        return v > ComputeOf<T>(-1e9) && v < ComputeOf<T>(1e9) ? int64_t(v) : int64_t(-2);
    }
    PS_HOST_DEVICE double at(const T *plane, int64_t yy, int64_t xx) const
    {
        return yy >= 0 && yy < h && xx >= 0 && xx < w ? double(loadElement(plane[yy * w + xx])) : 0.0;
    }
    PS_HOST_DEVICE void operator()(int64_t idx) const
    {
        using C = ComputeOf<T>;
        const int64_t j = idx % ow, i = (idx / ow) % oh, ch = (idx / (ow * oh)) % c, b = idx / (ow * oh * c);
        const T *gp = grid + ((b * oh + i) * ow + j) * 2;
        const C gx = gridSource(C(loadElement(gp[0])), w, alignCorners, padding);
        const C gy = gridSource(C(loadElement(gp[1])), h, alignCorners, padding);
        const T *plane = in + (b * c + ch) * h * w;
        double v;
        if (km::isnan(gx) || km::isnan(gy)) {
            v = double(NAN);
        } else if (nearest) {
            v = at(plane, index(km::round(gy)), index(km::round(gx)));
        } else {
            const C xw = km::floor(gx), yn = km::floor(gy);
            const double dw = double(gx - xw), de = double(xw + C(1) - gx);
            const double dn = double(gy - yn), ds = double(yn + C(1) - gy);
            const int64_t x0 = index(xw), y0 = index(yn);
            v = at(plane, y0, x0) * de * ds + at(plane, y0, x0 + 1) * dw * ds + at(plane, y0 + 1, x0) * de * dn
                + at(plane, y0 + 1, x0 + 1) * dw * dn;
        }
        out[idx] = storeElement<T>(v);
    }
};

/// grid_sample (x [N, C, H, W], grid [N, Ho, Wo, 2]) {mode, padding_mode, align_corners}.
template<class Exec> void gridSampleKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0), grid = exec.input(1);
    if (x.rank() != 4 || grid.rank() != 4 || grid.dim(3) != 2 || grid.dim(0) != x.dim(0))
        throw RuntimeError(label + ": x " + shapeText(x.shape()) + " and grid " + shapeText(grid.shape())
            + " must be [N, C, H, W] and [N, Ho, Wo, 2] (only 4-D is supported)");
    if (grid.dtype() != x.dtype())
        throw RuntimeError(label + ": x " + x.describe() + " and grid " + grid.describe() + " have different dtypes");
    const std::string mode = ctx.stringAttr("mode", std::string("bilinear"));
    const std::string padding = ctx.stringAttr("padding_mode", std::string("zeros"));
    if (mode != "bilinear" && mode != "nearest")
        throw RuntimeError(label + ": unsupported mode '" + mode + "'");
    if (padding != "zeros" && padding != "border" && padding != "reflection")
        throw RuntimeError(label + ": unsupported padding_mode '" + padding + "'");
    Tensor out = exec.allocate({ x.dim(0), x.dim(1), grid.dim(1), grid.dim(2) }, x.dtype());
    Exec::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        exec.launch(out.numElements(),
            GridSampleMap<T> { static_cast<const T *>(x.rawData()), static_cast<const T *>(grid.rawData()),
                static_cast<T *>(out.rawData()), x.dim(1), x.dim(2), x.dim(3), grid.dim(1), grid.dim(2),
                ctx.boolAttr("align_corners", true), mode == "nearest",
                padding == "zeros" ? 0 : (padding == "border" ? 1 : 2) },
            label.c_str());
    });
    ctx.setOutput(0, out);
}

template<class Exec> void registerImageKernels(KernelRegistry &registry)
{
    registry.add("pd_op.nearest_interp", &interpKernel<Exec>);
    registry.add("pd_op.bilinear_interp", &interpKernel<Exec>);
    registry.add("pd_op.grid_sample", &gridSampleKernel<Exec>);
}

} // namespace ps::kernels
