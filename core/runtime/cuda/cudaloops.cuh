#pragma once

// The CUDA launchers of the shared kernels and the loops the CUDA kernels share: grid-stride
// loops over a flat range or an IndexSpace (kernels/indexspace.h; TensorIterator-like offset
// calculators with multiply-shift division, 64-bit when an index or offset needs it), and
// warp/block reductions. launchFlat/launchIndexed have the CPU loop's signature
// (cpu/cpuexec.h). Device lambdas need nvcc --extended-lambda.

#include "core/runtime/cuda/cudaruntime.h"
#include "core/runtime/kernels/indexspace.h"

#include <array>
#include <cstdlib>
#include <cstdint>
#include <vector>

PS_CUDA_NAMESPACE_BEGIN
namespace cuda {

constexpr int kMaxDims = 12;
constexpr int kBlock = 256;

/// Division by a runtime constant through multiply-high and shift (valid for n, d < 2^31).
struct FastDivmod
{
    uint32_t divisor = 1;
    uint32_t multiplier = 1;
    uint32_t shift = 0;

    FastDivmod() = default;
    explicit FastDivmod(uint32_t d)
        : divisor(d)
    {
        for (shift = 0; shift < 31; ++shift)
            if ((1u << shift) >= d)
                break;
        const uint64_t one = 1;
        multiplier = uint32_t(((one << 32) * ((one << shift) - d)) / d + 1);
    }
    __device__ __forceinline__ uint32_t div(uint32_t n) const
    {
        return (__umulhi(n, multiplier) + n) >> shift;
    }
};

/// 32-bit offset calculator (dims innermost first); strides wrap modulo 2^32, which is exact
/// because every final offset is known to fit (IndexSpace::fits32).
template<int N> struct OffsetCalc32
{
    int rank = 0;
    FastDivmod sizes[kMaxDims];
    uint32_t strides[kMaxDims][N];
    uint32_t base[N];

    __device__ __forceinline__ Offsets<N> get(uint32_t linear) const
    {
        uint32_t off[N];
#pragma unroll
        for (int a = 0; a < N; ++a)
            off[a] = base[a];
#pragma unroll
        for (int d = 0; d < kMaxDims; ++d) {
            if (d == rank)
                break;
            const uint32_t q = sizes[d].div(linear);
            const uint32_t r = linear - q * sizes[d].divisor;
#pragma unroll
            for (int a = 0; a < N; ++a)
                off[a] += r * strides[d][a];
            linear = q;
        }
        Offsets<N> o;
#pragma unroll
        for (int a = 0; a < N; ++a)
            o.v[a] = int64_t(off[a]);
        return o;
    }
};

template<int N> struct OffsetCalc64
{
    int rank = 0;
    int64_t sizes[kMaxDims];
    int64_t strides[kMaxDims][N];
    int64_t base[N];

    __device__ __forceinline__ Offsets<N> get(int64_t linear) const
    {
        Offsets<N> o;
#pragma unroll
        for (int a = 0; a < N; ++a)
            o.v[a] = base[a];
        for (int d = 0; d < rank; ++d) {
            const int64_t q = linear / sizes[d];
            const int64_t r = linear - q * sizes[d];
#pragma unroll
            for (int a = 0; a < N; ++a)
                o.v[a] += r * strides[d][a];
            linear = q;
        }
        return o;
    }
};

template<int N> OffsetCalc32<N> makeCalc32(const IndexSpace<N> &space)
{
    OffsetCalc32<N> c;
    c.rank = int(space.sizes.size());
    for (int d = 0; d < c.rank; ++d) {
        const size_t src = space.sizes.size() - 1 - size_t(d);
        c.sizes[d] = FastDivmod(uint32_t(space.sizes[src]));
        for (int a = 0; a < N; ++a)
            c.strides[d][a] = uint32_t(space.strides[src][a]);
    }
    for (int a = 0; a < N; ++a)
        c.base[a] = uint32_t(space.base[a]);
    return c;
}

template<int N> OffsetCalc64<N> makeCalc64(const IndexSpace<N> &space)
{
    OffsetCalc64<N> c;
    c.rank = int(space.sizes.size());
    for (int d = 0; d < c.rank; ++d) {
        const size_t src = space.sizes.size() - 1 - size_t(d);
        c.sizes[d] = space.sizes[src];
        for (int a = 0; a < N; ++a)
            c.strides[d][a] = space.strides[src][a];
    }
    for (int a = 0; a < N; ++a)
        c.base[a] = space.base[a];
    return c;
}

template<class F> __global__ void __launch_bounds__(kBlock) flatKernel(int64_t n, F f)
{
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += int64_t(blockDim.x) * gridDim.x)
        f(i);
}

