#include "core/runtime/allocationmeter.h"

#include <utility>

namespace ps {
namespace {

std::shared_ptr<AllocationMeter> &threadMeter()
{
    thread_local std::shared_ptr<AllocationMeter> meter;
    return meter;
}

} // namespace

void AllocationMeter::allocated(size_t bytes)
{
    const int64_t now = m_live.fetch_add(int64_t(bytes), std::memory_order_relaxed) + int64_t(bytes);
    int64_t peak = m_peak.load(std::memory_order_relaxed);
    while (now > peak && !m_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) { }
}

const std::shared_ptr<AllocationMeter> &AllocationMeter::current()
{
    return threadMeter();
}

AllocationMeter::Use::Use(std::shared_ptr<AllocationMeter> meter)
    : m_previous(std::exchange(threadMeter(), std::move(meter)))
{
}

AllocationMeter::Use::~Use()
{
    threadMeter() = std::move(m_previous);
}

} // namespace ps
