#include "core/runtime/cuda/cudapinnedstaging.h"

#include "core/runtime/cuda/cudaruntime.h"

#include <algorithm>
#include <cstring>

PS_CUDA_NAMESPACE_BEGIN
namespace {

constexpr size_t kRingBytes = size_t(1) << 20;
constexpr size_t kSmallUpload = size_t(64) << 10;

} // namespace

CudaPinnedStaging::CudaPinnedStaging(size_t chunkBytes)
    : m_chunk(chunkBytes)
{
}

CudaPinnedStaging::~CudaPinnedStaging()
{
    for (const Fence &f : m_fences) {
        cudaEventSynchronize(f.event);
        cudaEventDestroy(f.event);
    }
    for (cudaEvent_t e : m_spareEvents)
        cudaEventDestroy(e);
    if (m_ring)
        cudaFreeHost(m_ring);
    for (int b = 0; b < 2; ++b) {
        if (m_events[b]) {
            cudaEventSynchronize(m_events[b]);
            cudaEventDestroy(m_events[b]);
        }
        if (m_buffers[b])
            cudaFreeHost(m_buffers[b]);
    }
    cudaGetLastError();
}

void CudaPinnedStaging::abandon()
{
    std::lock_guard lock(m_mutex);
    m_fences.clear();
    m_spareEvents.clear();
    m_ring = nullptr;
    m_ringHead = 0;
    for (int b = 0; b < 2; ++b) {
        m_buffers[b] = nullptr;
        m_events[b] = nullptr;
        m_pending[b] = false;
    }
}

void CudaPinnedStaging::ensureBuffers()
{
    for (int b = 0; b < 2; ++b) {
        if (!m_buffers[b])
            checkCuda(cudaHostAlloc(&m_buffers[b], m_chunk, cudaHostAllocDefault), "pinned staging buffer");
        if (!m_events[b])
            checkCuda(cudaEventCreateWithFlags(&m_events[b], cudaEventDisableTiming), "staging event");
    }
}

void CudaPinnedStaging::waitBuffer(int b)
{
    if (m_pending[b]) {
        checkCuda(cudaEventSynchronize(m_events[b]), "device-to-host copy");
        m_pending[b] = false;
    }
}

void CudaPinnedStaging::download(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
    if (bytes == 0)
        return;
    std::lock_guard lock(m_mutex);
    ensureBuffers();
    waitBuffer(0);
    waitBuffer(1);
    auto *out = static_cast<char *>(dst);
    const auto *in = static_cast<const char *>(src);
    const size_t chunks = (bytes + m_chunk - 1) / m_chunk;
    // Chunk i is queued into buffer i%2 while chunk i-1 is copied out of the other buffer.
    for (size_t i = 0; i <= chunks; ++i) {
        if (i < chunks) {
            const int b = int(i % 2);
            const size_t n = std::min(m_chunk, bytes - i * m_chunk);
            checkCuda(cudaMemcpyAsync(m_buffers[b], in + i * m_chunk, n, cudaMemcpyDeviceToHost, stream),
                "device-to-host copy");
            checkCuda(cudaEventRecord(m_events[b], stream), "device-to-host copy");
            m_pending[b] = true;
        }
        if (i > 0) {
            const int b = int((i - 1) % 2);
            const size_t n = std::min(m_chunk, bytes - (i - 1) * m_chunk);
            waitBuffer(b);
            std::memcpy(out + (i - 1) * m_chunk, m_buffers[b], n);
        }
    }
}

void CudaPinnedStaging::uploadSmall(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
    if (!m_ring)
        checkCuda(cudaHostAlloc(&m_ring, kRingBytes, cudaHostAllocDefault), "pinned staging ring");
    const size_t size = (bytes + 255) / 256 * 256;
    if (m_ringHead + size > kRingBytes)
        m_ringHead = 0;
    const size_t begin = m_ringHead, end = begin + size;
    // Fences complete in stream order: waiting for the newest one over this slice retires every
    // older one too; completed fences at the front are retired on the way.
    size_t done = 0;
    for (size_t i = 0; i < m_fences.size(); ++i)
        if (m_fences[i].begin < end && begin < m_fences[i].end)
            done = i + 1;
    if (done > 0)
        checkCuda(cudaEventSynchronize(m_fences[done - 1].event), "host-to-device copy");
    auto retireFront = [this] {
        m_spareEvents.push_back(m_fences.front().event);
        m_fences.pop_front();
    };
    for (size_t i = 0; i < done; ++i)
        retireFront();
    while (!m_fences.empty() && cudaEventQuery(m_fences.front().event) == cudaSuccess)
        retireFront();
    cudaGetLastError(); // a pending event's cudaErrorNotReady
    std::memcpy(static_cast<char *>(m_ring) + begin, src, bytes);
    checkCuda(
        cudaMemcpyAsync(dst, static_cast<char *>(m_ring) + begin, bytes, cudaMemcpyHostToDevice, stream),
        "host-to-device copy");
    cudaEvent_t event = nullptr;
    if (!m_spareEvents.empty()) {
        event = m_spareEvents.back();
        m_spareEvents.pop_back();
    } else {
        checkCuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "staging event");
    }
    checkCuda(cudaEventRecord(event, stream), "host-to-device copy");
    m_fences.push_back({ event, begin, end });
    m_ringHead = end;
}

void CudaPinnedStaging::upload(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
    if (bytes == 0)
        return;
    std::lock_guard lock(m_mutex);
    if (bytes <= kSmallUpload)
        return uploadSmall(dst, src, bytes, stream);
    ensureBuffers();
    auto *out = static_cast<char *>(dst);
    const auto *in = static_cast<const char *>(src);
    const size_t chunks = (bytes + m_chunk - 1) / m_chunk;
    for (size_t i = 0; i < chunks; ++i) {
        const int b = int(i % 2);
        const size_t n = std::min(m_chunk, bytes - i * m_chunk);
        waitBuffer(b); // the DMA that last read this buffer has finished
        std::memcpy(m_buffers[b], in + i * m_chunk, n);
        checkCuda(cudaMemcpyAsync(out + i * m_chunk, m_buffers[b], n, cudaMemcpyHostToDevice, stream),
            "host-to-device copy");
        checkCuda(cudaEventRecord(m_events[b], stream), "host-to-device copy");
        m_pending[b] = true;
    }
}

PS_CUDA_NAMESPACE_END
