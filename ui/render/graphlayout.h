#pragma once

#include "core/graph/groupexpansion.h"
#include "core/ir/value.h"
#include "ui/render/layoutresult.h"

#include <QRectF>
#include <vector>

namespace ps {

/// A whole graph laid out for drawing, in scene coordinates (points, y pointing down, origin at
/// the top-left of `bounds`): every shown node and ghost chip, every layer group drawn as a box
/// or a frame, every region and every edge piece. GroupLayoutEngine builds it from one Graphviz
/// layout per expanded group; immutable once built and shared between threads.
struct GraphLayout
{
    enum class GroupState : unsigned char {
        Hidden, ///< inside a collapsed group
        Collapsed, ///< drawn as one box
        Expanded, ///< drawn as a frame around its items
    };

    struct Group
    {
        QRectF rect;
        GroupState state = GroupState::Hidden;
        int depth = 0; ///< frames inside frames
    };

    /// One drawn piece of an edge: inside one group's layout, or the short connector between a
    /// group's port and the edge that continues in its parent's layout.
    struct Segment
    {
        LayoutResult::Edge geometry;
        Value value; ///< null for op → region edges
        int modelEdge = -1; ///< a GraphModel edge it carries (its label), -1 for region edges
        bool labelled = false; ///< ends at an op or a collapsed box: draw the value's label there
        bool dashed = false; ///< op → region edges
    };

    QRectF bounds;
    std::vector<QRectF> nodes; ///< by node id (ghost chips included); null where not shown
    std::vector<qreal> labelHeights; ///< by node id: the label's part of a box with chips, else 0
    std::vector<Group> groups; ///< by group id
    std::vector<QRectF> clusters; ///< by cluster id; null where not shown
    std::vector<QString> clusterLabels; ///< by cluster id
    std::vector<Segment> segments;
    GroupExpansion expansion; ///< what was laid out
    int rootGroup = -1; ///< -1: the whole graph; else only that group's inside

    int graphvizRuns = 0; ///< group layouts computed by Graphviz
    int cachedRuns = 0; ///< group layouts reused from the cache
    double graphvizSeconds = 0; ///< time inside Graphviz
    double seconds = 0; ///< the whole layout: sizes, DOT, Graphviz, composition

    bool shows(int node) const { return size_t(node) < nodes.size() && !nodes[size_t(node)].isNull(); }
    GroupState stateOf(int group) const
    {
        return size_t(group) < groups.size() ? groups[size_t(group)].state : GroupState::Hidden;
    }
};

} // namespace ps
