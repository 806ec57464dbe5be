#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace ps {

/// A bump allocator: objects are carved out of large chunks and the memory is released only
/// when the arena dies. O(1) allocation; no per-object free (callers run destructors
/// themselves). Not thread-safe: one arena per Program.
class Arena
{
public:
    Arena() = default;
    Arena(const Arena &) = delete;
    Arena &operator=(const Arena &) = delete;

    void *allocate(std::size_t bytes, std::size_t align = alignof(std::max_align_t));
    template<class T, class... Args> T *make(Args &&...args)
    {
        return new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
    }
    /// Bytes handed out so far (for benchmarks and memory panels).
    std::size_t bytesAllocated() const { return m_used; }

private:
    static constexpr std::size_t kChunk = 64 * 1024;
    std::vector<std::unique_ptr<std::byte[]>> m_chunks;
    std::byte *m_cursor = nullptr;
    std::byte *m_end = nullptr;
    std::size_t m_used = 0;
};

} // namespace ps
