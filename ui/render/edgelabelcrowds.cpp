#include "ui/render/edgelabelcrowds.h"

#include <QString>
#include <algorithm>

namespace ps {

std::vector<EdgeLabelCrowds::Placement> EdgeLabelCrowds::place(const std::vector<QRectF> &labels)
{
    std::vector<Placement> out(labels.size());
    for (size_t i = 0; i < labels.size(); ++i)
        out[i].left = labels[i].left();
    std::vector<size_t> order;
    for (size_t i = 0; i < labels.size(); ++i)
        if (!labels[i].isNull())
            order.push_back(i);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const QRectF &ra = labels[a], &rb = labels[b];
        if (ra.top() != rb.top())
            return ra.top() < rb.top();
        return ra.left() != rb.left() ? ra.left() < rb.left() : a < b;
    });
    // The drawn labels whose bottom is below the current label's top: the only ones it can
    // overlap, since labels come sorted by top.
    std::vector<size_t> open;
    for (size_t i : order) {
        const QRectF &rect = labels[i];
        std::erase_if(open, [&](size_t d) { return labels[d].bottom() <= rect.top(); });
        const auto crowd
            = std::find_if(open.begin(), open.end(), [&](size_t d) { return labels[d].intersects(rect); });
        if (crowd != open.end()) {
            ++out[*crowd].others;
            out[*crowd].left = std::max(out[*crowd].left, rect.left());
            out[i].hidden = true;
        } else {
            open.push_back(i);
        }
    }
    return out;
}

QString EdgeLabelCrowds::text(const QString &label, int others)
{
    return others > 0 ? label + QStringLiteral("  +%1").arg(others) : label;
}

} // namespace ps
