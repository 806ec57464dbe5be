#include "core/ir/arena.h"

#include <cstdint>

namespace ps {

void *Arena::allocate(std::size_t bytes, std::size_t align)
{
    auto aligned = [align](std::byte *p) {
        const auto v = reinterpret_cast<std::uintptr_t>(p);
        return reinterpret_cast<std::byte *>((v + align - 1) & ~(std::uintptr_t(align) - 1));
    };
    std::byte *p = m_cursor ? aligned(m_cursor) : nullptr;
    if (!p || p + bytes > m_end) {
        const std::size_t size = bytes + align > kChunk ? bytes + align : kChunk;
        // Not zeroed: everything placed in the arena is constructed in place.
        m_chunks.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
        m_cursor = m_chunks.back().get();
        m_end = m_cursor + size;
        p = aligned(m_cursor);
    }
    m_cursor = p + bytes;
    m_used += bytes;
    return p;
}

} // namespace ps
