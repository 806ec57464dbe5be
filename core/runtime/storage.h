#pragma once

#include "core/runtime/device.h"

#include <cstddef>
#include <memory>

namespace ps {

class AllocationMeter;
class Allocator;

/// One allocation on one device; shared by the tensors that view it (reshape/flatten/squeeze
/// share the storage of their input). Not copyable; owned through std::shared_ptr. Made while a
/// thread has an AllocationMeter, it counts there until it is freed.
class Storage
{
public:
    Storage(Allocator &allocator, size_t bytes);
    ~Storage();
    Storage(const Storage &) = delete;
    Storage &operator=(const Storage &) = delete;

    Device device() const;
    size_t bytes() const { return m_bytes; }
    void *data() { return m_data; }
    const void *data() const { return m_data; }
    Allocator &allocator() const { return m_allocator; }

private:
    Allocator &m_allocator;
    size_t m_bytes;
    void *m_data;
    std::shared_ptr<AllocationMeter> m_meter;
};

} // namespace ps
