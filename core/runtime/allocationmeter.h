#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace ps {

/// Counts the bytes of the storages allocated while it is the thread's current meter, until each
/// is freed (on any thread), and the most that were alive at once: what one run allocated, apart
/// from what other threads or earlier runs hold in the same allocator. A Storage made while a
/// meter is current keeps a reference to it (Storage::Storage), so the count stays right when a
/// tensor outlives the run. Thread-safe (atomic counters).
class AllocationMeter
{
public:
    int64_t liveBytes() const { return m_live.load(std::memory_order_relaxed); }
    int64_t peakBytes() const { return m_peak.load(std::memory_order_relaxed); }
    /// Starts a new peak at the current count.
    void resetPeak() { m_peak.store(liveBytes(), std::memory_order_relaxed); }

    void allocated(size_t bytes);
    void freed(size_t bytes) { m_live.fetch_sub(int64_t(bytes), std::memory_order_relaxed); }

    /// The meter storages made on this thread report to now, or null.
    static const std::shared_ptr<AllocationMeter> &current();

    /// Makes `meter` the thread's current meter for its lifetime (the previous one after).
    class Use
    {
    public:
        explicit Use(std::shared_ptr<AllocationMeter> meter);
        ~Use();
        Use(const Use &) = delete;
        Use &operator=(const Use &) = delete;

    private:
        std::shared_ptr<AllocationMeter> m_previous;
    };

private:
    std::atomic<int64_t> m_live { 0 };
    std::atomic<int64_t> m_peak { 0 };
};

} // namespace ps
