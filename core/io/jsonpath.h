#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// The current position inside a JSON document as a stack of keys and indices, printed as
/// `program.regions[0].blocks[0].ops[12].O[0].TT`. Pushing and popping is O(1) and never
/// allocates once the stack has grown; the text is only built for diagnostics.
///
/// Keys are stored as views: they must outlive their segment (string literals or views into
/// the parsed document).
class JsonPath
{
public:
    JsonPath()
        : m_segments(64)
    {
    }

    void push(std::string_view key)
    {
        if (m_size == m_segments.size())
            m_segments.resize(m_size * 2);
        m_segments[m_size++] = { key, kNoIndex };
    }
    void pushIndex(size_t index)
    {
        if (m_size == m_segments.size())
            m_segments.resize(m_size * 2);
        m_segments[m_size++] = { {}, index };
    }
    void pop() { --m_size; }
    size_t depth() const { return m_size; }

    std::string toString() const
    {
        std::string out;
        for (size_t i = 0; i < m_size; ++i) {
            const Segment &s = m_segments[i];
            if (s.index == kNoIndex) {
                if (!out.empty())
                    out += '.';
                out += s.key;
            } else {
                out += '[';
                out += std::to_string(s.index);
                out += ']';
            }
        }
        return out;
    }

    /// Pushes a key or index for the lifetime of the scope.
    class Scope
    {
    public:
        Scope(JsonPath &path, std::string_view key)
            : m_path(path)
        {
            path.push(key);
        }
        Scope(JsonPath &path, size_t index)
            : m_path(path)
        {
            path.pushIndex(index);
        }
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;
        ~Scope() { m_path.pop(); }

    private:
        JsonPath &m_path;
    };

private:
    static constexpr size_t kNoIndex = ~size_t(0);
    struct Segment
    {
        std::string_view key;
        size_t index;
    };
    std::vector<Segment> m_segments; ///< capacity; the first m_size entries are the path
    size_t m_size = 0;
};

} // namespace ps
