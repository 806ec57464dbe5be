#include "core/runtime/cuda/cudaruntime.h"

#include "core/runtime/cuda/cudabackend.h"
#include "core/runtime/cuda/cudacachingallocator.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/storage.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <utility>

PS_CUDA_NAMESPACE_BEGIN

unsigned CudaRuntime::gridFor(int64_t n, int block) const
{
    const int64_t blocks = (n + block - 1) / block;
    const int64_t cap = int64_t(smCount) * std::max(1, maxThreadsPerSm / block) * 4;
    return unsigned(std::clamp<int64_t>(blocks, 1, cap));
}

Tensor CudaRuntime::allocate(std::vector<int64_t> shape, DataType dtype) const
{
    return Tensor(std::move(shape), dtype, *allocator);
}

CudaRuntime &cudaRuntime(KernelContext &ctx)
{
    auto *backend = dynamic_cast<CudaBackend *>(&ctx.backend());
    if (!backend)
        throw RuntimeError("a CUDA kernel ran on the " + ctx.backend().name() + " backend");
    CudaRuntime &rt = backend->runtime();
    int current = -1;
    if (cudaGetDevice(&current) != cudaSuccess || current != rt.device)
        checkCuda(cudaSetDevice(rt.device), "cudaSetDevice");
    return rt;
}

Tensor deviceTensor(KernelContext &ctx, const Tensor &t)
{
    if (t.defined() && t.device() == ctx.backend().device()) {
        requireLive(t);
        return t;
    }
    return ctx.backend().toDevice(t);
}

void requireLive(const Tensor &t)
{
    if (!t.defined() || !t.storage())
        return;
    const auto *allocator = dynamic_cast<const CudaCachingAllocator *>(&t.storage()->allocator());
    if (allocator && allocator->isStale(std::as_const(*t.storage()).data()))
        throw RuntimeError("the device tensor " + t.describe()
            + " was lost when the device was reset after a fatal error; restart the run");
}

Tensor deviceInput(KernelContext &ctx, size_t i)
{
    return deviceTensor(ctx, ctx.input(i));
}

namespace {

struct DeviceState
{
    std::atomic<bool> lost = false;
    std::atomic<uint64_t> resets = 0;
    std::mutex mutex;
};

DeviceState &deviceState(int device)
{
    static std::array<DeviceState, 64> states;
    return states[size_t(std::clamp(device, 0, int(states.size()) - 1))];
}

std::string lostSuffix(cudaError_t err)
{
    if (!isFatalCudaError(err))
        return {};
    return "; the device's context is lost with every tensor on it: PIRScope resets the device before "
           "its next use, restart the run";
}

} // namespace

bool isFatalCudaError(cudaError_t err)
{
    switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorECCUncorrectable:
        return true;
    default:
        return false;
    }
}

void noteCudaError(cudaError_t err)
{
    if (!isFatalCudaError(err))
        return;
    int device = 0;
    cudaGetDevice(&device);
    deviceState(device).lost = true;
}

CudaDeviceHealth cudaDeviceHealth(int device)
{
    const DeviceState &state = deviceState(device);
    return { state.lost.load(), state.resets.load() };
}

uint64_t resetLostCudaDevice(int device, const std::function<void()> &reset)
{
    DeviceState &state = deviceState(device);
    std::lock_guard lock(state.mutex);
    if (state.lost) {
        reset();
        ++state.resets;
        state.lost = false;
    }
    return state.resets;
}

void checkCuda(cudaError_t err, const char *what)
{
    if (err == cudaSuccess)
        return;
    cudaGetLastError();
    noteCudaError(err);
    throw RuntimeError(std::string(what) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")"
        + lostSuffix(err));
}

void checkCublas(cublasStatus_t status, const char *what)
{
    if (status == CUBLAS_STATUS_SUCCESS)
        return;
    throw RuntimeError(
        std::string(what) + ": " + cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
}

void checkLaunch(const char *what)
{
    const cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        return;
    noteCudaError(err);
    throw RuntimeError(std::string(what) + ": kernel launch failed: " + cudaGetErrorName(err) + " ("
        + cudaGetErrorString(err) + ")" + lostSuffix(err));
}

PS_CUDA_NAMESPACE_END
