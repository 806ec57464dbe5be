#pragma once

#include "core/runtime/device.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ps {

class AllocationMeter;
class Allocator;

/// One allocation on one device; shared by the tensors that view it (reshape/flatten/squeeze
/// share the storage of their input). Not copyable; owned through std::shared_ptr. Made while a
/// thread has an AllocationMeter, it counts there until it is freed.
///
/// Its content id names its bytes, so a cache of something derived from them (oneDNN's reordered
/// weights) needs no hash of them: the mutable data() forgets the id (a writer takes data() for
/// each pass that writes, never keeping the pointer across another op), contentId() hands out a
/// new one for bytes without one, and a whole-storage copy takes its source's (Tensor::cloneHost:
/// a restart clones the parameters, and the clone is the same content).
class Storage
{
public:
    Storage(Allocator &allocator, size_t bytes);
    ~Storage();
    Storage(const Storage &) = delete;
    Storage &operator=(const Storage &) = delete;

    Device device() const;
    size_t bytes() const { return m_bytes; }
    void *data()
    {
        m_contentId.store(0, std::memory_order_relaxed);
        return m_data;
    }
    const void *data() const { return m_data; }

    /// Nonzero; the same while no one takes the mutable data().
    uint64_t contentId() const;
    /// These bytes are now a copy of all of `source`'s.
    void adoptContentId(const Storage &source);
    Allocator &allocator() const { return m_allocator; }

private:
    Allocator &m_allocator;
    size_t m_bytes;
    void *m_data;
    std::shared_ptr<AllocationMeter> m_meter;
    mutable std::atomic<uint64_t> m_contentId { 0 }; ///< 0: not named yet (or written since)
};

} // namespace ps
