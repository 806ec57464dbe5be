// softmax(_), log_softmax, their grads, and cross_entropy_with_softmax(_) with its grad. Each
// lane along the axis is one row [outer, size, inner]: a warp walks a contiguous row (inner ==
// 1), a single thread walks a strided one (neighbouring threads then read neighbouring
// addresses). Like the CPU oracle (cpusoftmaxkernels.cpp), lanes compute in double with the max
// shifted out, so large logits do not overflow.

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/kernelargs.h"

PS_CUDA_NAMESPACE_BEGIN
namespace {

using namespace cuda;
using namespace kernels;

/// Lanes handled by groups of G threads (32: a warp per contiguous lane; 1: a thread per lane).
template<int G> struct Lanes
{
    AxisSplit s;
    __device__ __forceinline__ int64_t count() const { return s.outer * s.inner; }
    __device__ __forceinline__ int64_t base(int64_t lane) const
    {
        const int64_t o = lane / s.inner, i = lane - o * s.inner;
        return o * s.size * s.inner + i;
    }
    template<class Op> __device__ __forceinline__ double reduce(double v, Op op) const
    {
        if constexpr (G == 1)
            return v;
        else
            return __shfl_sync(0xffffffffu, warpReduce(v, op), 0);
    }
};

/// Calls body(lane, laneThread) for every lane; all G threads of a group see the same lane.
template<int G, class Body> __device__ __forceinline__ void forEachLane(const Lanes<G> &lanes, Body &&body)
{
    const int64_t groups = int64_t(gridDim.x) * blockDim.x / G;
    for (int64_t lane = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / G; lane < lanes.count();
         lane += groups)
        body(lane, int(threadIdx.x % G));
}

/// log-sum-exp of one lane in double (all -inf: the max is taken as 0, as the CPU does).
template<int G, class T>
__device__ __forceinline__ double laneLogSumExp(const Lanes<G> &L, const T *x, int64_t base, int t)
{
    const int64_t stride = L.s.inner;
    double mx = -INFINITY;
    for (int64_t k = t; k < L.s.size; k += G)
        mx = fmax(mx, double(loadElement(x[base + k * stride])));
    mx = L.reduce(mx, MaxOp {});
    if (km::isinf(mx) && mx < 0)
        mx = 0;
    double sum = 0;
    for (int64_t k = t; k < L.s.size; k += G)
        sum += exp(double(loadElement(x[base + k * stride])) - mx);
    sum = L.reduce(sum, SumOp {});
    return mx + log(sum);
}

template<int G, class T>
__global__ void __launch_bounds__(kBlock) softmaxKernel(Lanes<G> L, const T *x, T *out, bool logarithm)
{
    forEachLane(L, [&](int64_t lane, int t) {
        const int64_t base = L.base(lane), stride = L.s.inner;
        const double lse = laneLogSumExp(L, x, base, t);
        for (int64_t k = t; k < L.s.size; k += G) {
            const double v = double(loadElement(x[base + k * stride])) - lse;
            out[base + k * stride] = storeElement<T>(logarithm ? v : exp(v));
        }
    });
}

template<int G, class T>
__global__ void __launch_bounds__(kBlock)
    softmaxGradKernel(Lanes<G> L, const T *out, const T *g, T *dx, bool logarithm)
{
    forEachLane(L, [&](int64_t lane, int t) {
        const int64_t base = L.base(lane), stride = L.s.inner;
        double sum = 0;
        for (int64_t k = t; k < L.s.size; k += G) {
            const int64_t i = base + k * stride;
            sum += logarithm ? double(loadElement(g[i]))
                             : double(loadElement(g[i])) * double(loadElement(out[i]));
        }
        sum = L.reduce(sum, SumOp {});
        for (int64_t k = t; k < L.s.size; k += G) {
            const int64_t i = base + k * stride;
            const double o = loadElement(out[i]), gv = loadElement(g[i]);
            dx[i] = storeElement<T>(logarithm ? gv - exp(o) * sum : o * (gv - sum));
        }
    });
}

struct CrossEntropyParams
{
    bool soft, useSoftmax;
    int64_t ignoreIndex;
    volatile KernelFault *err;
};

template<int G, class T>
__global__ void __launch_bounds__(kBlock) crossEntropyKernel(
    Lanes<G> L, const T *x, const double *labels, T *softmax, T *loss, CrossEntropyParams p)
{
    forEachLane(L, [&](int64_t lane, int t) {
        const int64_t base = L.base(lane), stride = L.s.inner;
        const double lse = p.useSoftmax ? laneLogSumExp(L, x, base, t) : 0.0;
        // lane value k: log-softmax (use_softmax) or log of the input probability.
        auto logp = [&](int64_t k) {
            const double v = loadElement(x[base + k * stride]);
            return p.useSoftmax ? v - lse : log(v);
        };
        for (int64_t k = t; k < L.s.size; k += G)
            softmax[base + k * stride] = p.useSoftmax ? storeElement<T>(exp(logp(k))) : x[base + k * stride];
        double value = 0;
        if (p.soft) {
            for (int64_t k = t; k < L.s.size; k += G) {
                const double w = labels[base + k * stride];
                if (w != 0)
                    value -= w * (p.useSoftmax ? logp(k) : -km::tolerable(-logp(k)));
            }
            value = L.reduce(value, SumOp {});
        } else {
            const int64_t cls = int64_t(labels[lane]);
            if (cls == p.ignoreIndex) {
                value = 0;
            } else if (cls < 0 || cls >= L.s.size) {
                raiseFault(p.err, KernelFaultCode::LabelOutOfRange, cls, L.s.size);
                value = NAN;
            } else {
                value = p.useSoftmax ? -logp(cls) : km::tolerable(-logp(cls));
            }
        }
        if (t == 0)
            loss[lane] = storeElement<T>(value);
    });
}

template<class T>
__global__ void __launch_bounds__(kBlock) crossEntropyGradKernel(
    AxisSplit s, const double *labels, const T *p, const T *lossGrad, T *dx, CrossEntropyParams prm)
{
    const int64_t n = s.outer * s.size * s.inner;
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += int64_t(gridDim.x) * blockDim.x) {
        const int64_t o = i / (s.size * s.inner), rem = i - o * s.size * s.inner, c = rem / s.inner,
                      in = rem - c * s.inner;
        const int64_t row = o * s.inner + in;
        const double g = loadElement(lossGrad[row]), pv = loadElement(p[i]);
        double v = 0;
        if (prm.soft) {
            const double lab = labels[i];
            v = prm.useSoftmax ? (pv - lab) * g : -lab / pv * g;
        } else {
            const int64_t target = int64_t(labels[row]);
            if (target == prm.ignoreIndex) {
                v = 0;
            } else if (target < 0 || target >= s.size) {
                raiseFault(prm.err, KernelFaultCode::LabelOutOfRange, target, s.size);
                v = NAN;
            } else if (prm.useSoftmax) {
                v = pv * g - (c == target ? g : 0.0);
            } else {
                v = c == target ? -g / pv : 0.0;
            }
        }
        dx[i] = storeElement<T>(v);
    }
}

