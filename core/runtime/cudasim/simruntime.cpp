// The CUDA runtime functions of cuda-sim (declared in simapi.h) over its one SimDevice.

#include "core/runtime/cudasim/simdevice.h"
#include "core/runtime/cudasim/simgrid.h"

#include <cstdio>
#include <cstring>

namespace ps::cudasim {

void enqueueGrid(api::dim3 grid, api::dim3 block, size_t shared, api::cudaStream_t stream, bool cooperative,
    std::function<void()> body, const char *name)
{
    using namespace api;
    SimDevice &d = SimDevice::instance();
    const unsigned long long threads = 1ull * block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.z > 64 || grid.x == 0 || grid.y == 0 || grid.z == 0
        || grid.y > 65535 || grid.z > 65535 || shared > (size_t(48) << 10)) {
        d.setLastError(cudaErrorInvalidConfiguration);
        return;
    }
    const std::string kernel(name);
    d.setLastError(d.enqueue(stream, [grid, block, shared, cooperative, body = std::move(body), kernel] {
        const std::string error = SimGrid::run(grid, block, shared, cooperative, body, kernel.c_str());
        if (!error.empty())
            SimDevice::instance().fail(cudaErrorLaunchFailure, error);
    }));
}

namespace api {

namespace {
SimDevice &device()
{
    return SimDevice::instance();
}
} // namespace

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return cudaErrorInvalidValue;
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int index)
{
    return index == 0 ? cudaSuccess : (device().setLastError(cudaErrorInvalidDevice), cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int *index)
{
    if (!index)
        return cudaErrorInvalidValue;
    *index = 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int index)
{
    if (!prop || index != 0)
        return cudaErrorInvalidDevice;
    *prop = cudaDeviceProp {};
    std::snprintf(prop->name, sizeof prop->name, "cuda-sim (the CUDA backend run on the host)");
    prop->totalGlobalMem = device().memoryLimit();
    prop->sharedMemPerBlock = size_t(48) << 10;
    prop->major = 9;
    prop->minor = 0;
    prop->multiProcessorCount = device().multiprocessors();
    prop->maxThreadsPerMultiProcessor = 2048;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *version)
{
    if (version)
        *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version)
{
    if (version)
        *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize()
{
    return device().synchronize();
}

cudaError_t cudaDeviceReset()
{
    return device().reset();
}

cudaError_t cudaGetLastError()
{
    return device().takeLastError();
}

cudaError_t cudaPeekAtLastError()
{
    return device().peekLastError();
}

const char *cudaGetErrorName(cudaError_t error)
{
    switch (error) {
    case cudaSuccess:
        return "cudaSuccess";
    case cudaErrorInvalidValue:
        return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
        return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError:
        return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration:
        return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer:
        return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection:
        return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInsufficientDriver:
        return "cudaErrorInsufficientDriver";
    case cudaErrorNoDevice:
        return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice:
        return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle:
        return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady:
        return "cudaErrorNotReady";
    case cudaErrorIllegalAddress:
        return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources:
        return "cudaErrorLaunchOutOfResources";
    case cudaErrorIllegalInstruction:
        return "cudaErrorIllegalInstruction";
    case cudaErrorLaunchFailure:
        return "cudaErrorLaunchFailure";
    case cudaErrorECCUncorrectable:
        return "cudaErrorECCUncorrectable";
    case cudaErrorLaunchTimeout:
        return "cudaErrorLaunchTimeout";
    case cudaErrorAssert:
        return "cudaErrorAssert";
    case cudaErrorHardwareStackError:
        return "cudaErrorHardwareStackError";
    case cudaErrorMisalignedAddress:
        return "cudaErrorMisalignedAddress";
    case cudaErrorInvalidAddressSpace:
        return "cudaErrorInvalidAddressSpace";
    case cudaErrorInvalidPc:
        return "cudaErrorInvalidPc";
    case cudaErrorUnknown:
        break;
    }
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
    switch (error) {
    case cudaSuccess:
        return "no error";
    case cudaErrorInvalidValue:
        return "invalid argument";
    case cudaErrorMemoryAllocation:
        return "out of memory";
    case cudaErrorInvalidConfiguration:
        return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer:
        return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection:
        return "invalid copy direction for memcpy";
    case cudaErrorInvalidDevice:
        return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle:
        return "invalid resource handle";
    case cudaErrorNotReady:
        return "device not ready";
    case cudaErrorIllegalAddress:
        return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure:
        return "unspecified launch failure";
    case cudaErrorECCUncorrectable:
        return "uncorrectable ECC error encountered";
    case cudaErrorLaunchTimeout:
        return "the launch timed out and was terminated";
    case cudaErrorAssert:
        return "device-side assert triggered";
    case cudaErrorHardwareStackError:
        return "hardware stack error";
    case cudaErrorMisalignedAddress:
        return "misaligned address";
    case cudaErrorInvalidAddressSpace:
        return "operation not supported on global/shared address space";
    case cudaErrorInvalidPc:
        return "invalid program counter";
    default:
        break;
    }
    return cudaGetErrorName(error);
}

cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    return device().allocate(ptr, bytes);
}

cudaError_t cudaFree(void *ptr)
{
    return device().release(ptr);
}

cudaError_t cudaMemGetInfo(size_t *freeBytes, size_t *totalBytes)
{
    device().memoryInfo(freeBytes, totalBytes);
    return device().stickyError();
}

cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned)
{
    return device().allocateHost(ptr, bytes);
}

cudaError_t cudaMallocHost(void **ptr, size_t bytes)
{
    return device().allocateHost(ptr, bytes);
}

cudaError_t cudaFreeHost(void *ptr)
{
    return device().releaseHost(ptr);
}

cudaError_t cudaHostGetDevicePointer(void **devicePtr, void *host, unsigned)
{
    if (!devicePtr || !device().isPinned(host, 1))
        return cudaErrorInvalidValue;
    *devicePtr = host; // mapped pinned memory: the device reads the host's bytes
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    return device().copy(dst, src, bytes, kind, nullptr, true);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream)
{
    return device().copy(dst, src, bytes, kind, stream, false);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
    cudaMemcpyKind kind, cudaStream_t stream)
{
    if (width > dpitch || width > spitch)
        return cudaErrorInvalidValue;
    for (size_t r = 0; r < height; ++r) {
        const cudaError_t e = device().copy(static_cast<char *>(dst) + r * dpitch,
            static_cast<const char *>(src) + r * spitch, width, kind, stream, false);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t bytes, cudaStream_t stream)
{
    if (dstDevice != 0 || srcDevice != 0)
        return cudaErrorInvalidDevice;
    return device().copy(dst, src, bytes, cudaMemcpyDeviceToDevice, stream, false);
}

cudaError_t cudaMemset(void *ptr, int value, size_t bytes)
{
    return device().set(ptr, value, bytes, nullptr, true);
}

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream)
{
    return device().set(ptr, value, bytes, stream, false);
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return device().createStream(stream);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    return device().destroyStream(stream);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    if (!device().validStream(stream))
        return cudaErrorInvalidResourceHandle;
    return device().synchronize();
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return device().createEvent(event, cudaEventDefault);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
    return device().createEvent(event, flags);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    return device().destroyEvent(event);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return device().recordEvent(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return device().synchronizeEvent(event);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return device().queryEvent(event);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    return device().elapsed(ms, start, stop);
}

} // namespace api
} // namespace ps::cudasim
