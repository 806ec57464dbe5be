#include "core/runtime/allocator.h"

#include "core/io/memorybudget.h"
#include "core/ir/shapesize.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace ps {
namespace {

class CpuAllocator final : public Allocator
{
public:
    Device device() const override { return Device::cpu(); }
    void *allocate(size_t bytes) override
    {
        std::string error;
        if (!MemoryBudget::reserve(bytes, error))
            throw OutOfMemory(error, bytes);
        const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
        void *p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
        if (!p) {
            MemoryBudget::release(bytes);
            throw OutOfMemory("host out of memory allocating " + ShapeSize::formatBytes(bytes), bytes);
        }
        m_inUse += bytes;
        return p;
    }
    void deallocate(void *ptr, size_t bytes) override
    {
        std::free(ptr);
        MemoryBudget::release(bytes);
        m_inUse -= bytes;
    }
    size_t bytesInUse() const override { return m_inUse; }

private:
    static constexpr size_t kAlignment = 64;
    std::atomic<size_t> m_inUse { 0 };
};

class UnbackedAllocator final : public Allocator
{
public:
    Device device() const override { return Device::cpu(); }
    void *allocate(size_t bytes) override
    {
        void *p = ::mmap(nullptr, std::max<size_t>(bytes, 1), PROT_READ,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            throw OutOfMemory("cannot map " + ShapeSize::formatBytes(bytes) + " of address space", bytes);
        return p;
    }
    void deallocate(void *ptr, size_t bytes) override { ::munmap(ptr, std::max<size_t>(bytes, 1)); }
    size_t bytesInUse() const override { return 0; }
};

} // namespace

Allocator &cpuAllocator()
{
    static CpuAllocator allocator;
    return allocator;
}

Allocator &unbackedAllocator()
{
    static UnbackedAllocator allocator;
    return allocator;
}

} // namespace ps
