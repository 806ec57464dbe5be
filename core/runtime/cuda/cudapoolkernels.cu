// pool2d and pool2d_grad (max/avg, adaptive, global, ceil_mode, exclusive, NCHW/NHWC). The
// attributes and the window rules are the shared PoolSpec (kernels/poolspec.h), whose
// rowWindow/colWindow/divisor run on the device as they do in the CPU loops. The grad gathers per input pixel over the windows that
// contain it (no atomics): max gives the gradient to the first window element equal to the
// output, as Paddle's MaxPool2dGradFunctor and the CPU kernel do.

#include "core/runtime/kernels/poolspec.h"
#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"

#include <cfloat>

PS_CUDA_NAMESPACE_BEGIN
namespace {

using namespace cuda;
using namespace kernels;

using Window = PoolSpec::Window;

/// Output rows whose window may contain input row `i` (a superset; callers test containment).
__device__ __forceinline__ void candidates(int64_t i, int64_t in, int64_t out, int64_t k, int64_t stride,
    int64_t pad, bool adaptive, int64_t &lo, int64_t &hi)
{
    if (adaptive) {
        lo = km::max(i * out / in - 1, int64_t(0));
        hi = km::min(((i + 1) * out + in - 1) / in, out - 1);
    } else {
        lo = km::max((i + pad - k) / stride, int64_t(0));
        hi = km::min((i + pad) / stride, out - 1);
    }
}

template<class T> __global__ void __launch_bounds__(kBlock) poolKernel(const T *in, T *out, PoolSpec g)
{
    using C = ComputeOf<T>;
    const int64_t outPlane = g.outH * g.outW, n = g.batch * g.channels * outPlane;
    for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += int64_t(gridDim.x) * blockDim.x) {
        const int64_t p = idx / outPlane, pix = idx - p * outPlane, oh = pix / g.outW, ow = pix - oh * g.outW;
        const Window r = g.rowWindow(oh), c = g.colWindow(ow);
        const T *plane = in + p * g.inH * g.inW;
        if (g.isMax) {
            C best = std::is_same_v<C, double> ? C(-DBL_MAX) : C(-FLT_MAX);
            bool nan = false;
            for (int64_t h = r.begin; h < r.end; ++h)
                for (int64_t w = c.begin; w < c.end; ++w) {
                    const C v = loadElement(plane[h * g.inW + w]);
                    nan |= v != v;
                    best = v > best ? v : best;
                }
            out[idx] = storeElement<T>(nan ? C(NAN) : best);
        } else {
            double sum = 0;
            for (int64_t h = r.begin; h < r.end; ++h)
                for (int64_t w = c.begin; w < c.end; ++w)
                    sum += double(loadElement(plane[h * g.inW + w]));
            out[idx] = storeElement<T>(C(sum / g.divisor(r, c)));
        }
    }
}

template<class T>
__global__ void __launch_bounds__(kBlock)
    poolGradKernel(const T *x, const T *y, const T *dy, T *dx, PoolSpec g)
{
    const int64_t inPlane = g.inH * g.inW, outPlane = g.outH * g.outW, n = g.batch * g.channels * inPlane;
    for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += int64_t(gridDim.x) * blockDim.x) {
        const int64_t p = idx / inPlane, pix = idx - p * inPlane, ih = pix / g.inW, iw = pix - ih * g.inW;
        const T *xp = x + p * inPlane;
        int64_t ohLo, ohHi, owLo, owHi;
        candidates(ih, g.inH, g.outH, g.kernelH, g.strideH, g.padTop, g.adaptive, ohLo, ohHi);
        candidates(iw, g.inW, g.outW, g.kernelW, g.strideW, g.padLeft, g.adaptive, owLo, owHi);
        double acc = 0;
        for (int64_t oh = ohLo; oh <= ohHi; ++oh) {
            const Window r = g.rowWindow(oh);
            if (ih < r.begin || ih >= r.end)
                continue;
            for (int64_t ow = owLo; ow <= owHi; ++ow) {
                const Window c = g.colWindow(ow);
                if (iw < c.begin || iw >= c.end)
                    continue;
                const int64_t o = p * outPlane + oh * g.outW + ow;
                if (!g.isMax) {
                    acc += double(loadElement(dy[o])) / g.divisor(r, c);
                    continue;
                }
                // Does (ih, iw) hold the first element of the window equal to the output?
                const double target = loadElement(y[o]);
                bool mine = false, found = false;
                for (int64_t h = r.begin; h < r.end && !found; ++h)
                    for (int64_t w = c.begin; w < c.end && !found; ++w)
                        if (double(loadElement(xp[h * g.inW + w])) == target) {
                            found = true;
                            mine = h == ih && w == iw;
                        }
                if (mine)
                    acc += double(loadElement(dy[o]));
            }
        }
        dx[idx] = storeElement<T>(acc);
    }
}

