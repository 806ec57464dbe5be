#include "core/graph/ghostchiplayout.h"

#include <algorithm>

namespace ps {

GhostChipLayout GhostChipLayout::compute(NodeSize label, const std::vector<NodeSize> &chips)
{
    GhostChipLayout out;
    out.box = label;
    out.labelHeight = label.height;
    if (chips.empty())
        return out;

    // Greedy rows, each centred; a chip wider than the row gets a row of its own.
    const double maxRow = std::max(label.width - 2 * kPad, kMinRowWidth);
    struct Row
    {
        size_t first = 0;
        size_t end = 0;
        double width = 0;
        double height = 0;
    };
    std::vector<Row> rows;
    for (size_t i = 0; i < chips.size(); ++i) {
        const double w = chips[i].width;
        if (rows.empty() || (rows.back().end > rows.back().first && rows.back().width + kGap + w > maxRow))
            rows.push_back({ i, i, 0, 0 });
        Row &row = rows.back();
        row.width += (row.end > row.first ? kGap : 0) + w;
        row.height = std::max(row.height, chips[i].height);
        row.end = i + 1;
    }
    double widest = 0;
    for (const Row &row : rows)
        widest = std::max(widest, row.width);
    out.box.width = std::max(label.width, widest + 2 * kPad);

    out.chipOffsets.resize(chips.size());
    double y = label.height;
    for (const Row &row : rows) {
        double x = (out.box.width - row.width) / 2;
        for (size_t i = row.first; i < row.end; ++i) {
            out.chipOffsets[i] = { x, y + (row.height - chips[i].height) / 2 };
            x += chips[i].width + kGap;
        }
        y += row.height + kGap;
    }
    out.box.height = y - kGap + kPad;
    return out;
}

} // namespace ps
