// TensorStats on the device in two streaming passes. Pass 1: every thread walks the tensor with
// grid-stride 16-byte vector loads (two in flight) and keeps counts, min/max and shifted sums
// in double (its first finite value as the shift, so the variance does not cancel), combined
// per block with Chan's formula and then by one final block. Pass 2: a histogram against the
// min/max pass 1 left in device memory (no host round trip between passes), counted in shared
// memory per block. The bin of a value is the host's int((v - lo) / width), computed with a
// multiply and checked with the exact division near bin edges, so counts match
// computeStatsHost exactly. One host copy at the end.

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudastatistics.h"
#include "core/runtime/kernels/hostdevice.h"
#include "core/runtime/kernels/kernelargs.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

PS_CUDA_NAMESPACE_BEGIN
namespace {

using namespace cuda;
using namespace kernels;

constexpr int kStatsBlock = 256;
constexpr int kMaxSharedBins = 8192;

/// Moments and counts of a set of values; combined with Chan's parallel formula.
struct Moments
{
    double n = 0, mean = 0, m2 = 0;
    double lo = INFINITY, hi = -INFINITY;
    unsigned long long nan = 0, posInf = 0, negInf = 0, zero = 0;

    __device__ __forceinline__ void merge(const Moments &o)
    {
        if (o.n > 0) {
            const double total = n + o.n, delta = o.mean - mean;
            mean += delta * (o.n / total);
            m2 += o.m2 + delta * delta * (n * o.n / total);
            n = total;
        }
        lo = fmin(lo, o.lo);
        hi = fmax(hi, o.hi);
        nan += o.nan;
        posInf += o.posInf;
        negInf += o.negInf;
        zero += o.zero;
    }
    __device__ __forceinline__ Moments shuffleDown(int offset) const
    {
        Moments o;
        o.n = __shfl_down_sync(0xffffffffu, n, offset);
        o.mean = __shfl_down_sync(0xffffffffu, mean, offset);
        o.m2 = __shfl_down_sync(0xffffffffu, m2, offset);
        o.lo = __shfl_down_sync(0xffffffffu, lo, offset);
        o.hi = __shfl_down_sync(0xffffffffu, hi, offset);
        o.nan = __shfl_down_sync(0xffffffffu, nan, offset);
        o.posInf = __shfl_down_sync(0xffffffffu, posInf, offset);
        o.negInf = __shfl_down_sync(0xffffffffu, negInf, offset);
        o.zero = __shfl_down_sync(0xffffffffu, zero, offset);
        return o;
    }
};

/// One thread's running statistics before they become Moments.
struct Accumulator
{
    double shift = 0, s1 = 0, s2 = 0, count = 0;
    double lo = INFINITY, hi = -INFINITY;
    unsigned long long nan = 0, posInf = 0, negInf = 0, zero = 0;