std::vector<int64_t> kernelSizeOf(const KernelContext &ctx, size_t operand)
{
    if (ctx.hasInput(operand))
        return ctx.inputAsInts(operand);
    return ctx.intsAttr("kernel_size", ctx.intsAttr("ksize", std::vector<int64_t> {}));
}

void pool2dOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const PoolSpec s = PoolSpec::fromContext(ctx, x.shape(), kernelSizeOf(ctx, 1));
    const std::string label = shortName(ctx);
    const Tensor in = s.channelsLast ? permute(rt, x, { 0, 3, 1, 2 }) : x;
    PoolSpec nchw = s;
    nchw.channelsLast = false;
    Tensor out = ctx.allocate(nchw.outputShape(), x.dtype());
    cuda::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        if (out.numElements() == 0)
            return;
        launchIndependent(&poolKernel<T>, rt.gridFor(out.numElements()), kBlock, 0, rt.stream,
            static_cast<const T *>(in.rawData()), static_cast<T *>(out.rawData()), nchw);
        checkLaunch("pool2d");
    });
    ctx.setOutput(0, s.channelsLast ? permute(rt, out, { 0, 2, 3, 1 }) : out);
}

void pool2dGradOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const char *what = "pool2d_grad";
    const Tensor x = deviceInput(ctx, 0), g = deviceInput(ctx, 2);
    const PoolSpec s = PoolSpec::fromContext(ctx, x.shape(), kernelSizeOf(ctx, 3));
    if (g.shape() != s.outputShape() || g.dtype() != x.dtype())
        throw RuntimeError(std::string(what) + ": out_grad " + g.describe() + " is not the pooled shape "
            + shapeText(s.outputShape()) + " of " + x.describe());
    const bool nhwc = s.channelsLast;
    const auto first = [&](const Tensor &t) { return nhwc ? permute(rt, t, { 0, 3, 1, 2 }) : t; };
    const Tensor xc = first(x), gc = first(g);
    const Tensor yc = s.isMax ? first(deviceInput(ctx, 1)) : gc;
    if (s.isMax && yc.shape() != gc.shape())
        throw RuntimeError(
            std::string(what) + ": out " + yc.describe() + " does not match out_grad " + gc.describe());
    PoolSpec nchw = s;
    nchw.channelsLast = false;
    Tensor dx = ctx.allocate(xc.shape(), x.dtype());
    cuda::dispatchFloating(x.dtype(), what, [&](auto tag) {
        using T = decltype(tag);
        if (dx.numElements() == 0)
            return;
        launchIndependent(&poolGradKernel<T>, rt.gridFor(dx.numElements()), kBlock, 0, rt.stream,
            static_cast<const T *>(xc.rawData()), static_cast<const T *>(yc.rawData()),
            static_cast<const T *>(gc.rawData()), static_cast<T *>(dx.rawData()), nchw);
        checkLaunch(what);
    });
    ctx.setOutput(0, nhwc ? permute(rt, dx, { 0, 2, 3, 1 }) : dx);
}

} // namespace

void registerCudaPoolKernels(KernelRegistry &registry)
{
    registry.add("pd_op.pool2d", &pool2dOp);
    registry.add("pd_op.pool2d_grad", &pool2dGradOp);
}

PS_CUDA_NAMESPACE_END
