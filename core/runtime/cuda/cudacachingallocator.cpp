#include "core/runtime/cuda/cudacachingallocator.h"

#include "core/runtime/cuda/cudaapi.h"
#include "core/runtime/cuda/cudaruntime.h"
#include "core/runtime/runtimeerror.h"

#include <array>
#include <bit>
#include <memory>

PS_CUDA_NAMESPACE_BEGIN
namespace {

constexpr size_t kMinBlock = 512;

std::string mib(size_t bytes)
{
    return std::to_string((bytes + (1u << 19)) >> 20) + " MiB";
}

/// Makes `device` current for the lifetime of the guard's scope (allocation can run on any
/// thread, whose current device may differ).
class DeviceScope
{
public:
    explicit DeviceScope(int device)
    {
        cudaGetDevice(&m_previous);
        if (m_previous != device)
            cudaSetDevice(device);
    }
    ~DeviceScope()
    {
        int now = -1;
        cudaGetDevice(&now);
        if (now != m_previous)
            cudaSetDevice(m_previous);
    }

private:
    int m_previous = 0;
};

} // namespace

CudaCachingAllocator::CudaCachingAllocator(int device)
    : m_device(device)
{
}

CudaCachingAllocator::~CudaCachingAllocator()
{
    std::lock_guard lock(m_mutex);
    releaseCacheLocked();
}

Device CudaCachingAllocator::device() const
{
    return cudaDevice(m_device);
}

size_t CudaCachingAllocator::sizeClass(size_t bytes)
{
    if (bytes <= kMinBlock)
        return kMinBlock;
    // Four classes per power of two: [2^k, 2^(k+1)) rounds up to a multiple of 2^(k-2).
    const size_t step = std::bit_floor(bytes) / 4;
    return (bytes + step - 1) / step * step;
}

void *CudaCachingAllocator::allocate(size_t bytes)
{
    const size_t size = sizeClass(bytes);
    std::lock_guard lock(m_mutex);
    void *ptr = nullptr;
    auto it = m_free.find(size);
    if (it != m_free.end() && !it->second.empty()) {
        ptr = it->second.back();
        it->second.pop_back();
        m_cached -= size;
    } else {
        ptr = mallocFresh(size, bytes);
        // A block at the address of a tensor that outlived a reset waits until that tensor goes.
        while (m_stale.count(ptr)) {
            m_heldBack[ptr] = size;
            ptr = mallocFresh(size, bytes);
        }
    }
    m_live.insert(ptr);
    m_inUse += bytes;
    m_peak = std::max(m_peak, m_inUse);
    return ptr;
}

void *CudaCachingAllocator::mallocFresh(size_t size, size_t bytes)
{
    void *ptr = nullptr;
    DeviceScope scope(m_device);
    cudaError_t err = cudaMalloc(&ptr, size);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        releaseCacheLocked();
        err = cudaMalloc(&ptr, size);
    }
    if (err != cudaSuccess && err != cudaErrorMemoryAllocation) {
        cudaGetLastError();
        noteCudaError(err);
        throw RuntimeError("cudaMalloc of " + std::to_string(size) + " bytes on cuda:" + std::to_string(m_device)
            + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
    }
    if (err != cudaSuccess) {
        cudaGetLastError();
        size_t freeBytes = 0, totalBytes = 0;
        cudaMemGetInfo(&freeBytes, &totalBytes);
        cudaGetLastError();
        throw OutOfMemory("CUDA out of memory on cuda:" + std::to_string(m_device) + " allocating "
                + std::to_string(bytes) + " bytes (" + mib(freeBytes) + " free of " + mib(totalBytes) + "; "
                + mib(m_inUse) + " held by tensors, cache already emptied)",
            bytes);
    }
    return ptr;
}

void CudaCachingAllocator::deallocate(void *ptr, size_t bytes)
{
    if (!ptr)
        return;
    const size_t size = sizeClass(bytes);
    std::lock_guard lock(m_mutex);
    if (m_anyStale && m_stale.erase(ptr)) {
        // Its memory went with the reset; a new block held back at this address is free now.
        auto held = m_heldBack.find(ptr);
        if (held != m_heldBack.end()) {
            m_free[held->second].push_back(ptr);
            m_cached += held->second;
            m_heldBack.erase(held);
        }
        m_anyStale = !m_stale.empty();
        return;
    }
    m_live.erase(ptr);
    m_free[size].push_back(ptr);
    m_cached += size;
    m_inUse -= bytes;
}

void CudaCachingAllocator::forgetAfterReset()
{
    std::lock_guard lock(m_mutex);
    m_free.clear();
    m_cached = 0;
    m_inUse = 0;
    m_heldBack.clear();
    m_stale.insert(m_live.begin(), m_live.end());
    m_live.clear();
    m_anyStale = !m_stale.empty();
}

bool CudaCachingAllocator::isStale(const void *ptr) const
{
    if (!m_anyStale)
        return false;
    std::lock_guard lock(m_mutex);
    return m_stale.count(const_cast<void *>(ptr)) > 0;
}

size_t CudaCachingAllocator::bytesInUse() const
{
    std::lock_guard lock(m_mutex);
    return m_inUse;
}

size_t CudaCachingAllocator::bytesCached() const
{
    std::lock_guard lock(m_mutex);
    return m_cached;
}

size_t CudaCachingAllocator::peakBytesInUse() const
{
    std::lock_guard lock(m_mutex);
    return m_peak;
}

void CudaCachingAllocator::releaseCache()
{
    std::lock_guard lock(m_mutex);
    releaseCacheLocked();
}

void CudaCachingAllocator::releaseCacheLocked()
{
    if (m_cached == 0)
        return;
    DeviceScope scope(m_device);
    // cudaFree waits for the device, so blocks still read by queued kernels are safe to free.
    for (auto &[size, blocks] : m_free) {
        for (void *p : blocks)
            cudaFree(p);
        blocks.clear();
    }
    m_free.clear();
    m_cached = 0;
    cudaGetLastError();
}

CudaCachingAllocator &cudaAllocator(int index)
{
    // Leaked on purpose: storages may be released after static destruction has begun.
    static std::mutex mutex;
    static std::array<CudaCachingAllocator *, 64> allocators {};
    if (index < 0 || index >= int(allocators.size()))
        throw RuntimeError("CUDA device index " + std::to_string(index) + " out of range");
    std::lock_guard lock(mutex);
    if (!allocators[size_t(index)])
        allocators[size_t(index)] = new CudaCachingAllocator(index);
    return *allocators[size_t(index)];
}

PS_CUDA_NAMESPACE_END
