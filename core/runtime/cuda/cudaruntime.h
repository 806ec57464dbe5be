#pragma once

// Internal to the CUDA backend: included only by core/runtime/cuda/ translation units (it pulls
// in the CUDA runtime and cuBLAS headers, which the rest of core never sees).

#include "core/runtime/tensor.h"

#include <cstdint>
#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace ps {

class CudaCachingAllocator;
class KernelContext;

/// Codes a kernel leaves in CudaRuntime::deviceError when it meets bad data it cannot report
/// at once (an index out of range); synchronize() and toHost() turn them into a RuntimeError.
enum class CudaDeviceError : uint32_t {
    None = 0,
    IndexOutOfRange = 1, ///< embedding ids
    LabelOutOfRange = 2, ///< cross-entropy labels
    DivideByZero = 3, ///< integer division or remainder by zero
};

/// The handles every CUDA kernel uses: one stream (all work is ordered on it), the cuBLAS
/// handle bound to that stream, device properties for launch sizes, and the device-error word.
struct CudaRuntime
{
    int device = 0;
    cudaStream_t stream = nullptr;
    cublasHandle_t cublas = nullptr;
    int smCount = 1;
    int maxThreadsPerSm = 2048;
    /// float32 GEMMs may use TF32 tensor cores (off by default).
    bool allowTf32 = false;
    /// Host-mapped pinned word (device pointer); kernels store a CudaDeviceError code into it.
    volatile uint32_t *deviceError = nullptr;
    CudaCachingAllocator *allocator = nullptr;

    /// Blocks for a grid-stride loop over `n` items with `block` threads a block: enough to fill
    /// the device a few times over, never more than needed.
    unsigned gridFor(int64_t n, int block = 256) const;
    /// A device tensor of `shape` from this runtime's allocator; contents uninitialised.
    Tensor allocate(std::vector<int64_t> shape, DataType dtype) const;
};

/// The runtime of the CUDA backend running `ctx` (makes its device current on this thread).
CudaRuntime &cudaRuntime(KernelContext &ctx);
/// `t` on the backend's device: the same handle when it is there, else an uploaded copy
/// (host tensors reach kernels from `full_int_array`, `shape64` and fed inputs).
Tensor deviceTensor(KernelContext &ctx, const Tensor &t);

/// Throws RuntimeError "what: cudaErrorName (message)" unless `err` is cudaSuccess.
void checkCuda(cudaError_t err, const char *what);
/// Throws RuntimeError "what: CUBLAS_STATUS_..." unless `status` is CUBLAS_STATUS_SUCCESS.
void checkCublas(cublasStatus_t status, const char *what);
/// After a kernel launch: throws RuntimeError naming `what` when the launch failed.
void checkLaunch(const char *what);

} // namespace ps
