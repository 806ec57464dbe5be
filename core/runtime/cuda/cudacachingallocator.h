#pragma once

#include "core/runtime/cuda/cudanamespace.h"

#include "core/runtime/allocator.h"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

PS_CUDA_NAMESPACE_BEGIN

/// Device memory of one CUDA device with a cache of freed blocks, like PyTorch's caching
/// allocator but simpler: requests round up to a size class (four classes per power of two,
/// at least 512 bytes) and a freed block goes onto its class's free list, so steady-state
/// execution calls cudaMalloc only while memory use still grows. All work runs on one stream,
/// so a block freed while queued kernels still read it is only reused by later kernels of
/// that stream. When cudaMalloc fails the cache is returned to the driver and the request
/// retried once; then OutOfMemory names the request and the driver's free/total figures.
/// Thread-safe.
class CudaCachingAllocator final : public Allocator
{
public:
    explicit CudaCachingAllocator(int device);
    ~CudaCachingAllocator() override;
    CudaCachingAllocator(const CudaCachingAllocator &) = delete;
    CudaCachingAllocator &operator=(const CudaCachingAllocator &) = delete;

    Device device() const override;
    void *allocate(size_t bytes) override;
    void deallocate(void *ptr, size_t bytes) override;
    size_t bytesInUse() const override;

    /// Bytes held in free lists (allocated from the driver, not in use).
    size_t bytesCached() const;
    /// Largest bytesInUse() seen.
    size_t peakBytesInUse() const;
    /// Returns every cached block to the driver.
    void releaseCache();

    /// The size class a request of `bytes` is served from.
    static size_t sizeClass(size_t bytes);

    /// After cudaDeviceReset: every block is gone with the context. Cached blocks are dropped;
    /// blocks of live tensors become stale: their deallocate() is ignored, isStale() names them,
    /// and a new cudaMalloc that returns a stale address is held back until its old owner lets
    /// go, so a stale tensor can never free (or alias) memory handed out after the reset.
    void forgetAfterReset();
    /// True when `ptr` (a storage's base address) was allocated before the last reset.
    bool isStale(const void *ptr) const;

private:
    void releaseCacheLocked();
    void *mallocFresh(size_t size, size_t bytes);

    int m_device;
    mutable std::mutex m_mutex;
    std::unordered_map<size_t, std::vector<void *>> m_free;
    std::unordered_set<void *> m_live;
    std::unordered_set<void *> m_stale;
    std::unordered_map<void *, size_t> m_heldBack; ///< new blocks at a stale address (size class)
    std::atomic<bool> m_anyStale = false;
    size_t m_inUse = 0;
    size_t m_cached = 0;
    size_t m_peak = 0;
};

/// The process-wide allocator of CUDA device `index`: created on first use and never
/// destroyed, so device tensors may outlive the backend that made them.
CudaCachingAllocator &cudaAllocator(int index);

PS_CUDA_NAMESPACE_END