/// Launches `kernel` over the lanes of `s` with the warp-per-lane or thread-per-lane walk.
template<class LaunchWarp, class LaunchThread>
void launchLanes(const CudaRuntime &rt, const AxisSplit &s, LaunchWarp &&warp, LaunchThread &&thread)
{
    const int64_t lanes = s.outer * s.inner;
    if (lanes == 0 || s.size == 0)
        return;
    if (s.inner == 1)
        warp(rt.gridFor(lanes * 32), Lanes<32> { s });
    else
        thread(rt.gridFor(lanes), Lanes<1> { s });
    checkLaunch("softmax");
}

Tensor softmaxTensor(CudaRuntime &rt, const Tensor &x, int64_t axis, bool logarithm, const std::string &label)
{
    const AxisSplit s = splitAtAxisChecked(x.shape(), axis, label);
    Tensor out = rt.allocate(x.shape(), x.dtype());
    cuda::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *px = static_cast<const T *>(x.rawData());
        T *po = static_cast<T *>(out.rawData());
        launchLanes(
            rt, s,
            [&](unsigned grid, Lanes<32> L) {
                launchKernel(&softmaxKernel<32, T>, grid, kBlock, 0, rt.stream, L, px, po, logarithm);
            },
            [&](unsigned grid, Lanes<1> L) {
                launchKernel(&softmaxKernel<1, T>, grid, kBlock, 0, rt.stream, L, px, po, logarithm);
            });
    });
    return out;
}

void softmaxOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const bool logarithm = ctx.opName() == "pd_op.log_softmax";
    Tensor out = softmaxTensor(rt, x, ctx.intAttr("axis", -1), logarithm, shortName(ctx));
    if (isInplaceOp(ctx)) {
        Tensor target = x;
        if (out.byteSize() > 0)
            checkCuda(cudaMemcpyAsync(target.rawData(), out.rawData(), out.byteSize(),
                          cudaMemcpyDeviceToDevice, rt.stream),
                "softmax_");
        out = target;
    }
    ctx.setOutput(0, out);
}

void softmaxGradOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const bool logarithm = ctx.opName() == "pd_op.log_softmax_grad";
    const std::string what = shortName(ctx);
    const Tensor out = deviceInput(ctx, 0), g = deviceInput(ctx, 1);
    if (out.shape() != g.shape() || out.dtype() != g.dtype())
        throw RuntimeError(what + ": out " + out.describe() + " and out_grad " + g.describe() + " differ");
    const AxisSplit s = splitAtAxisChecked(out.shape(), out.rank() == 0 ? 0 : ctx.intAttr("axis", -1), what);
    Tensor dx = ctx.allocate(out.shape(), g.dtype());
    cuda::dispatchFloating(g.dtype(), what.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *po = static_cast<const T *>(out.rawData());
        const T *pg = static_cast<const T *>(g.rawData());
        T *pd = static_cast<T *>(dx.rawData());
        launchLanes(
            rt, s,
            [&](unsigned grid, Lanes<32> L) {
                launchKernel(&softmaxGradKernel<32, T>, grid, kBlock, 0, rt.stream, L, po, pg, pd, logarithm);
            },
            [&](unsigned grid, Lanes<1> L) {
                launchKernel(&softmaxGradKernel<1, T>, grid, kBlock, 0, rt.stream, L, po, pg, pd, logarithm);
            });
    });
    ctx.setOutput(0, dx);
}

void crossEntropyOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = deviceInput(ctx, 0), lbl = deviceInput(ctx, 1);
    CrossEntropyParams p { ctx.boolAttr("soft_label", false), ctx.boolAttr("use_softmax", true),
        ctx.intAttr("ignore_index", -100), rt.fault };
    const int64_t axisAttr = ctx.intAttr("axis", -1);
    const AxisSplit s = splitAtAxisChecked(x.shape(), axisAttr, label);
    std::vector<int64_t> lossShape = x.shape();
    if (!lossShape.empty())
        lossShape[size_t(normalizeAxis(axisAttr, x.rank(), label))] = 1;
    const std::vector<int64_t> wantLabel = p.soft ? x.shape() : lossShape;
    if (lbl.shape() != wantLabel && !(!p.soft && lbl.numElements() == s.outer * s.inner))
        throw RuntimeError(label + ": label " + shapeText(lbl.shape()) + " does not fit input "
            + shapeText(x.shape()) + " (expected " + shapeText(wantLabel) + ")");
    const Tensor labels = cast(rt, lbl, DataType::Float64);
    Tensor softmax = ctx.allocate(x.shape(), x.dtype());
    Tensor loss = ctx.allocate(lossShape, x.dtype());
    cuda::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *px = static_cast<const T *>(x.rawData());
        const double *pl = static_cast<const double *>(labels.rawData());
        T *ps = static_cast<T *>(softmax.rawData());
        T *pls = static_cast<T *>(loss.rawData());
        launchLanes(
            rt, s,
            [&](unsigned grid, Lanes<32> L) {
                launchKernel(&crossEntropyKernel<32, T>, grid, kBlock, 0, rt.stream, L, px, pl, ps, pls, p);
            },
            [&](unsigned grid, Lanes<1> L) {
                launchKernel(&crossEntropyKernel<1, T>, grid, kBlock, 0, rt.stream, L, px, pl, ps, pls, p);
            });
    });
    ctx.setOutput(0, softmax);
    ctx.setOutput(1, loss);
}

void crossEntropyGradOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const char *what = "cross_entropy_with_softmax_grad";
    const Tensor lbl = deviceInput(ctx, 0), softmax = deviceInput(ctx, 1), lossGrad = deviceInput(ctx, 2);
    CrossEntropyParams p { ctx.boolAttr("soft_label", false), ctx.boolAttr("use_softmax", true),
        ctx.intAttr("ignore_index", -100), rt.fault };
    if (softmax.rank() == 0)
        throw RuntimeError(std::string(what) + " needs a softmax of rank >= 1");
    const AxisSplit s = splitAtAxisChecked(softmax.shape(), ctx.intAttr("axis", -1), what);
    if (lossGrad.numElements() != s.outer * s.inner || lossGrad.dtype() != softmax.dtype())
        throw RuntimeError(std::string(what) + ": loss_grad " + lossGrad.describe()
            + " does not match softmax " + softmax.describe());
    if (lbl.numElements() != (p.soft ? softmax.numElements() : s.outer * s.inner))
        throw RuntimeError(std::string(what) + ": label " + lbl.describe() + " does not match softmax "
            + softmax.describe());
    const Tensor labels = cast(rt, lbl, DataType::Float64);
    Tensor dx = ctx.allocate(softmax.shape(), softmax.dtype());
    cuda::dispatchFloating(softmax.dtype(), what, [&](auto tag) {
        using T = decltype(tag);
        const int64_t n = softmax.numElements();
        if (n == 0)
            return;
        launchIndependent(&crossEntropyGradKernel<T>, rt.gridFor(n), kBlock, 0, rt.stream, s,
            static_cast<const double *>(labels.rawData()), static_cast<const T *>(softmax.rawData()),
            static_cast<const T *>(lossGrad.rawData()), static_cast<T *>(dx.rawData()), p);
        checkLaunch(what);
    });
    ctx.setOutput(0, dx);
}

} // namespace

void registerCudaSoftmaxKernels(KernelRegistry &registry)
{
    registry.add("pd_op.softmax", &softmaxOp);
    registry.add("pd_op.softmax_", &softmaxOp);
    registry.add("pd_op.log_softmax", &softmaxOp);
    registry.add("pd_op.softmax_grad", &softmaxGradOp);
    registry.add("pd_op.log_softmax_grad", &softmaxGradOp);
    registry.add("pd_op.cross_entropy_with_softmax", &crossEntropyOp);
    registry.add("pd_op.cross_entropy_with_softmax_", &crossEntropyOp);
    registry.add("pd_op.cross_entropy_with_softmax_grad", &crossEntropyGradOp);
}

PS_CUDA_NAMESPACE_END
