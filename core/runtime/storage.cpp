#include "core/runtime/storage.h"

#include "core/runtime/allocationmeter.h"
#include "core/runtime/allocator.h"

namespace ps {

Storage::Storage(Allocator &allocator, size_t bytes)
    : m_allocator(allocator)
    , m_bytes(bytes)
    , m_data(allocator.allocate(bytes))
    , m_meter(&allocator == &unbackedAllocator() ? nullptr : AllocationMeter::current())
{
    if (m_meter)
        m_meter->allocated(bytes);
}

Storage::~Storage()
{
    m_allocator.deallocate(m_data, m_bytes);
    if (m_meter)
        m_meter->freed(m_bytes);
}

Device Storage::device() const
{
    return m_allocator.device();
}

} // namespace ps
