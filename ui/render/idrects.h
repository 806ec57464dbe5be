#pragma once

#include <QRectF>
#include <unordered_map>

namespace ps {

/// Rectangles by id (node "n<id>", group "g<id>") for the ids one layout holds. A group's
/// layout holds a few of a big graph's ids: memory is O(ids stored), not O(largest id), which
/// for 20,000 group layouts of a 100,000-op graph is the difference between megabytes and
/// tens of gigabytes.
class IdRects
{
public:
    /// The rectangle of `id`, inserted null when absent.
    QRectF &operator[](long id) { return m_rects[id]; }
    QRectF operator[](long id) const { return at(id); }
    /// The rectangle of `id`; a null rectangle when absent.
    QRectF at(long id) const
    {
        auto it = m_rects.find(id);
        return it == m_rects.end() ? QRectF() : it->second;
    }
    size_t size() const { return m_rects.size(); }
    bool empty() const { return m_rects.empty(); }
    auto begin() const { return m_rects.begin(); }
    auto end() const { return m_rects.end(); }

private:
    std::unordered_map<long, QRectF> m_rects;
};

} // namespace ps
