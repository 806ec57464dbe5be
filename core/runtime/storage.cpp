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

uint64_t Storage::contentId() const
{
    static std::atomic<uint64_t> next { 1 };
    uint64_t id = m_contentId.load(std::memory_order_relaxed);
    if (id != 0)
        return id;
    const uint64_t fresh = next.fetch_add(1, std::memory_order_relaxed);
    return m_contentId.compare_exchange_strong(id, fresh, std::memory_order_relaxed) ? fresh : id;
}

void Storage::adoptContentId(const Storage &source)
{
    m_contentId.store(source.contentId(), std::memory_order_relaxed);
}

Device Storage::device() const
{
    return m_allocator.device();
}

} // namespace ps
