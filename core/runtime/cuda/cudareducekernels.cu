// Reductions over axes: sum, mean, prod, max, min, amax, amin, all, any, and the shared
// cuda::reduceInto / cuda::sumToShape the grad kernels use. Semantics follow
// core/runtime/cpu/cpureducekernels.cpp: floats accumulate in double, integers in int64, max/min
// propagate NaN, mean divides the double sum once. Dims are merged into kept and reduced groups;
// when the innermost dim is reduced a warp walks each output's contiguous run, otherwise each
// thread owns an output and neighbouring threads read neighbouring addresses. Long reductions
// are split into chunks written as partials and reduced again, so a few outputs still fill the
// device.

#include "core/ir/attribute.h"
#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/reducespec.h"
#include "core/runtime/kernels/rowreducekernels.h"

#include <algorithm>
#include <cmath>

PS_CUDA_NAMESPACE_BEGIN
namespace {

using namespace cuda;
using namespace kernels;

/// Merged kept and reduced dims of a contiguous input (outermost first within each group).
struct ReduceGeometry
{
    int keptRank = 0;
    int64_t keptSizes[kMaxDims];
    int64_t keptStrides[kMaxDims];
    int redRank = 0;
    int64_t redSizes[kMaxDims];
    int64_t redStrides[kMaxDims];
    int64_t outputs = 1; ///< M
    int64_t length = 1; ///< L, elements reduced into each output

    __device__ __forceinline__ int64_t keptOffset(int64_t o) const
    {
        int64_t off = 0;
        for (int d = keptRank - 1; d >= 0; --d) {
            const int64_t q = o / keptSizes[d];
            off += (o - q * keptSizes[d]) * keptStrides[d];
            o = q;
        }
        return off;
    }
    __device__ __forceinline__ int64_t redOffset(int64_t r) const
    {
        if (redRank == 1)
            return r * redStrides[0];
        int64_t off = 0;
        for (int d = redRank - 1; d >= 0; --d) {
            const int64_t q = r / redSizes[d];
            off += (r - q * redSizes[d]) * redStrides[d];
            r = q;
        }
        return off;
    }
};

ReduceGeometry makeGeometry(const std::vector<int64_t> &shape, const std::vector<bool> &reduce)
{
    ReduceGeometry g;
    const std::vector<int64_t> strides = contiguousStrides(shape);
    int lastKind = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
        const int64_t d = shape[i];
        const bool red = reduce[i];
        (red ? g.length : g.outputs) *= d;
        if (d == 1)
            continue;
        int &rank = red ? g.redRank : g.keptRank;
        int64_t *sizes = red ? g.redSizes : g.keptSizes;
        int64_t *strs = red ? g.redStrides : g.keptStrides;
        if (int(red) == lastKind && rank > 0) {
            sizes[rank - 1] *= d;
            strs[rank - 1] = strides[i];
        } else {
            if (rank == kMaxDims)
                throw RuntimeError("reduce: too many alternating reduced and kept dims");
            sizes[rank] = d;
            strs[rank] = strides[i];
            ++rank;
        }
        lastKind = int(red);
    }
    return g;
}

/// The combine function and identity of each op, on the accumulator type A.
template<class A> struct OpTraits
{
    static A identity(ReduceOp op)
    {
        switch (op) {
        case ReduceOp::Prod:
        case ReduceOp::All:
            return A(1);
        case ReduceOp::Max:
            return lowest<A>();
        case ReduceOp::Min:
            return highest<A>();
        default:
            return A(0);
        }
    }
};

template<class T, class Op>
__global__ void __launch_bounds__(kBlock) reduceRowsKernel(const T *in, ReduceAcc<T> *out, ReduceGeometry g,
    int64_t chunks, int64_t chunkLen, double divideBy, Op op, ReduceAcc<T> identity)
{
    using A = ReduceAcc<T>;
    const int lane = threadIdx.x & 31;
    const int64_t items = g.outputs * chunks;
    const int64_t warps = (int64_t(gridDim.x) * blockDim.x) >> 5;
    for (int64_t w = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; w < items; w += warps) {
        const int64_t o = w / chunks, c = w - o * chunks;
        const int64_t base = g.keptOffset(o);
        const int64_t begin = c * chunkLen, end = km::min(g.length, begin + chunkLen);
        A acc = identity;
        for (int64_t r = begin + lane; r < end; r += 32)
            acc = op(acc, A(loadElement(in[base + g.redOffset(r)])));
        acc = warpReduce(acc, op);
        if (lane == 0)
            out[w] = divideBy > 0 ? A(double(acc) / divideBy) : acc;
    }
}

