#pragma once

// Launch helpers shared by the CUDA kernels: grid-stride loops over flat or broadcast/strided
// index spaces (TensorIterator-like offset calculators with multiply-shift division), and
// warp/block reductions. Device lambdas need nvcc --extended-lambda.

#include "core/runtime/cuda/cudaruntime.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ps::cuda {

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

/// An index space: dims outermost first and, per operand, the element stride of each dim
/// (0 where the operand is broadcast, negative where it is read backwards) and a base offset.
template<int N> struct IndexSpace
{
    std::vector<int64_t> sizes;
    std::vector<std::array<int64_t, N>> strides;
    std::array<int64_t, N> base {};

    int64_t count() const
    {
        int64_t n = 1;
        for (int64_t s : sizes)
            n *= s;
        return n;
    }
    /// Drops size-1 dims and merges neighbours that are contiguous for every operand.
    void coalesce()
    {
        std::vector<int64_t> s;
        std::vector<std::array<int64_t, N>> st;
        for (size_t d = 0; d < sizes.size(); ++d) {
            if (sizes[d] == 1)
                continue;
            if (!s.empty()) {
                bool merge = true;
                for (int a = 0; a < N; ++a)
                    merge = merge && st.back()[a] == strides[d][a] * sizes[d];
                if (merge) {
                    s.back() *= sizes[d];
                    st.back() = strides[d];
                    continue;
                }
            }
            s.push_back(sizes[d]);
            st.push_back(strides[d]);
        }
        sizes = std::move(s);
        strides = std::move(st);
    }
    /// Every index and offset fits 32-bit arithmetic.
    bool fits32() const
    {
        const int64_t limit = int64_t(1) << 31;
        if (count() >= limit)
            return false;
        for (int a = 0; a < N; ++a) {
            int64_t hi = base[a], lo = base[a];
            for (size_t d = 0; d < sizes.size(); ++d) {
                const int64_t span = strides[d][a] * (sizes[d] - 1);
                (span > 0 ? hi : lo) += span;
                if (sizes[d] >= limit)
                    return false;
            }
            if (hi >= limit || lo < 0)
                return false;
        }
        return true;
    }
};

template<int N> struct Offsets
{
    int64_t v[N];
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

/// Runs f(i) for i in [0, n) on the runtime's stream.
template<class F> void launchFlat(const CudaRuntime &rt, int64_t n, F f, const char *what)
{
    if (n <= 0)
        return;
    flatKernel<<<rt.gridFor(n), kBlock, 0, rt.stream>>>(n, f);
    checkLaunch(what);
}

/// Runs f(i, offsets) for every linear index i of `space` (row-major over its sizes), with
/// offsets[a] = base[a] + sum_d coord_d * strides[d][a].
template<int N, class F> void launchIndexed(const CudaRuntime &rt, IndexSpace<N> space, F f, const char *what)
{
    const int64_t n = space.count();
    if (n <= 0)
        return;
    if (int(space.sizes.size()) > kMaxDims)
        throw RuntimeError(
            std::string(what) + ": more than " + std::to_string(kMaxDims) + " dims after merging");
    if (space.fits32())
        indexedKernel32<N><<<rt.gridFor(n), kBlock, 0, rt.stream>>>(uint32_t(n), makeCalc32(space), f);
    else
        indexedKernel64<N><<<rt.gridFor(n), kBlock, 0, rt.stream>>>(n, makeCalc64(space), f);
    checkLaunch(what);
}

/// Row-major contiguous element strides of `shape`.
inline std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape)
{
    std::vector<int64_t> s(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;)
        s[d - 1] = s[d] * shape[d];
    return s;
}

/// Strides of `shape` read as if broadcast to `out` (NumPy rules: right-aligned, size-1 dims
/// and missing leading dims get stride 0).
inline std::vector<int64_t> broadcastStrides(
    const std::vector<int64_t> &shape, const std::vector<int64_t> &out)
{
    std::vector<int64_t> strides(out.size(), 0);
    const std::vector<int64_t> own = contiguousStrides(shape);
    const size_t lead = out.size() - shape.size();
    for (size_t d = 0; d < shape.size(); ++d)
        strides[lead + d] = shape[d] == 1 ? 0 : own[d];
    return strides;
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

} // namespace ps::cuda
