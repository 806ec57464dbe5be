#pragma once

#include "core/runtime/cuda/cudanamespace.h"

#include "core/runtime/backend.h"
#include "core/runtime/tensor.h"

#include <cstddef>
#include <memory>
#include <string>

PS_CUDA_NAMESPACE_BEGIN

struct CudaRuntime;
class CudaPinnedStaging;

/// The CUDA backend of one device: the caching device allocator, one stream that orders all
/// work, a cuBLAS handle on that stream (float32 GEMMs in full float32 unless TF32 is allowed),
/// pinned staging for host copies, CUDA events for device time, and the kernels in
/// core/runtime/cuda/*.cu. This header is free of CUDA headers; kernels reach the handles
/// through cudaruntime.h.
class CudaBackend final : public Backend
{
public:
    /// The backend of device `index`, or nullptr with `reason` naming the failing call and the
    /// driver's message ("cudaGetDeviceCount: no CUDA-capable device is detected").
    static std::unique_ptr<Backend> create(int index, std::string &reason);
    ~CudaBackend() override;

    Device device() const override;
    std::string name() const override;
    Allocator &allocator() override;
    const KernelRegistry &kernels() const override { return m_kernels; }
    Tensor toHost(const Tensor &t) override;
    Tensor toDevice(const Tensor &t) override;
    /// Waits for the stream; throws RuntimeError for a failed kernel or a deferred device error
    /// (an embedding id or label out of range).
    void synchronize() override;
    void copy(const Tensor &src, Tensor &dst) override;
    void fillBytes(Tensor &t, unsigned char byte) override;
    /// Two passes over the tensor where it lives (moments and counts, then the histogram);
    /// host tensors go to computeStatsHost.
    TensorStats stats(const Tensor &t, int bins = 64) override;

    /// TF32 tensor cores for float32 GEMMs (matmul, convolution). Off by default, so float32
    /// results match the CPU backend within float32 rounding; on is several times faster.
    void setAllowTf32(bool allow);
    bool allowTf32() const;

    /// Device time of the work queued between startTimer() and elapsedMs(): both record an
    /// event on the stream; elapsedMs() waits for the second one.
    void startTimer();
    double elapsedMs();

    struct MemoryInfo
    {
        size_t inUse = 0; ///< held by live tensors
        size_t cached = 0; ///< freed blocks kept for reuse
        size_t peak = 0;
        size_t deviceFree = 0; ///< cudaMemGetInfo
        size_t deviceTotal = 0;
    };
    MemoryInfo memoryInfo() const;
    /// Returns cached device blocks to the driver.
    void releaseCache();

    /// The stream, cuBLAS handle and device facts the kernels use. After a fatal device error
    /// (an illegal address: the context is lost) this first resets the device and rebuilds the
    /// handles, so the next run works; tensors made before the reset are stale (requireLive).
    CudaRuntime &runtime();

private:
    CudaBackend(std::unique_ptr<CudaRuntime> runtime, std::string deviceName);
    void checkDeviceError();
    /// Resets a lost device (or rebuilds handles another backend's reset invalidated).
    void ensureUsable();
    /// Stream, cuBLAS handle and its workspace, timer events, fault record.
    void createHandles();
    void destroyHandles();

    std::unique_ptr<CudaRuntime> m_runtime;
    std::unique_ptr<CudaPinnedStaging> m_staging;
    std::string m_deviceName;
    KernelRegistry m_kernels;
    void *m_timerStart = nullptr; ///< cudaEvent_t
    void *m_timerStop = nullptr;
    void *m_errorWord = nullptr; ///< host side of CudaRuntime::fault
    Tensor m_cublasWorkspace; ///< from the caching allocator, so cuBLAS never calls cudaMalloc
    uint64_t m_resets = 0; ///< device resets seen when the handles were made
};

PS_CUDA_NAMESPACE_END