template<class T, class Op>
__global__ void __launch_bounds__(kBlock) reduceColumnsKernel(const T *in, ReduceAcc<T> *out,
    ReduceGeometry g, int64_t chunks, int64_t chunkLen, double divideBy, Op op, ReduceAcc<T> identity)
{
    using A = ReduceAcc<T>;
    const int64_t items = g.outputs * chunks;
    for (int64_t item = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; item < items;
         item += int64_t(gridDim.x) * blockDim.x) {
        const int64_t c = item / g.outputs, o = item - c * g.outputs;
        const int64_t base = g.keptOffset(o);
        const int64_t begin = c * chunkLen, end = km::min(g.length, begin + chunkLen);
        A acc = identity;
        for (int64_t r = begin; r < end; ++r)
            acc = op(acc, A(loadElement(in[base + g.redOffset(r)])));
        out[item] = divideBy > 0 ? A(double(acc) / divideBy) : acc;
    }
}

template<class T, class Op>
void launchReduce(CudaRuntime &rt, const Tensor &x, const ReduceGeometry &g, bool rows, int64_t chunks,
    int64_t chunkLen, double divideBy, Op op, ReduceOp kind, Tensor &partial)
{
    using A = ReduceAcc<T>;
    const T *in = static_cast<const T *>(x.rawData());
    A *out = static_cast<A *>(partial.rawData());
    const int64_t items = g.outputs * chunks;
    if (rows)
        launchKernel(&reduceRowsKernel<T, Op>, rt.gridFor(items * 32), kBlock, 0, rt.stream, in, out, g,
            chunks, chunkLen, divideBy, op, OpTraits<A>::identity(kind));
    else
        launchIndependent(&reduceColumnsKernel<T, Op>, rt.gridFor(items), kBlock, 0, rt.stream, in, out, g,
            chunks, chunkLen, divideBy, op, OpTraits<A>::identity(kind));
    checkLaunch("reduce");
}

/// Reduces x (contiguous, `shape`) over `reduce` into a new accumulator-typed tensor of the kept
/// element count; `divideBy` > 0 divides each result (mean).
Tensor reduceToAcc(
    CudaRuntime &rt, const Tensor &x, const std::vector<bool> &reduce, ReduceOp kind, double divideBy)
{
    const ReduceGeometry g = makeGeometry(x.shape(), reduce);
    const bool floating = isFloatingType(x.dtype());
    const DataType accType = floating ? DataType::Float64 : DataType::Int64;
    // The innermost non-trivial dim decides the walk: reduced and contiguous -> rows.
    const bool rows = g.redRank > 0 && g.redStrides[g.redRank - 1] == 1;
    const int64_t target = rows ? int64_t(rt.smCount) * 64 : int64_t(rt.smCount) * 2048;
    const int64_t minChunk = rows ? 1024 : 64;
    int64_t chunks = 1;
    if (g.outputs > 0 && g.outputs < target && g.length > minChunk)
        chunks = std::clamp<int64_t>((target + g.outputs - 1) / g.outputs, 1,
            std::min<int64_t>(4096, (g.length + minChunk - 1) / minChunk));
    const int64_t chunkLen = chunks > 1 ? (g.length + chunks - 1) / chunks : g.length;
    Tensor partial = rt.allocate({ g.outputs * chunks }, accType);
    if (g.outputs == 0)
        return partial;
    const double firstDivide = chunks == 1 ? divideBy : 0.0;
    cuda::dispatchAll(x.dtype(), "reduce", [&](auto tag) {
        using T = decltype(tag);
        switch (kind) {
        case ReduceOp::Sum:
        case ReduceOp::Mean:
            return launchReduce<T>(rt, x, g, rows, chunks, chunkLen, firstDivide, SumOp {}, kind, partial);
        case ReduceOp::Prod:
            return launchReduce<T>(rt, x, g, rows, chunks, chunkLen, firstDivide, ProdOp {}, kind, partial);
        case ReduceOp::Max:
        case ReduceOp::Any:
            return launchReduce<T>(rt, x, g, rows, chunks, chunkLen, firstDivide, MaxOp {}, kind, partial);
        case ReduceOp::Min:
        case ReduceOp::All:
            return launchReduce<T>(rt, x, g, rows, chunks, chunkLen, firstDivide, MinOp {}, kind, partial);
        }
    });
    if (chunks == 1)
        return partial;
    // Partials are [outputs, chunks] (rows) or [chunks, outputs] (columns): reduce the chunk dim.
    const Tensor view = partial.reshaped(
        rows ? std::vector<int64_t> { g.outputs, chunks } : std::vector<int64_t> { chunks, g.outputs });
    const ReduceOp combine = kind == ReduceOp::Mean ? ReduceOp::Sum : kind;
    return reduceToAcc(rt, view, rows ? std::vector<bool> { false, true } : std::vector<bool> { true, false },
        combine, divideBy);
}