    __device__ __forceinline__ void add(double v)
    {
        if (v != v) {
            ++nan;
            return;
        }
        if (km::isinf(v)) {
            ++(v > 0 ? posInf : negInf);
            return;
        }
        if (count == 0)
            shift = v;
        zero += v == 0.0;
        count += 1;
        const double d = v - shift;
        s1 += d;
        s2 = fma(d, d, s2);
        lo = fmin(lo, v);
        hi = fmax(hi, v);
    }
    __device__ __forceinline__ Moments moments() const
    {
        Moments m;
        m.n = count;
        if (count > 0) {
            m.mean = shift + s1 / count;
            m.m2 = fmax(s2 - s1 * s1 / count, 0.0);
        }
        m.lo = lo;
        m.hi = hi;
        m.nan = nan;
        m.posInf = posInf;
        m.negInf = negInf;
        m.zero = zero;
        return m;
    }
};

__device__ Moments blockMerge(Moments m)
{
    // Raw storage: a __shared__ array of a class with member initializers would need dynamic
    // initialisation.
    alignas(16) __shared__ unsigned char storage[32 * sizeof(Moments)];
    Moments *warps = reinterpret_cast<Moments *>(storage);
    for (int o = 16; o > 0; o >>= 1)
        m.merge(m.shuffleDown(o));
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warps[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < int(blockDim.x / 32) ? warps[lane] : Moments();
        for (int o = 16; o > 0; o >>= 1)
            m.merge(m.shuffleDown(o));
    }
    return m;
}

/// The vector-aligned middle of a tensor: `head` leading elements, `vectors` 16-byte vectors.
template<class T> struct Split
{
    static constexpr int kPerVector = 16 / sizeof(T);
    int64_t head = 0, vectors = 0, n = 0;
};

template<class T> Split<T> splitOf(const T *p, int64_t n)
{
    Split<T> s;
    s.n = n;
    const uintptr_t misalign = reinterpret_cast<uintptr_t>(p) % 16;
    s.head = std::min<int64_t>(n, int64_t(misalign ? (16 - misalign) / sizeof(T) : 0));
    s.vectors = (n - s.head) / Split<T>::kPerVector;
    return s;
}

/// Calls fn(value as double) for every element: vectors two at a time, then head and tail.
template<class T, class Fn> __device__ __forceinline__ void forEachValue(const T *p, Split<T> s, Fn &&fn)
{
    constexpr int kPer = Split<T>::kPerVector;
    const int64_t tid = int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                  stride = int64_t(gridDim.x) * blockDim.x;
    const uint4 *vp = reinterpret_cast<const uint4 *>(p + s.head);
    const auto consume = [&](const uint4 &raw) {
        T vals[kPer];
        memcpy(vals, &raw, 16);
#pragma unroll
        for (int k = 0; k < kPer; ++k)
            fn(double(loadElement(vals[k])));
    };
    int64_t i = tid;
    for (; i + stride < s.vectors; i += 2 * stride) {
        const uint4 a = __ldg(vp + i), b = __ldg(vp + i + stride);
        consume(a);
        consume(b);
    }
    if (i < s.vectors)
        consume(__ldg(vp + i));
    const int64_t tailStart = s.head + s.vectors * kPer, rest = s.head + (s.n - tailStart);
    for (int64_t j = tid; j < rest; j += stride)
        fn(double(loadElement(p[j < s.head ? j : tailStart + (j - s.head)])));
}

template<class T>
__global__ void __launch_bounds__(kStatsBlock) momentsKernel(const T *p, Split<T> s, Moments *partials)
{
    Accumulator acc;
    forEachValue(p, s, [&](double v) { acc.add(v); });
    const Moments m = blockMerge(acc.moments());
    if (threadIdx.x == 0)
        partials[blockIdx.x] = m;
}

__global__ void __launch_bounds__(1024)
    finishMomentsKernel(const Moments *partials, int count, Moments *result)
{
    Moments m;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        m.merge(partials[i]);
    m = blockMerge(m);
    if (threadIdx.x == 0)
        *result = m;
}

__device__ __forceinline__ int binOf(double v, double lo, double width, double inverse, int bins)
{
    int b = 0;
    if (width > 0 && inverse == 0) {
        b = int((v - lo) / width); // a denormal width whose inverse overflows
    } else if (width > 0) {
        const double d = v - lo, q = d * inverse;
        b = int(q);
        const double frac = q - double(b);
        if (frac < 1e-9 || frac > 1.0 - 1e-9)
            b = int(d / width); // the host's exact expression near a bin edge
    }
    return b < 0 ? 0 : (b > bins - 1 ? bins - 1 : b);
}

template<class T>
__global__ void __launch_bounds__(kStatsBlock)
    histogramKernel(const T *p, Split<T> s, const Moments *result, int bins, unsigned long long *hist)
{
    PS_DYNAMIC_SHARED(unsigned int, local);
    const bool shared = bins <= kMaxSharedBins;
    if (shared)
        for (int b = threadIdx.x; b < bins; b += blockDim.x)
            local[b] = 0;
    __syncthreads();
    const double lo = result->lo, hi = result->hi;
    const double width = (hi - lo) / bins;
    const double inverse = width > 0 && km::isfinite(1.0 / width) ? 1.0 / width : 0.0;
    forEachValue(p, s, [&](double v) {
        if (km::isfinite(v)) {
            const int b = binOf(v, lo, width, inverse, bins);
            if (shared)
                atomicAdd(local + b, 1u);
            else
                atomicAdd(hist + b, 1ull);
        }
    });
    __syncthreads();
    if (shared)
        for (int b = threadIdx.x; b < bins; b += blockDim.x)
            if (local[b])
                atomicAdd(hist + b, (unsigned long long)local[b]);
}

template<class T> TensorStats statsTyped(CudaRuntime &rt, const Tensor &t, int bins)
{
    const T *p = static_cast<const T *>(t.rawData());
    const Split<T> split = splitOf(p, t.numElements());
    const int64_t work = std::max<int64_t>(split.vectors, split.n - split.vectors * Split<T>::kPerVector);
    const int blocks = int(std::clamp<int64_t>((work + kStatsBlock - 1) / kStatsBlock, 1,
        int64_t(rt.smCount) * std::max(1, rt.maxThreadsPerSm / kStatsBlock)));
    const int histBins = std::max(bins, 0);
    // One scratch buffer: the result, the histogram, then the per-block partials.
    const size_t histOffset = (sizeof(Moments) + 255) / 256 * 256;
    const size_t partialOffset = histOffset + (size_t(histBins) * 8 + 255) / 256 * 256;
    Tensor scratch
        = rt.allocate({ int64_t(partialOffset + size_t(blocks) * sizeof(Moments)) }, DataType::UInt8);
    char *base = static_cast<char *>(scratch.rawData());
    auto *result = reinterpret_cast<Moments *>(base);
    auto *hist = reinterpret_cast<unsigned long long *>(base + histOffset);
    auto *partials = reinterpret_cast<Moments *>(base + partialOffset);
    launchKernel(&momentsKernel<T>, blocks, kStatsBlock, 0, rt.stream, p, split, partials);
    checkLaunch("statistics");
    launchKernel(&finishMomentsKernel, 1, 1024, 0, rt.stream, partials, blocks, result);
    checkLaunch("statistics");
    if (histBins > 0) {
        checkCuda(cudaMemsetAsync(hist, 0, size_t(histBins) * 8, rt.stream), "statistics");
        const size_t sharedBytes = histBins <= kMaxSharedBins ? size_t(histBins) * sizeof(unsigned int) : 0;
        launchKernel(&histogramKernel<T>, blocks, kStatsBlock, sharedBytes, rt.stream, p, split, result, histBins, hist);
        checkLaunch("statistics histogram");
    }
    std::vector<char> host(histOffset + size_t(histBins) * 8);
    checkCuda(cudaMemcpyAsync(host.data(), base, host.size(), cudaMemcpyDeviceToHost, rt.stream),
        "statistics copy");
    checkCuda(cudaStreamSynchronize(rt.stream), "statistics");
    Moments m;
    std::memcpy(&m, host.data(), sizeof(Moments));
    TensorStats s;
    s.count = t.numElements();
    s.nanCount = int64_t(m.nan);
    s.posInfCount = int64_t(m.posInf);
    s.negInfCount = int64_t(m.negInf);
    s.zeroCount = int64_t(m.zero);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const bool any = m.n > 0;
    s.min = any ? m.lo : nan;
    s.max = any ? m.hi : nan;
    s.mean = any ? m.mean : nan;
    s.std = any ? std::sqrt(m.m2 / m.n) : nan;
    if (histBins > 0 && any) {
        s.histogram.resize(size_t(histBins));
        for (int b = 0; b < histBins; ++b) {
            unsigned long long c = 0;
            std::memcpy(&c, host.data() + histOffset + size_t(b) * 8, 8);
            s.histogram[size_t(b)] = int64_t(c);
        }
    }
    return s;
}

} // namespace

TensorStats computeStatsCuda(CudaRuntime &rt, const Tensor &t, int bins)
{
    TensorStats s;
    cuda::dispatchAll(t.dtype(), "statistics", [&](auto tag) { s = statsTyped<decltype(tag)>(rt, t, bins); });
    return s;
}

PS_CUDA_NAMESPACE_END
