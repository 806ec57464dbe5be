#pragma once

#include "core/graph/dotwriter.h"
#include "core/graph/graphmodel.h"

#include <memory>
#include <string>
#include <vector>

namespace ps {

class GroupExpansion;

/// Writes the Graphviz graph of one layer group (or of the top level): its direct nodes (with
/// the regions of their control-flow ops as clusters), its child groups as boxes of given
/// sizes ("g<id>"), and invisible ports for the values that enter ("pi<k>", top rank) and leave
/// ("po<k>", bottom rank) the group. Laying out every expanded group this way, innermost first
/// so that a frame's size is known before its parent's layout, and nesting the results is the
/// hierarchical layout of Model Explorer: no single Graphviz run is larger than one group,
/// and a group's layout is reused (cached by its DOT text) until something inside it changes.
///
/// Ghost chips are attached (DotWriterOptions::attachGhosts is taken as set).
class GroupDotWriter
{
public:
    /// One DOT edge "e<k>" of a group's graph: between two items, or from an entry port, or to
    /// an exit port, carrying `value` (one edge per distinct (from, to, value)).
    struct Edge
    {
        GroupItem from;
        GroupItem to;
        int fromPort = -1; ///< entry port index when the value comes from outside the group
        int toPort = -1; ///< exit port index when it goes outside
        Value value;
        int modelEdge = -1; ///< one GraphModel edge this DOT edge carries
    };

    struct Graph
    {
        std::string dot;
        std::vector<GroupItem> items; ///< the group's direct items, in program order
        std::vector<Edge> edges;
        std::vector<Value> entries; ///< "pi<k>"
        std::vector<Value> exits; ///< "po<k>"
        std::vector<int> clusters; ///< region clusters drawn inside (nested ones included)
    };

    /// Indexes the model's edges by the groups they concern. O(edges × group depth).
    explicit GroupDotWriter(const GraphModel &model);
    ~GroupDotWriter();

    /// The graph of `group` (-1: the top level). `nodeSizes` holds every node's box (chips
    /// included, DotWriter::boxSizes), `groupSizes` the box or frame of every group drawn as an
    /// item; `expansion` only decides whether an arrow stops at a child box (collapsed) or goes
    /// on inside (expanded). Deterministic: the same inputs give the same text.
    Graph write(int group, const std::vector<NodeSize> &nodeSizes, const std::vector<NodeSize> &groupSizes,
        const GroupExpansion &expansion, const DotWriterOptions &options) const;

    /// The flat graph of the whole model, groups ignored (DotWriter::write).
    static std::string writeFlat(const GraphModel &model, const DotWriterOptions &options);

    /// The item of `group` that holds `node` (the node itself, or the child group it is in);
    /// `{true, -2}` when the node lies outside `group`.
    GroupItem localItem(int node, int group) const;

    struct Index;

private:
    const GraphModel &m_model;
    std::unique_ptr<Index> m_index;
    std::vector<std::vector<int>> m_edgesOfGroup; ///< index group + 1 (0: the top level)
};

} // namespace ps
