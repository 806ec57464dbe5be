#pragma once

// Internal to the CUDA backend (CUDA runtime types in the interface).

#include "core/runtime/cuda/cudaapi.h"

#include <cstddef>
#include <deque>
#include <mutex>
#include <vector>

PS_CUDA_NAMESPACE_BEGIN

/// Pinned host memory through which host<->device copies run. Large copies go in chunks through
/// two buffers, so the CPU memcpy of one chunk overlaps the DMA of the next; small uploads
/// (scalars, shape arrays, fed inputs of a few KiB) take a slice of a pinned ring that is only
/// waited for when the ring wraps onto a copy still queued, so they never stall the stream.
/// Buffers are allocated on first use.
class CudaPinnedStaging
{
public:
    explicit CudaPinnedStaging(size_t chunkBytes = size_t(8) << 20);
    ~CudaPinnedStaging();
    CudaPinnedStaging(const CudaPinnedStaging &) = delete;
    CudaPinnedStaging &operator=(const CudaPinnedStaging &) = delete;

    /// Copies device memory to pageable host memory; returns when `dst` holds the bytes.
    void download(void *dst, const void *src, size_t bytes, cudaStream_t stream);
    /// Copies pageable host memory to the device; returns once `src` is no longer needed
    /// (the last chunk's DMA may still be queued on `stream`).
    void upload(void *dst, const void *src, size_t bytes, cudaStream_t stream);
    /// Forgets its buffers and events without a CUDA call (a device reset already freed them).
    void abandon();

private:
    struct Fence
    {
        cudaEvent_t event;
        size_t begin;
        size_t end;
    };

    void ensureBuffers();
    void waitBuffer(int b);
    void uploadSmall(void *dst, const void *src, size_t bytes, cudaStream_t stream);

    size_t m_chunk;
    void *m_buffers[2] = { nullptr, nullptr };
    cudaEvent_t m_events[2] = { nullptr, nullptr };
    bool m_pending[2] = { false, false };
    void *m_ring = nullptr;
    size_t m_ringHead = 0;
    std::deque<Fence> m_fences; ///< ring slices whose uploads may still be queued, oldest first
    std::vector<cudaEvent_t> m_spareEvents;
    std::mutex m_mutex;
};

PS_CUDA_NAMESPACE_END
