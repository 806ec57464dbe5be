#pragma once

// Internal to the CUDA backend: included only by core/runtime/cuda/ translation units (it pulls
// in the CUDA runtime and cuBLAS headers, which the rest of core never sees).

#include "core/runtime/cuda/cudaapi.h"
#include "core/runtime/kernels/kernelfault.h"
#include "core/runtime/tensor.h"

#include <cstdint>
#include <functional>

namespace ps {
class KernelContext;
}

PS_CUDA_NAMESPACE_BEGIN

class CudaCachingAllocator;

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
    /// cuBLAS's workspace, taken from the caching allocator (CudaBackend::createHandles).
    size_t cublasWorkspaceBytes = size_t(4) << 20;
    /// Host-mapped pinned record (device pointer) where kernels leave a fault (an index out of
    /// range); synchronize() and toHost() turn it into a RuntimeError.
    volatile KernelFault *fault = nullptr;
    CudaCachingAllocator *allocator = nullptr;

    /// Blocks for a grid-stride loop over `n` items with `block` threads a block: enough to fill
    /// the device a few times over, never more than needed.
    unsigned gridFor(int64_t n, int block = 256) const;
    /// A device tensor of `shape` from this runtime's allocator; contents uninitialised.
    Tensor allocate(std::vector<int64_t> shape, DataType dtype) const;
};

/// Device `index` of this backend: a CUDA device, or cuda-sim's device.
inline Device cudaDevice(int index)
{
#ifdef PIRSCOPE_CUDA_SIM
    return Device::cudaSim(index);
#else
    return Device::cuda(index);
#endif
}

/// The runtime of the CUDA backend running `ctx` (makes its device current on this thread).
CudaRuntime &cudaRuntime(KernelContext &ctx);
/// `t` on the backend's device: the same handle when it is there, else an uploaded copy
/// (host tensors reach kernels from `full_int_array`, `shape64` and fed inputs).
Tensor deviceTensor(KernelContext &ctx, const Tensor &t);
/// Throws RuntimeError when `t` is a device tensor that was lost in a reset of the device.
void requireLive(const Tensor &t);
/// Operand `i` on the device (uploaded when it is a host tensor); RuntimeError when absent.
Tensor deviceInput(KernelContext &ctx, size_t i);

/// True for the errors that leave the device's context unusable until cudaDeviceReset (an
/// illegal address, a failed launch, a device-side assert, ...): every later call fails too.
bool isFatalCudaError(cudaError_t err);
/// When `err` is fatal: marks the current device lost, so each backend on it resets the device
/// and rebuilds its handles before its next use (CudaBackend::runtime()).
void noteCudaError(cudaError_t err);
/// Whether a fatal error was seen on `device` since its last reset, and the count of resets so far.
struct CudaDeviceHealth
{
    bool lost = false;
    uint64_t resets = 0;
};
CudaDeviceHealth cudaDeviceHealth(int device);
/// Runs `reset` under the device's lock when the device is lost (then clears the mark and counts
/// the reset); returns the count of resets.
uint64_t resetLostCudaDevice(int device, const std::function<void()> &reset);

/// Throws RuntimeError "what: cudaErrorName (message)" unless `err` is cudaSuccess; a fatal error
/// marks the device lost (noteCudaError) and says so.
void checkCuda(cudaError_t err, const char *what);
/// Throws RuntimeError "what: CUBLAS_STATUS_..." unless `status` is CUBLAS_STATUS_SUCCESS.
void checkCublas(cublasStatus_t status, const char *what);
/// After a kernel launch: throws RuntimeError naming `what` when the launch failed.
void checkLaunch(const char *what);

PS_CUDA_NAMESPACE_END
