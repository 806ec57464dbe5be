#pragma once

// cuda-sim's one device: memory, the work queue and the error state behind the emulated CUDA
// runtime (simruntime.cpp) and cuBLAS (simblas.cpp).
//
// Memory. Device allocations come from an arena the host cannot touch: it is mapped PROT_NONE.
// Work runs in "device mode", where a fault inside the arena opens up to 1 MiB of the allocation
// it hit (and only that allocation); leaving device mode closes everything again. A host access
// outside device mode, or a device access outside every live allocation (past an end, a freed
// block), is reported with the allocation it missed: the first crashes the process with that
// message, the second becomes CUDA's sticky cudaErrorIllegalAddress. Each allocation ends at a
// guard page (the pointer is placed so its 256-byte-rounded end meets it) and starts filled with
// 0xFF bytes (NaN for floats), so reads past the end or of unwritten memory show.
//
// Work. Kernels, async copies, memsets, event records and GEMMs are queued and run, in order, on
// the thread that synchronizes (stream/event/device synchronize, a blocking copy, a copy into
// pageable host memory, cudaFree). Copies from pageable host memory read their source when they
// are queued, copies from pinned memory when they run, as a GPU's DMA does.
//
// Limits come from the environment when the device is first used: PIRSCOPE_CUDASIM_MEMORY (bytes
// with an optional K/M/G suffix; default 6G) and PIRSCOPE_CUDASIM_SMS (multiprocessors; default
// 2). Thread-safe: one mutex orders API calls and the queue.

#include "core/runtime/cudasim/simapi.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace ps::cudasim {

struct SimStream
{
    int id = 0;
};

struct SimEvent
{
    bool recorded = false;
    bool completed = false;
    double milliseconds = 0;
    unsigned flags = 0;
};

class SimDevice
{
public:
    static SimDevice &instance();

    size_t memoryLimit() const { return m_limit; }
    int multiprocessors() const { return m_sms; }

    api::cudaError_t allocate(void **ptr, size_t bytes);
    api::cudaError_t release(void *ptr);
    void memoryInfo(size_t *freeBytes, size_t *totalBytes);
    api::cudaError_t allocateHost(void **ptr, size_t bytes);
    api::cudaError_t releaseHost(void *ptr);

    /// Queues `work` (it runs in device mode at the next synchronization).
    api::cudaError_t enqueue(api::cudaStream_t stream, std::function<void()> work);
    /// Queues a copy; see the class comment for when each side is read.
    api::cudaError_t copy(void *dst, const void *src, size_t bytes, api::cudaMemcpyKind kind, api::cudaStream_t stream,
        bool blocking);
    api::cudaError_t set(void *ptr, int value, size_t bytes, api::cudaStream_t stream, bool blocking);
    /// Runs everything queued; returns the sticky error, if any.
    api::cudaError_t synchronize();
    api::cudaError_t reset();

    api::cudaError_t createStream(api::cudaStream_t *stream);
    api::cudaError_t destroyStream(api::cudaStream_t stream);
    bool validStream(api::cudaStream_t stream) const;
    api::cudaError_t createEvent(api::cudaEvent_t *event, unsigned flags);
    api::cudaError_t destroyEvent(api::cudaEvent_t event);
    api::cudaError_t recordEvent(api::cudaEvent_t event, api::cudaStream_t stream);
    api::cudaError_t synchronizeEvent(api::cudaEvent_t event);
    api::cudaError_t queryEvent(api::cudaEvent_t event);
    api::cudaError_t elapsed(float *ms, api::cudaEvent_t start, api::cudaEvent_t stop);

    /// The sticky error (cudaSuccess when none) and what caused it.
    api::cudaError_t stickyError() const;
    std::string stickyMessage() const;
    /// Makes `error` sticky (the first one stays) with `message` printed once to stderr.
    void fail(api::cudaError_t error, const std::string &message);
    /// The calling thread's last error, cleared unless it is sticky.
    api::cudaError_t takeLastError();
    api::cudaError_t peekLastError() const;
    void setLastError(api::cudaError_t error);

    /// `ptr` lies in the arena / in a live allocation of at least `bytes` from it.
    bool inArena(const void *ptr) const;
    bool isDevicePointer(const void *ptr, size_t bytes) const;
    bool isPinned(const void *ptr, size_t bytes) const;
    /// Device mode only: opens [ptr, ptr + bytes) of live allocations for host-side emulation
    /// code (copies, GEMMs) so it runs without faults and other threads (a BLAS) may use it.
    void grant(const void *ptr, size_t bytes);
    /// The SIGSEGV hook: true when the fault was a device-mode access it opened up.
    bool handleFault(void *address);

private:
    SimDevice();
    struct Allocation
    {
        uintptr_t span = 0; ///< page-aligned start of the allocation's pages
        size_t spanBytes = 0; ///< its pages, the guard page excluded
        size_t bytes = 0; ///< as requested
    };
    struct Range
    {
        uintptr_t begin;
        size_t bytes;
    };

    void runQueue();
    void closeGrants();
    void openRange(uintptr_t begin, size_t bytes);
    const Allocation *findAllocation(uintptr_t address) const;
    std::string describeAddress(uintptr_t address) const;
    api::cudaError_t failIfSticky();

    mutable std::recursive_mutex m_mutex;
    size_t m_limit = 0;
    int m_sms = 2;
    size_t m_page = 4096;
    char *m_arena = nullptr;
    size_t m_arenaBytes = 0;
    size_t m_used = 0;
    std::map<uintptr_t, Allocation> m_allocations; ///< by user pointer
    std::map<uintptr_t, size_t> m_free; ///< free spans of the arena, by start
    std::map<uintptr_t, size_t> m_pinned; ///< cudaHostAlloc blocks
    std::deque<std::function<void()>> m_queue;
    std::set<SimStream *> m_streams;
    std::set<SimEvent *> m_events;
    int m_nextStream = 1;
    api::cudaError_t m_sticky = api::cudaSuccess;
    std::string m_stickyMessage;
    /// Ranges opened in device mode; a fixed array so the signal handler never allocates.
    std::vector<Range> m_grants;
    size_t m_grantCount = 0;
    bool m_grantOverflow = false;
};

} // namespace ps::cudasim
