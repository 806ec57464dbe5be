// batch_norm(_), layer_norm and their grads. Statistics accumulate in double with two passes,
// per channel (a block per channel) or per row (a warp or a block per row), as the CPU oracle
// (cpunormkernels.cpp, cpugradnormkernels.cpp) does; per-channel parameters travel as double
// arrays and results are cast to the dtypes the CPU kernel gives them.

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/groupnormkernels.h"
#include "core/runtime/kernels/kernelargs.h"

#include <algorithm>

PS_CUDA_NAMESPACE_BEGIN
namespace {

using namespace cuda;
using namespace kernels;

constexpr int kChannelBlock = 512;

/// A per-channel operand as a double device array of `count` elements; `fallback` everywhere
/// when the operand is null.
Tensor doubleParam(KernelContext &ctx, CudaRuntime &rt, size_t i, int64_t count, double fallback,
    const std::string &label, const char *what)
{
    Tensor out = rt.allocate({ count }, DataType::Float64);
    if (!ctx.hasInput(i)) {
        fill(rt, out, fallback);
        return out;
    }
    const Tensor t = deviceInput(ctx, i);
    if (t.numElements() != count)
        throw RuntimeError(label + ": " + what + " " + shapeText(t.shape()) + " must hold "
            + std::to_string(count) + " elements");
    castInto(rt, t, out);
    return out;
}

__device__ __forceinline__ int64_t channelElement(const ChannelView &v, int64_t c, int64_t k)
{
    const int64_t o = k / v.inner, i = k - o * v.inner;
    return (o * v.channels + c) * v.inner + i;
}

struct BatchNormParams
{
    bool globalStats;
    double momentum, epsilon;
    const double *runMean, *runVar, *scale, *bias;
    double *mean, *var, *invStd, *a, *b, *newMean, *newVar;
};

/// Channel c's statistics, the affine a, b of the output and the updated running statistics.
__device__ __forceinline__ void storeChannelStats(int64_t c, double m, double vr, const BatchNormParams &p)
{
    const double inv = 1.0 / sqrt(vr + p.epsilon);
    p.mean[c] = m;
    p.var[c] = vr;
    p.invStd[c] = inv;
    p.a[c] = inv * p.scale[c];
    p.b[c] = p.bias[c] - m * inv * p.scale[c];
    p.newMean[c] = p.globalStats ? p.runMean[c] : p.runMean[c] * p.momentum + m * (1.0 - p.momentum);
    p.newVar[c] = p.globalStats ? p.runVar[c] : p.runVar[c] * p.momentum + vr * (1.0 - p.momentum);
}

/// Inference: a, b of every channel from the running statistics (no reduction).
struct CoefficientsFromRunningStats
{
    BatchNormParams p;
    __device__ void operator()(int64_t c) const { storeChannelStats(c, p.runMean[c], p.runVar[c], p); }
};

/// Per channel (one block each): the batch statistics of a training batch_norm.
template<class T>
__global__ void __launch_bounds__(kChannelBlock)
    batchNormStatsKernel(const T *x, ChannelView v, BatchNormParams p)
{
    const int64_t c = blockIdx.x, count = v.outer * v.inner;
    double sum = 0;
    for (int64_t k = threadIdx.x; k < count; k += blockDim.x)
        sum += double(loadElement(x[channelElement(v, c, k)]));
    sum = blockReduce(sum, SumOp {}, 0.0);
    const double m = count > 0 ? sum / double(count) : 0.0;
    double sq = 0;
    for (int64_t k = threadIdx.x; k < count; k += blockDim.x) {
        const double d = double(loadElement(x[channelElement(v, c, k)])) - m;
        sq += d * d;
    }
    sq = blockReduce(sq, SumOp {}, 0.0);
    if (threadIdx.x == 0)
        storeChannelStats(c, m, count > 0 ? sq / double(count) : 0.0, p);
}

template<class T>
void affinePerChannel(
    const CudaRuntime &rt, const Tensor &x, Tensor &out, ChannelView v, const double *a, const double *b)
{
    const T *px = static_cast<const T *>(x.rawData());
    T *po = static_cast<T *>(out.rawData());
    launchFlat(
        rt, x.numElements(),
        [=] __device__(int64_t i) {
            const int64_t c = (i / v.inner) % v.channels;
            po[i] = storeElement<T>(double(loadElement(px[i])) * a[c] + b[c]);
        },
        "batch_norm");
}

void batchNormOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const ChannelView v
        = channelView(x.shape(), isChannelsLast(ctx.stringAttr("data_format", std::string("NCHW"))), label);
    const bool isTest = ctx.boolAttr("is_test", false);
    BatchNormParams p {};
    p.globalStats
        = (isTest && !ctx.boolAttr("trainable_statistics", false)) || ctx.boolAttr("use_global_stats", false);
    p.momentum = ctx.floatAttr("momentum", 0.9);
    p.epsilon = ctx.floatAttr("epsilon", 1e-5);
    const int64_t c = v.channels;
    const Tensor runMean = doubleParam(ctx, rt, 1, c, 0.0, label, "mean");
    const Tensor runVar = doubleParam(ctx, rt, 2, c, 1.0, label, "variance");
    const Tensor scale = doubleParam(ctx, rt, 3, c, 1.0, label, "scale");
    const Tensor bias = doubleParam(ctx, rt, 4, c, 0.0, label, "bias");
    Tensor work = rt.allocate({ 7, c }, DataType::Float64);
    double *w = static_cast<double *>(work.rawData());
    p.runMean = static_cast<const double *>(runMean.rawData());
    p.runVar = static_cast<const double *>(runVar.rawData());
    p.scale = static_cast<const double *>(scale.rawData());
    p.bias = static_cast<const double *>(bias.rawData());
    p.mean = w;
    p.var = w + c;
    p.invStd = w + 2 * c;
    p.a = w + 3 * c;
    p.b = w + 4 * c;
    p.newMean = w + 5 * c;
    p.newVar = w + 6 * c;
    Tensor out = ctx.allocate(x.shape(), x.dtype());
    cuda::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        if (c == 0)
            return;
        if (p.globalStats) {
            // Inference: the running statistics give a, b per channel, no reduction (a block of
            // kChannelBlock threads per channel would idle all but one).
            launchFlat(rt, c, CoefficientsFromRunningStats { p }, "batch_norm coefficients");
        } else {
            launchKernel(&batchNormStatsKernel<T>, unsigned(c), kChannelBlock, 0, rt.stream,
                static_cast<const T *>(x.rawData()), v, p);
            checkLaunch("batch_norm statistics");
        }
        affinePerChannel<T>(rt, x, out, v, p.a, p.b);
    });
    ctx.setOutput(0, out);

    const DataType statsType = ctx.hasInput(1)                                ? ctx.input(1).dtype()
        : (x.dtype() == DataType::Float16 || x.dtype() == DataType::BFloat16) ? DataType::Float32
                                                                              : x.dtype();
    const auto row = [&](int64_t r) {
        return Tensor(work.storage(), { c }, DataType::Float64, size_t(r * c) * sizeof(double));
    };
    // mean_out / variance_out share the running-stat operands' storage (Paddle's inplace map).
    const auto running = [&](size_t operand, int64_t r) {
        if (ctx.hasInput(operand)) {
            Tensor t = deviceInput(ctx, operand);
            if (!p.globalStats)
                castInto(rt, row(r), t);
            return t;
        }
        return cast(rt, row(r), statsType);
    };
    if (ctx.numOutputs() > 1)
        ctx.setOutput(1, running(1, 5));
    if (ctx.numOutputs() > 2)
        ctx.setOutput(2, running(2, 6));
    // saved_mean / saved_variance: batch mean and inverse std in training, zeros otherwise.
    const auto saved = [&](int64_t r) {
        Tensor t = ctx.allocate({ c }, statsType);
        if (p.globalStats)
            fill(rt, t, 0.0);
        else
            castInto(rt, row(r), t);
        return t;
    };
    if (ctx.numOutputs() > 3)
        ctx.setOutput(3, saved(0));
    if (ctx.numOutputs() > 4)
        ctx.setOutput(4, saved(2));
    if (ctx.numOutputs() > 5)
        ctx.setOutput(5, ctx.allocate({ 0 }, DataType::UInt8));
}

