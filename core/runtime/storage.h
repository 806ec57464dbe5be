#pragma once

#include "core/runtime/device.h"

#include <cstddef>

namespace ps {

class Allocator;

/// One allocation on one device; shared by the tensors that view it (reshape/flatten/squeeze
/// share the storage of their input). Not copyable; owned through std::shared_ptr.
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
};

} // namespace ps
