#pragma once

#include "core/graph/graphmodel.h"

#include <vector>

namespace ps {

/// Where a node's ghosts go when they are attached to it: as small chips in rows under the
/// node's own label, inside its box. `dot` then lays out one box per op instead of one extra
/// node per use (ghost nodes would otherwise be half the graph and most of its layout time).
/// Both the DOT writer (box size) and the viewer (chip positions) use this, so they agree.
struct GhostChipLayout
{
    static constexpr double kGap = 4; ///< between chips and between rows
    static constexpr double kPad = 5; ///< box border to chips
    /// Rows are not wrapped before this width (points) unless the label is wider.
    static constexpr double kMinRowWidth = 220;

    struct Offset
    {
        double x = 0;
        double y = 0;
    };

    NodeSize box; ///< the whole box: label area plus chip rows
    double labelHeight = 0; ///< the node's own label occupies [0, labelHeight) from the top
    /// Chip top-left corners relative to the box's top-left, one per chip.
    std::vector<Offset> chipOffsets;

    /// `label`: the node's own size without chips; `chips`: the ghosts' sizes in order.
    static GhostChipLayout compute(NodeSize label, const std::vector<NodeSize> &chips);
};

} // namespace ps
