#pragma once

// The CUDA runtime, cuBLAS and device built-ins as cuda-sim provides them to the CUDA backend's
// own sources when g++ compiles them with PIRSCOPE_CUDA_SIM (core/runtime/cuda/cudaapi.h
// includes this instead of <cuda_runtime.h>). Only what the backend uses is here, with CUDA's
// names, values and semantics:
//
// - device memory comes from an arena the host cannot read: a host access outside the copy
//   functions crashes with a message naming the allocation (SimDevice);
// - work queued on a stream (kernels, async copies, memsets, event records, GEMMs) runs when the
//   host synchronizes (stream/event/device synchronize, blocking copies, a copy into pageable
//   memory), so a missing synchronization reads stale data as it would on a GPU;
// - each block's threads run as fibers that meet at __syncthreads and warp shuffles (SimGrid);
//   kernels launched with launchIndependent run their threads straight through;
// - cuBLAS GEMMs are computed column-major on the host with cuBLAS's argument checks (SimBlas).

#include "core/runtime/cudasim/simhalf.h"

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
/// Block-shared memory: a block's threads run as fibers of one host thread, one block at a time.
#define __shared__ static thread_local

namespace ps::cudasim {

struct SimStream;
struct SimEvent;
struct SimBlasHandle;

namespace api {

struct uint3
{
    unsigned x = 0, y = 0, z = 0;
};

struct alignas(16) uint4
{
    unsigned x, y, z, w;
};

struct dim3
{
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
        : x(vx)
        , y(vy)
        , z(vz)
    {
    }
};

/// The running thread's coordinates (set by the grid runner before it resumes a thread).
inline thread_local __attribute__((tls_model("initial-exec"))) uint3 threadIdx;
inline thread_local __attribute__((tls_model("initial-exec"))) uint3 blockIdx;
inline thread_local __attribute__((tls_model("initial-exec"))) dim3 blockDim;
inline thread_local __attribute__((tls_model("initial-exec"))) dim3 gridDim;
constexpr int warpSize = 32;

using __half = ::ps::cudasim::Half;
using __nv_bfloat16 = ::ps::cudasim::BHalf;

enum cudaError_t : int {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorECCUncorrectable = 214,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorHardwareStackError = 714,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorInvalidAddressSpace = 717,
    cudaErrorInvalidPc = 718,
    cudaErrorLaunchFailure = 719,
    cudaErrorUnknown = 999,
};
using cudaError = cudaError_t;

enum cudaMemcpyKind : int {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

using cudaStream_t = ::ps::cudasim::SimStream *;
using cudaEvent_t = ::ps::cudasim::SimEvent *;

constexpr unsigned cudaHostAllocDefault = 0;
constexpr unsigned cudaHostAllocPortable = 1;
constexpr unsigned cudaHostAllocMapped = 2;
constexpr unsigned cudaEventDefault = 0;
constexpr unsigned cudaEventBlockingSync = 1;
constexpr unsigned cudaEventDisableTiming = 2;

struct cudaDeviceProp
{
    char name[256] = {};
    size_t totalGlobalMem = 0;
    size_t sharedMemPerBlock = 0;
    int warpSize = 32;
    int maxThreadsPerBlock = 1024;
    int maxThreadsDim[3] = { 1024, 1024, 64 };
    int maxGridSize[3] = { 2147483647, 65535, 65535 };
    int major = 0;
    int minor = 0;
    int multiProcessorCount = 1;
    int maxThreadsPerMultiProcessor = 2048;
    int l2CacheSize = 0;
};

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDeviceSynchronize();
/// Frees every allocation (device and pinned host), stream and event and clears a sticky error (as
/// CUDA's reset does).
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

cudaError_t cudaMalloc(void **ptr, size_t bytes);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemGetInfo(size_t *freeBytes, size_t *totalBytes);
cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned flags);
cudaError_t cudaMallocHost(void **ptr, size_t bytes);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned flags);

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
    cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemcpyPeerAsync(
    void *dst, int dstDevice, const void *src, int srcDevice, size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void *ptr, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream = nullptr);

cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop);

// ---- cuBLAS ----

using cublasHandle_t = ::ps::cudasim::SimBlasHandle *;
enum cublasStatus_t : int {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15,
};
enum cublasOperation_t : int { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 };
enum cublasMath_t : int {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1,
    CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3,
};
enum cublasComputeType_t : int {
    CUBLAS_COMPUTE_16F = 64,
    CUBLAS_COMPUTE_32F = 68,
    CUBLAS_COMPUTE_32F_PEDANTIC = 69,
    CUBLAS_COMPUTE_64F = 70,
    CUBLAS_COMPUTE_32F_FAST_16F = 74,
    CUBLAS_COMPUTE_32F_FAST_16BF = 75,
    CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
};
enum cudaDataType_t : int { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_16BF = 14 };
using cudaDataType = cudaDataType_t;
enum cublasGemmAlgo_t : int { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 };