struct BatchNormGradParams
{
    bool global;
    int64_t count;
    const double *mean, *invStd, *scale;
    double *dscale, *dbias;
};

template<class T>
__global__ void __launch_bounds__(kChannelBlock)
    batchNormGradSumsKernel(const T *x, const T *g, ChannelView v, BatchNormGradParams p)
{
    const int64_t c = blockIdx.x;
    const double m = p.mean[c], inv = p.invStd[c];
    double sumG = 0, sumGX = 0;
    for (int64_t k = threadIdx.x; k < p.count; k += blockDim.x) {
        const int64_t i = channelElement(v, c, k);
        const double gv = loadElement(g[i]);
        sumG += gv;
        sumGX += gv * (double(loadElement(x[i])) - m) * inv;
    }
    sumG = blockReduce(sumG, SumOp {}, 0.0);
    sumGX = blockReduce(sumGX, SumOp {}, 0.0);
    if (threadIdx.x == 0) {
        p.dbias[c] = sumG;
        p.dscale[c] = sumGX;
    }
}

template<class T>
void batchNormDx(
    const CudaRuntime &rt, const Tensor &x, const Tensor &g, Tensor &dx, ChannelView v, BatchNormGradParams p)
{
    const T *px = static_cast<const T *>(x.rawData());
    const T *pg = static_cast<const T *>(g.rawData());
    T *pd = static_cast<T *>(dx.rawData());
    launchFlat(
        rt, x.numElements(),
        [=] __device__(int64_t i) {
            const int64_t c = (i / v.inner) % v.channels;
            const double factor = p.scale[c] * p.invStd[c], gv = loadElement(pg[i]);
            if (p.global) {
                pd[i] = storeElement<T>(gv * factor);
            } else {
                const double n = double(p.count);
                const double xhat = (double(loadElement(px[i])) - p.mean[c]) * p.invStd[c];
                pd[i] = storeElement<T>(factor * (gv - p.dbias[c] / n - xhat * p.dscale[c] / n));
            }
        },
        "batch_norm_grad");
}

