#pragma once

#include "core/ir/value.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class Operation;

/// What a graph node stands for; decides its colour and shape.
enum class NodeKind : unsigned char {
    Data, ///< pd_op.data / pd_op.feed, block arguments and kwargs
    Parameter, ///< builtin.parameter (and legacy builtin.get_parameter)
    Compute, ///< any other op
    Grad, ///< an op whose name ends in `_grad`
    Output, ///< builtin.shadow_output, pd_op.fetch, builtin.set_parameter
    ControlFlow, ///< pd_op.if, pd_op.while, cf.yield, pd_op.pylayer
    Constant, ///< pd_op.full, pd_op.full_int_array, pd_op.assign_value(_), builtin.constant
};

/// "data", "parameter", ... (used in DOT class attributes and legends).
std::string_view nodeKindName(NodeKind kind);
/// Fill colour of a kind as "#rrggbb"; the DOT text and the GUI share this palette.
std::string_view nodeKindFillColor(NodeKind kind);

/// A box size in points (1/72 inch), the unit of DOT layouts and of the graph scene.
struct NodeSize
{
    double width = 0;
    double height = 0;
};

/// One node: an op, a block argument, or a ghost (a per-use stand-in for a shared value).
struct GraphNode
{
    int id = 0; ///< index in GraphModel::nodes; DOT name is "n<id>"
    /// The op drawn (for ghosts: the producer of `value`, null for argument ghosts); null for
    /// block-argument nodes.
    Operation *op = nullptr;
    NodeKind kind = NodeKind::Compute;
    bool ghost = false;
    /// Ghosts and argument nodes: the value they stand for. Null for op nodes.
    Value value;
    int cluster = -1; ///< innermost cluster index, -1 at top level
    /// Innermost layer group (GraphModel::groups) drawing this node, -1 at the top level. Ghosts
    /// and nodes inside regions share the group of the node they belong to.
    int group = -1;
    /// Ghosts: the consumer node they stand next to (one ghost per use); -1 otherwise.
    int attachedTo = -1;
    std::vector<std::string> lines; ///< label lines; the first is the title
};

/// One edge: the flow of `value` from the node that produces it (or its ghost) to one consumer.
struct GraphEdge
{
    int id = 0; ///< index in GraphModel::edges; DOT id is "e<id>"
    int from = 0;
    int to = 0;
    Value value;
    std::string label; ///< value name, else its shape ("-1x30xf32"); empty for ghost edges
    int operandIndex = 0; ///< operand slot at `to`
};

/// One region of a control-flow op, drawn as a DOT cluster "cluster_<id>" holding an
/// invisible anchor node "a<id>": DOT edges cannot end on clusters, so the owning op's node
/// points at the anchor (with lhead) to tie the region below its op.
struct GraphCluster
{
    int id = 0; ///< index in GraphModel::clusters
    int parent = -1; ///< enclosing cluster, -1 at top level
    Operation *op = nullptr; ///< the op owning the region
    unsigned regionIndex = 0;
    std::string label; ///< "if: true", "while: body", ...
};

/// What a layer group stands for.
enum class LayerGroupKind : unsigned char {
    Layer, ///< a `struct_name` path prefix: the ops of one nn.Layer and its sub-layers
    Backward, ///< the grad ops of a train program (mirroring the forward layers inside)
    Range, ///< a run of consecutive items of a group too big to lay out at once
    Unused, ///< parameters and constants nobody uses
};

/// A collapsible box of ops: a layer (from the ops' `struct_name` attribute), the backward part
/// of a train program, a range of a long flat sequence, or the unused parameters. Groups nest;
/// GraphModel::groups is the forest, a group's parent comes before it.
struct LayerGroup
{
    int id = 0; ///< index in GraphModel::groups; DOT name "g<id>" where drawn collapsed
    int parent = -1; ///< enclosing group, -1 at the top level
    LayerGroupKind kind = LayerGroupKind::Layer;
    /// Layer: the `struct_name` prefix ("/PPHGNetV2/StemBlock/"); Backward: "backward" or
    /// "backward" + the mirrored forward path; Range: the parent's path + "#first-last".
    std::string path;
    std::string label; ///< "StemBlock", "Encoder / Layer_0" (merged chain), "ops 120–179", ...
    std::vector<int> groups; ///< child groups, in program order
    std::vector<int> nodes; ///< nodes drawn directly in this group (no ghosts), in id order
    size_t ops = 0; ///< ops drawn inside, nested groups included (ghost-only ops excluded)
    int firstNode = 0; ///< smallest node id inside: orders siblings
};

/// A child of a group or of the top level: a node or a group.
struct GroupItem
{
    bool isGroup = false;
    int id = 0;
    friend bool operator==(const GroupItem &, const GroupItem &) = default;
};

/// A plain, Qt-free graph of a program or block, ready to be written as DOT.
struct GraphModel
{
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::vector<GraphCluster> clusters;
    /// Layer groups (LayerGrouper); empty when the graph was built without them.
    std::vector<LayerGroup> groups;
    std::vector<int> topGroups; ///< groups without a parent, in program order
    /// Nodes drawn directly at the top level (LayerGrouper fills it); when both this and
    /// `groups` are empty, every top-level non-ghost node is.
    std::vector<int> topNodes;
    /// Op → its (non-ghost) node. Ops drawn only as ghosts are absent.
    std::unordered_map<const Operation *, int> nodeOfOp;
    /// Op → every ghost node standing for one of its results.
    std::unordered_multimap<const Operation *, int> ghostsOfOp;

    /// The node of `op`, or -1.
    int nodeOf(const Operation *op) const
    {
        auto it = nodeOfOp.find(op);
        return it == nodeOfOp.end() ? -1 : it->second;
    }
    size_t ghostCount() const;
    /// Ops drawn as nodes of their own (not ghosts, not block arguments).
    size_t opNodeCount() const;
    /// The children of `group` (-1: the top level) in program order: nodes drawn directly there
    /// (ghosts and region members excluded) and child groups. O(children) for a group, O(nodes)
    /// for the top level.
    std::vector<GroupItem> itemsOf(int group) const;
    /// Groups a user names: by path ("/Net/Block/", "backward/Net/"), else by label or by the
    /// last segment of the path ("Block"). Several when the name is ambiguous.
    std::vector<int> groupsNamed(std::string_view name) const;
    /// True when `group` is `ancestor` or lies inside it (-1 contains everything).
    bool groupWithin(int group, int ancestor) const;
    /// For each node id, its ghosts in operand order (empty for most nodes). O(nodes).
    std::vector<std::vector<int>> ghostsByConsumer() const;
};

} // namespace ps
