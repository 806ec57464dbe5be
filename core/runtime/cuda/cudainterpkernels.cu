// nearest_interp and bilinear_interp (NCHW/NHWC, 4-D). The output size and the per-row and
// per-column source indices and weights are computed on the host with exactly the CPU oracle's
// float arithmetic (cpuimagekernels.cpp, after Paddle's Interpolate2D: the nearest index of a
// boundary pixel depends on it) and uploaded as small tables; the device gathers and blends in
// double.

#include "core/runtime/backend.h"
#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudakernelutil.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelregistry.h"

#include <algorithm>

namespace ps {
namespace {

using namespace cuda;

struct InterpPlan
{
    int64_t outH = 0, outW = 0;
    float ratioH = 0, ratioW = 0;
    bool alignCorners = false;
    int alignMode = 1;
};

InterpPlan interpPlan(const KernelContext &ctx, int64_t inH, int64_t inW, const std::string &label)
{
    InterpPlan p;
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
            scale = ctx.backend().toHost(ctx.input(3)).toDoubles();
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

/// Per output index along one axis: the low and high source index and the weight of the high
/// one (nearest: both indices equal, weight 0).
void axisTaps(const InterpPlan &p, bool bilinear, float ratio, int64_t inN, int64_t outN, int64_t *lo,
    int64_t *hi, double *w)
{
    const bool alignFlag = p.alignMode == 0 && !p.alignCorners;
    for (int64_t k = 0; k < outN; ++k) {
        if (!bilinear) {
            const int64_t i
                = p.alignCorners ? int64_t(double(ratio * float(k)) + 0.5) : int64_t(ratio * float(k));
            lo[k] = hi[k] = std::min(i, inN - 1);
            w[k] = 0;
            continue;
        }
        int64_t l = alignFlag ? int64_t(double(ratio) * (double(k) + 0.5) - 0.5) : int64_t(ratio * float(k));
        l = l > 0 ? l : 0;
        float src = float(double(ratio) * (double(k) + 0.5) - 0.5);
        src = src > 0 ? src : 0;
        lo[k] = l;
        hi[k] = l + 1 < inN - 1 ? l + 1 : inN - 1;
        w[k] = alignFlag ? double(src - float(l)) : double(ratio * float(k) - float(l));
    }
}

template<class T>
void runInterp(const CudaRuntime &rt, const Tensor &in, Tensor &out, const int64_t *idx, const double *wts,
    int64_t outH, int64_t outW, bool nearest)
{
    const int64_t inH = in.dim(2), inW = in.dim(3);
    const T *src = static_cast<const T *>(in.rawData());
    T *dst = static_cast<T *>(out.rawData());
    // Table layout: loH[outH], hiH[outH], loW[outW], hiW[outW]; weights dH[outH], dW[outW].
    launchFlat(
        rt, out.numElements(),
        [=] __device__(int64_t i) {
            const int64_t q = i / (outH * outW), rem = i - q * outH * outW, k = rem / outW,
                          l = rem - k * outW;
            const T *plane = src + q * inH * inW;
            const int64_t n = idx[k], s = idx[outH + k], w = idx[2 * outH + l], e = idx[2 * outH + outW + l];
            if (nearest) {
                dst[i] = plane[n * inW + w];
                return;
            }
            const double dn = wts[k], ds = 1.0 - dn, dw = wts[outH + l], de = 1.0 - dw;
            const double v = double(load(plane[n * inW + w])) * ds * de
                + double(load(plane[s * inW + w])) * dn * de + double(load(plane[n * inW + e])) * ds * dw
                + double(load(plane[s * inW + e])) * dn * dw;
            dst[i] = store<T>(v);
        },
        "interp");
}

void interpOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const bool bilinear = ctx.opName() == "pd_op.bilinear_interp";
    const std::string label = shortName(ctx);
    const Tensor x = deviceInput(ctx, 0);
    if (x.rank() != 4)
        throw RuntimeError(label + ": only 4-D input is supported, got " + shapeText(x.shape()));
    std::string format = ctx.stringAttr("data_format", std::string(""));
    if (format.empty())
        format = ctx.stringAttr("data_layout", std::string("NCHW"));
    const bool last = format == "NHWC" || format == "NDHWC" || format == "NLC";
    const Tensor in = last ? permute(rt, x, { 0, 3, 1, 2 }) : x;
    const int64_t inH = in.dim(2), inW = in.dim(3);
    const InterpPlan p = interpPlan(ctx, inH, inW, label);
    Tensor out = ctx.allocate({ in.dim(0), in.dim(1), p.outH, p.outW }, x.dtype());
    if (inH == p.outH && inW == p.outW) {
        if (out.byteSize() > 0)
            checkCuda(cudaMemcpyAsync(
                          out.rawData(), in.rawData(), out.byteSize(), cudaMemcpyDeviceToDevice, rt.stream),
                "interp copy");
    } else if (out.numElements() > 0) {
        Tensor hostIdx = Tensor::empty({ 2 * (p.outH + p.outW) }, DataType::Int64);
        Tensor hostWts = Tensor::empty({ p.outH + p.outW }, DataType::Float64);
        int64_t *ix = hostIdx.data<int64_t>();
        double *wt = hostWts.data<double>();
        std::vector<int64_t> hiH(size_t(p.outH)), hiW(size_t(p.outW));
        axisTaps(p, bilinear, p.ratioH, inH, p.outH, ix, hiH.data(), wt);
        axisTaps(p, bilinear, p.ratioW, inW, p.outW, ix + 2 * p.outH, hiW.data(), wt + p.outH);
        std::copy(hiH.begin(), hiH.end(), ix + p.outH);
        std::copy(hiW.begin(), hiW.end(), ix + 2 * p.outH + p.outW);
        const Tensor idx = ctx.backend().toDevice(hostIdx), wts = ctx.backend().toDevice(hostWts);
        dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
            runInterp<decltype(tag)>(rt, in, out, static_cast<const int64_t *>(idx.rawData()),
                static_cast<const double *>(wts.rawData()), p.outH, p.outW, !bilinear);
        });
    }
    ctx.setOutput(0, last ? permute(rt, out, { 0, 2, 3, 1 }) : out);
}

} // namespace

void registerCudaInterpKernels(KernelRegistry &registry)
{
    registry.add("pd_op.nearest_interp", &interpOp);
    registry.add("pd_op.bilinear_interp", &interpOp);
}

} // namespace ps