/// Results 1 and 2 (scale/bias grads) typed and shaped like those operands (or like x).
void storeAffineGrads(KernelContext &ctx, CudaRuntime &rt, size_t scaleOperand, size_t biasOperand,
    const Tensor &x, const Tensor &dscale, const Tensor &dbias)
{
    const int64_t count = dscale.numElements();
    const auto store = [&](size_t result, size_t operand, const Tensor &values) {
        if (!wanted(ctx, result))
            return;
        const DataType d = ctx.hasInput(operand) ? ctx.input(operand).dtype() : x.dtype();
        const std::vector<int64_t> s
            = ctx.hasInput(operand) ? ctx.input(operand).shape() : std::vector<int64_t> { count };
        Tensor out = ctx.allocate(s, d);
        castInto(rt, values, out);
        ctx.setOutput(result, out);
    };
    store(1, scaleOperand, dscale);
    store(2, biasOperand, dbias);
}

void batchNormGradOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const char *what = "batch_norm_grad";
    const Tensor x = deviceInput(ctx, 0), g = deviceInput(ctx, 8);
    if (!isFloatingType(g.dtype()) || g.shape() != x.shape() || g.dtype() != x.dtype())
        throw RuntimeError(
            std::string(what) + ": out_grad " + g.describe() + " does not match x " + x.describe());
    const bool last = isChannelsLast(ctx.stringAttr("data_format", std::string("NCHW"))) && x.rank() > 2;
    const ChannelView v = channelView(x.shape(), last, what);
    const double eps = ctx.floatAttr("epsilon", 1e-5);
    BatchNormGradParams p {};
    p.global = ctx.boolAttr("use_global_stats", false) || ctx.boolAttr("is_test", false);
    p.count = v.outer * v.inner;
    const int64_t c = v.channels;
    const Tensor scale = doubleParam(ctx, rt, 1, c, 1.0, what, "scale");
    const Tensor mean = doubleParam(ctx, rt, p.global ? 3 : 5, c, 0.0, what, "mean");
    Tensor invStd = doubleParam(ctx, rt, p.global ? 4 : 6, c, 1.0, what, "variance");
    if (p.global) {
        double *pv = static_cast<double *>(invStd.rawData());
        launchFlat(
            rt, c, [=] __device__(int64_t i) { pv[i] = 1.0 / sqrt(pv[i] + eps); }, "batch_norm_grad");
    }
    Tensor sums = rt.allocate({ 2, c }, DataType::Float64);
    p.mean = static_cast<const double *>(mean.rawData());
    p.invStd = static_cast<const double *>(invStd.rawData());
    p.scale = static_cast<const double *>(scale.rawData());
    p.dscale = static_cast<double *>(sums.rawData());
    p.dbias = p.dscale + c;
    Tensor dx = ctx.allocate(x.shape(), x.dtype());
    cuda::dispatchFloating(x.dtype(), what, [&](auto tag) {
        using T = decltype(tag);
        if (c == 0)
            return;
        launchKernel(&batchNormGradSumsKernel<T>, unsigned(c), kChannelBlock, 0, rt.stream,
            static_cast<const T *>(x.rawData()), static_cast<const T *>(g.rawData()), v, p);
        checkLaunch(what);
        batchNormDx<T>(rt, x, g, dx, v, p);
    });
    if (wanted(ctx, 0))
        ctx.setOutput(0, dx);
    storeAffineGrads(ctx, rt, 1, 2, x, Tensor(sums.storage(), { c }, DataType::Float64, 0),
        Tensor(sums.storage(), { c }, DataType::Float64, size_t(c) * sizeof(double)));
}

