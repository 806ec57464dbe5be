#pragma once

#include "core/runtime/device.h"

#include <cstddef>

namespace ps {

/// Raw memory of one device. allocate() throws ps::OutOfMemory (runtimeerror.h) when it cannot
/// satisfy a request; deallocate() receives the size that was allocated.
class Allocator
{
public:
    virtual ~Allocator() = default;
    virtual Device device() const = 0;
    virtual void *allocate(size_t bytes) = 0;
    virtual void deallocate(void *ptr, size_t bytes) = 0;
    /// Bytes handed out and not yet returned.
    virtual size_t bytesInUse() const = 0;
};

/// Read-only zero pages that cost no memory (an anonymous mapping nobody writes): the buffer of
/// a tensor that keeps only its meta, as a freed no_need_buffer variable does under eager
/// deletion. Its shape and dtype stay readable, its data reads as zeros and a write faults. Not
/// reserved in the MemoryBudget and not counted in bytesInUse(): it holds no memory.
Allocator &unbackedAllocator();

/// Host memory, 64-byte aligned (one cache line, the widest SIMD load), zero-size requests return
/// a non-null pointer. Every request is reserved in the MemoryBudget first: one past the limit
/// throws OutOfMemory("needs N GB, limit M GB") before any memory is touched.
Allocator &cpuAllocator();

} // namespace ps