void reduceKernel(KernelContext &ctx, ReduceOp op)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    const ReduceSpec spec = reduceSpec(ctx, op, x.shape(), x.dtype());
    Tensor out = ctx.allocate(spec.outShape, spec.outType);
    reduceInto(rt, x, spec.reduced, op, out);
    ctx.setOutput(0, out);
}

template<ReduceOp Op> void reduceOpKernel(KernelContext &ctx)
{
    reduceKernel(ctx, Op);
}

} // namespace

namespace cuda {

bool isFloatingType(DataType t)
{
    return t == DataType::Float32 || t == DataType::Float64 || t == DataType::Float16
        || t == DataType::BFloat16;
}

void reduceInto(CudaRuntime &rt, const Tensor &x, const std::vector<bool> &reduce, ReduceOp op, Tensor &out)
{
    if (reduce.size() != x.rank())
        throw RuntimeError("reduce: flags do not match " + x.describe());
    int64_t count = 1;
    for (size_t i = 0; i < x.rank(); ++i)
        if (reduce[i])
            count *= x.dim(i);
    Tensor source = x;
    if (op == ReduceOp::All || op == ReduceOp::Any)
        source = cast(rt, x, DataType::Bool);
    const double divideBy = op == ReduceOp::Mean ? double(count) : 0.0;
    const Tensor acc
        = op == ReduceOp::Mean && count == 0 ? Tensor() : reduceToAcc(rt, source, reduce, op, divideBy);
    if (!acc.defined()) {
        fill(rt, out, std::nan(""));
        return;
    }
    castInto(rt, acc, out);
}

Tensor sumToShape(CudaRuntime &rt, const Tensor &x, const std::vector<int64_t> &shape)
{
    if (x.shape() == shape)
        return x;
    if (shape.size() > x.rank())
        throw RuntimeError("cannot sum " + x.describe() + " down to " + shapeText(shape));
    const size_t lead = x.rank() - shape.size();
    std::vector<bool> reduce(x.rank(), false);
    for (size_t i = 0; i < x.rank(); ++i) {
        if (i < lead) {
            reduce[i] = true;
            continue;
        }
        const int64_t t = shape[i - lead];
        if (t == x.dim(i))
            continue;
        if (t != 1)
            throw RuntimeError("cannot sum " + x.describe() + " down to " + shapeText(shape));
        reduce[i] = true;
    }
    Tensor out = rt.allocate(shape, x.dtype());
    reduceInto(rt, x, reduce, ReduceOp::Sum, out);
    return out;
}

} // namespace cuda

void registerCudaReduceKernels(KernelRegistry &registry)
{
    registry.add("pd_op.sum", &reduceOpKernel<ReduceOp::Sum>);
    registry.add("pd_op.mean", &reduceOpKernel<ReduceOp::Mean>);
    registry.add("pd_op.prod", &reduceOpKernel<ReduceOp::Prod>);
    registry.add("pd_op.max", &reduceOpKernel<ReduceOp::Max>);
    registry.add("pd_op.min", &reduceOpKernel<ReduceOp::Min>);
    registry.add("pd_op.amax", &reduceOpKernel<ReduceOp::Max>);
    registry.add("pd_op.amin", &reduceOpKernel<ReduceOp::Min>);
    registry.add("pd_op.all", &reduceOpKernel<ReduceOp::All>);
    registry.add("pd_op.any", &reduceOpKernel<ReduceOp::Any>);
    kernels::registerRowReduceKernels<CudaExec>(registry);
}

PS_CUDA_NAMESPACE_END