/// Rows handled by groups of G threads (32: a warp per row; 256: the whole block per row).
template<int G> __device__ __forceinline__ double rowReduce(double v)
{
    if constexpr (G == 32)
        return __shfl_sync(0xffffffffu, warpReduce(v, SumOp {}), 0);
    else
        return blockReduce(v, SumOp {}, 0.0);
}

template<int G, class T>
__global__ void __launch_bounds__(kBlock) layerNormKernel(const T *x, T *out, const double *scale,
    const double *bias, double *mean, double *var, int64_t rows, int64_t cols, double epsilon)
{
    const int64_t groups = int64_t(gridDim.x) * blockDim.x / G;
    const int t = threadIdx.x % G;
    for (int64_t r = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / G; r < rows; r += groups) {
        const T *row = x + r * cols;
        double sum = 0;
        for (int64_t k = t; k < cols; k += G)
            sum += double(loadElement(row[k]));
        const double m = cols > 0 ? rowReduce<G>(sum) / double(cols) : 0.0;
        double sq = 0;
        for (int64_t k = t; k < cols; k += G) {
            const double d = double(loadElement(row[k])) - m;
            sq += d * d;
        }
        const double vr = cols > 0 ? rowReduce<G>(sq) / double(cols) : 0.0;
        const double inv = 1.0 / sqrt(vr + epsilon);
        for (int64_t k = t; k < cols; k += G) {
            const double v = (double(loadElement(row[k])) - m) * inv;
            out[r * cols + k] = storeElement<T>(v * (scale ? scale[k] : 1.0) + (bias ? bias[k] : 0.0));
        }
        if (t == 0) {
            mean[r] = m;
            var[r] = vr;
        }
    }
}