cublasStatus_t cublasCreate(cublasHandle_t *handle);
cublasStatus_t cublasDestroy(cublasHandle_t handle);
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasSetWorkspace(cublasHandle_t handle, void *workspace, size_t bytes);
const char *cublasGetStatusName(cublasStatus_t status);
const char *cublasGetStatusString(cublasStatus_t status);
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *A, cudaDataType_t Atype, int lda, const void *B, cudaDataType_t Btype,
    int ldb, const void *beta, void *C, cudaDataType_t Ctype, int ldc, cublasComputeType_t computeType,
    cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
    int m, int n, int k, const void *alpha, const void *A, cudaDataType_t Atype, int lda, long long strideA,
    const void *B, cudaDataType_t Btype, int ldb, long long strideB, const void *beta, void *C,
    cudaDataType_t Ctype, int ldc, long long strideC, int batchCount, cublasComputeType_t computeType,
    cublasGemmAlgo_t algo);
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
    int m, int n, int k, const float *alpha, const float *A, int lda, long long strideA, const float *B, int ldb,
    long long strideB, const float *beta, float *C, int ldc, long long strideC, int batchCount);
cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const float *alpha, const float *A, int lda, const float *B, int ldb, const float *beta, float *C, int ldc);

// ---- device built-ins ----

/// Waits until every live thread of the block has arrived (a fiber switch in cuda-sim).
void __syncthreads();
/// Waits until the live lanes of `mask` in this warp have arrived.
void __syncwarp(unsigned mask = 0xffffffffu);
void __threadfence();

inline float __half2float(__half h)
{
    return float(h);
}
inline __half __float2half_rn(float f)
{
    return __half(f);
}
inline __half __float2half(float f)
{
    return __half(f);
}
inline float __bfloat162float(__nv_bfloat16 h)
{
    return float(h);
}
inline __nv_bfloat16 __float2bfloat16_rn(float f)
{
    return __nv_bfloat16(f);
}
inline __nv_bfloat16 __float2bfloat16(float f)
{
    return __nv_bfloat16(f);
}

inline unsigned __umulhi(unsigned a, unsigned b)
{
    return unsigned((uint64_t(a) * uint64_t(b)) >> 32);
}
template<class T> inline T __ldg(const T *p)
{
    return *p;
}

template<class T> inline T atomicAdd(T *address, T value)
{
    std::atomic_ref<T> ref(*address);
    T old = ref.load(std::memory_order_relaxed);
    while (!ref.compare_exchange_weak(old, T(old + value), std::memory_order_relaxed)) {
    }
    return old;
}
template<class T> inline T atomicMax(T *address, T value)
{
    std::atomic_ref<T> ref(*address);
    T old = ref.load(std::memory_order_relaxed);
    while (old < value && !ref.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
    }
    return old;
}
template<class T> inline T atomicMin(T *address, T value)
{
    std::atomic_ref<T> ref(*address);
    T old = ref.load(std::memory_order_relaxed);
    while (value < old && !ref.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
    }
    return old;
}
template<class T> inline T atomicCAS(T *address, T compare, T value)
{
    std::atomic_ref<T> ref(*address);
    ref.compare_exchange_strong(compare, value, std::memory_order_relaxed);
    return compare;
}
template<class T> inline T atomicExch(T *address, T value)
{
    return std::atomic_ref<T>(*address).exchange(value, std::memory_order_relaxed);
}

} // namespace api

/// The running block's dynamic shared memory (the launch's `shared` bytes, 0xCD at block start).
void *dynamicShared();

/// One warp-level exchange: every live lane of `mask` deposits `bits` and receives the bits lane
/// `source(lane)` deposited (its own when `source` is out of the warp or segment).
uint64_t warpExchange(unsigned mask, uint64_t bits, int (*source)(int lane, int arg, int width), int arg, int width);

template<class T> inline T shuffle(unsigned mask, T v, int (*source)(int, int, int), int arg, int width)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "cuda-sim shuffles values up to 8 bytes");
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    bits = warpExchange(mask, bits, source, arg, width);
    T out;
    std::memcpy(&out, &bits, sizeof(T));
    return out;
}

int shuffleDownSource(int lane, int delta, int width);
int shuffleUpSource(int lane, int delta, int width);
int shuffleXorSource(int lane, int laneMask, int width);
int shuffleIndexSource(int lane, int srcLane, int width);

/// Queues a grid of `kernel` on `stream` (arguments converted to its parameters and copied now,
/// as CUDA does). `cooperative`: run each block's threads as fibers (barriers and shuffles
/// allowed); otherwise straight through, one thread after another.
void enqueueGrid(api::dim3 grid, api::dim3 block, size_t shared, api::cudaStream_t stream, bool cooperative,
    std::function<void()> body, const char *name);

template<class... P, class... A>
void launch(void (*kernel)(P...), api::dim3 grid, api::dim3 block, size_t shared, api::cudaStream_t stream,
    bool cooperative, A &&...args)
{
    std::tuple<std::decay_t<P>...> params(std::forward<A>(args)...);
    enqueueGrid(grid, block, shared, stream, cooperative,
        [kernel, params]() { std::apply(kernel, params); }, __PRETTY_FUNCTION__);
}

} // namespace ps::cudasim

using namespace ps::cudasim::api;

template<class T> inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32)
{
    return ps::cudasim::shuffle(mask, v, &ps::cudasim::shuffleDownSource, int(delta), width);
}
template<class T> inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32)
{
    return ps::cudasim::shuffle(mask, v, &ps::cudasim::shuffleUpSource, int(delta), width);
}
template<class T> inline T __shfl_xor_sync(unsigned mask, T v, int laneMask, int width = 32)
{
    return ps::cudasim::shuffle(mask, v, &ps::cudasim::shuffleXorSource, laneMask, width);
}
template<class T> inline T __shfl_sync(unsigned mask, T v, int srcLane, int width = 32)
{
    return ps::cudasim::shuffle(mask, v, &ps::cudasim::shuffleIndexSource, srcLane, width);
}