template<int N, class F>
__global__ void __launch_bounds__(kBlock) indexedKernel32(uint32_t n, OffsetCalc32<N> calc, F f)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        f(int64_t(i), calc.get(i));
}

template<int N, class F>
__global__ void __launch_bounds__(kBlock) indexedKernel64(int64_t n, OffsetCalc64<N> calc, F f)
{
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += int64_t(blockDim.x) * gridDim.x)
        f(i, calc.get(i));
}

/// PIRSCOPE_CUDA_FORCE_WIDE_INDEX set: every indexed launch takes the 64-bit path (tests reach it
/// with small tensors; it is otherwise taken only past 2^31 elements or offsets).
inline bool forceWideIndex()
{
    static const bool force = std::getenv("PIRSCOPE_CUDA_FORCE_WIDE_INDEX") != nullptr;
    return force;
}

/// Runs f(i) for i in [0, n) on the runtime's stream.
template<class F> void launchFlat(const CudaRuntime &rt, int64_t n, F f, const char *what)
{
    if (n <= 0)
        return;
    launchIndependent(&flatKernel<F>, rt.gridFor(n), kBlock, 0, rt.stream, n, f);
    checkLaunch(what);
}

/// Runs f(i, offsets) for every linear index i of `space` (row-major over its sizes), with
/// offsets[a] = base[a] + sum_d coord_d * strides[d][a].
template<int N, class F> void launchIndexed(const CudaRuntime &rt, const IndexSpace<N> &space, F f, const char *what)
{
    const int64_t n = space.count();
    if (n <= 0)
        return;
    if (int(space.sizes.size()) > kMaxDims)
        throw RuntimeError(
            std::string(what) + ": more than " + std::to_string(kMaxDims) + " dims after merging");
    if (space.fits32() && !forceWideIndex())
        launchIndependent(&indexedKernel32<N, F>, rt.gridFor(n), kBlock, 0, rt.stream, uint32_t(n), makeCalc32(space), f);
    else
        launchIndependent(&indexedKernel64<N, F>, rt.gridFor(n), kBlock, 0, rt.stream, n, makeCalc64(space), f);
    checkLaunch(what);
}

template<class T, class Op> __device__ __forceinline__ T warpReduce(T v, Op op)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = op(v, __shfl_down_sync(0xffffffffu, v, o));
    return v;
}

/// Reduces one value per thread over the block (blockDim.x a multiple of 32); every thread
/// gets the result. Safe to call repeatedly in one kernel.
template<class T, class Op> __device__ __forceinline__ T blockReduce(T v, Op op, T identity)
{
    __shared__ T shared[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warpReduce(v, op);
    __syncthreads();
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < int(blockDim.x / 32) ? shared[lane] : identity;
        v = warpReduce(v, op);
        if (lane == 0)
            shared[0] = v;
    }
    __syncthreads();
    return shared[0];
}

struct SumOp
{
    template<class T> __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
struct MaxOp
{
    template<class T> __device__ __forceinline__ T operator()(T a, T b) const
    {
        if (a != a)
            return a;
        return b != b || b > a ? b : a;
    }
};
struct MinOp
{
    template<class T> __device__ __forceinline__ T operator()(T a, T b) const
    {
        if (a != a)
            return a;
        return b != b || b < a ? b : a;
    }
};
struct ProdOp
{
    template<class T> __device__ __forceinline__ T operator()(T a, T b) const { return a * b; }
};

} // namespace cuda
PS_CUDA_NAMESPACE_END