/// dx of each row, and g * xhat for the scale grad (reduced over rows afterwards).
template<int G, class T>
__global__ void __launch_bounds__(kBlock) layerNormGradKernel(const T *x, const T *g, const double *mean,
    const double *var, const double *scale, T *dx, double *gxhat, int64_t rows, int64_t cols, double epsilon)
{
    const int64_t groups = int64_t(gridDim.x) * blockDim.x / G;
    const int t = threadIdx.x % G;
    for (int64_t r = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / G; r < rows; r += groups) {
        const double rstd = 1.0 / sqrt(var[r] + epsilon), m = mean[r];
        double sumD = 0, sumDX = 0;
        for (int64_t k = t; k < cols; k += G) {
            const int64_t i = r * cols + k;
            const double xhat = (double(loadElement(x[i])) - m) * rstd, gv = loadElement(g[i]);
            const double d = gv * (scale ? scale[k] : 1.0);
            sumD += d;
            sumDX += d * xhat;
            gxhat[i] = gv * xhat;
        }
        sumD = rowReduce<G>(sumD);
        sumDX = rowReduce<G>(sumDX);
        for (int64_t k = t; k < cols; k += G) {
            const int64_t i = r * cols + k;
            const double xhat = (double(loadElement(x[i])) - m) * rstd;
            const double d = double(loadElement(g[i])) * (scale ? scale[k] : 1.0);
            dx[i] = storeElement<T>(rstd * (d - sumD / double(cols) - xhat * sumDX / double(cols)));
        }
    }
}

/// Launches a row kernel with a warp per row for short rows, a block per row for long ones.
template<class Warp, class Block>
void launchRows(const CudaRuntime &rt, int64_t rows, int64_t cols, Warp &&warp, Block &&block)
{
    if (rows == 0)
        return;
    if (cols <= 1024)
        warp(rt.gridFor(rows * 32));
    else
        block(unsigned(std::min<int64_t>(rows, int64_t(rt.smCount) * 64)));
    checkLaunch("layer_norm");
}

void layerNormOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const int64_t begin = ctx.intAttr("begin_norm_axis", 1);
    if (begin < 0 || begin > int64_t(x.rank()) || (x.rank() > 0 && begin == int64_t(x.rank())))
        throw RuntimeError(label + ": begin_norm_axis " + std::to_string(begin) + " out of range for x "
            + shapeText(x.shape()));
    const double epsilon = ctx.floatAttr("epsilon", 1e-5);
    const std::vector<int64_t> lead(x.shape().begin(), x.shape().begin() + begin);
    const int64_t rows = numElementsOf(lead), cols = rows > 0 ? x.numElements() / rows : 0;
    const Tensor scale = ctx.hasInput(1) ? doubleParam(ctx, rt, 1, cols, 1.0, label, "scale") : Tensor();
    const Tensor bias = ctx.hasInput(2) ? doubleParam(ctx, rt, 2, cols, 0.0, label, "bias") : Tensor();
    Tensor out = ctx.allocate(x.shape(), x.dtype());
    Tensor stats = rt.allocate({ 2, rows }, DataType::Float64);
    double *mean = static_cast<double *>(stats.rawData()), *var = mean + rows;
    const double *ps = scale.defined() ? static_cast<const double *>(scale.rawData()) : nullptr;
    const double *pb = bias.defined() ? static_cast<const double *>(bias.rawData()) : nullptr;
    cuda::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *px = static_cast<const T *>(x.rawData());
        T *po = static_cast<T *>(out.rawData());
        launchRows(
            rt, rows, cols,
            [&](unsigned grid) {
                launchKernel(&layerNormKernel<32, T>, grid, kBlock, 0, rt.stream, px, po, ps, pb, mean, var,
                    rows, cols, epsilon);
            },
            [&](unsigned grid) {
                launchKernel(&layerNormKernel<kBlock, T>, grid, kBlock, 0, rt.stream, px, po, ps, pb, mean,
                    var, rows, cols, epsilon);
            });
    });
    ctx.setOutput(0, out);
    const DataType statsType
        = x.dtype() == DataType::Float16 || x.dtype() == DataType::BFloat16 ? DataType::Float32 : x.dtype();
    for (size_t r = 1; r < 3 && r < ctx.numOutputs(); ++r) {
        Tensor t = ctx.allocate(lead, statsType);
        castInto(rt,
            Tensor(stats.storage(), { rows }, DataType::Float64, (r - 1) * size_t(rows) * sizeof(double)), t);
        ctx.setOutput(r, t);
    }
}

void layerNormGradOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const char *what = "layer_norm_grad";
    const Tensor x = deviceInput(ctx, 0), g = deviceInput(ctx, 5);
    if (!isFloatingType(g.dtype()) || g.numElements() != x.numElements() || g.dtype() != x.dtype())
        throw RuntimeError(
            std::string(what) + ": out_grad " + g.describe() + " does not match x " + x.describe());
    const int64_t axis
        = int64_t(normalizeAxis(ctx.intAttr("begin_norm_axis", 1), x.rank(), "begin_norm_axis"));
    const double eps = ctx.floatAttr("epsilon", 1e-5);
    int64_t rows = 1;
    for (int64_t i = 0; i < axis; ++i)
        rows *= x.dim(size_t(i));
    const int64_t cols = rows == 0 ? 0 : x.numElements() / rows;
    const Tensor mean = doubleParam(ctx, rt, 3, rows, 0.0, what, "mean");
    const Tensor var = doubleParam(ctx, rt, 4, rows, 1.0, what, "variance");
    const Tensor scale = ctx.hasInput(1) ? doubleParam(ctx, rt, 1, cols, 1.0, what, "scale") : Tensor();
    Tensor dx = ctx.allocate(x.shape(), x.dtype());
    Tensor gxhat = rt.allocate({ rows, cols }, DataType::Float64);
    const double *pm = static_cast<const double *>(mean.rawData()),
                 *pv = static_cast<const double *>(var.rawData());
    const double *ps = scale.defined() ? static_cast<const double *>(scale.rawData()) : nullptr;
    double *pgx = static_cast<double *>(gxhat.rawData());
    cuda::dispatchFloating(x.dtype(), what, [&](auto tag) {
        using T = decltype(tag);
        const T *px = static_cast<const T *>(x.rawData());
        const T *pg = static_cast<const T *>(g.rawData());
        T *pd = static_cast<T *>(dx.rawData());
        launchRows(
            rt, rows, cols,
            [&](unsigned grid) {
                launchKernel(&layerNormGradKernel<32, T>, grid, kBlock, 0, rt.stream, px, pg, pm, pv, ps, pd,
                    pgx, rows, cols, eps);
            },
            [&](unsigned grid) {
                launchKernel(&layerNormGradKernel<kBlock, T>, grid, kBlock, 0, rt.stream, px, pg, pm, pv, ps,
                    pd, pgx, rows, cols, eps);
            });
    });
    if (wanted(ctx, 0))
        ctx.setOutput(0, dx);
    Tensor dscale = rt.allocate({ cols }, DataType::Float64),
           dbias = rt.allocate({ cols }, DataType::Float64);
    reduceInto(rt, gxhat, { true, false }, ReduceOp::Sum, dscale);
    reduceInto(rt, g.reshaped({ rows, cols }), { true, false }, ReduceOp::Sum, dbias);
    storeAffineGrads(ctx, rt, 1, 2, x, dscale, dbias);
}

} // namespace

void registerCudaNormKernels(KernelRegistry &registry)
{
    registry.add("pd_op.batch_norm", &batchNormOp);
    registry.add("pd_op.batch_norm_", &batchNormOp);
    registry.add("pd_op.batch_norm_grad", &batchNormGradOp);
    registry.add("pd_op.layer_norm", &layerNormOp);
    registry.add("pd_op.layer_norm_grad", &layerNormGradOp);
    kernels::registerGroupNormKernels<CudaExec>(registry);
}

PS_CUDA_NAMESPACE_END
