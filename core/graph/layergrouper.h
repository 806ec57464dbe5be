#pragma once

#include "core/graph/graphmodel.h"

#include <cstddef>
#include <unordered_map>

namespace ps {

class Operation;

/// How LayerGrouper groups a graph.
struct LayerGrouperOptions
{
    /// Group ops by their `struct_name` layer path. Off: only ranges and the unused group.
    bool layers = true;
    /// A group (or the top level) with more direct items than this is split into ranges of
    /// consecutive items, so that no single Graphviz layout is bigger; 0 disables.
    size_t maxItems = 48;
    /// Put parameters and constants without uses into one "unused" group.
    bool unusedGroup = true;
    /// Grad op → the forward op it differentiates (autodiff's links), to file grad ops under
    /// the forward op's layer. Where absent, the forward op is guessed from the grad op's
    /// operands (a `relu_grad` next to the `relu` it reads).
    const std::unordered_map<const Operation *, const Operation *> *forwardOpOf = nullptr;
};

/// Fills GraphModel::groups, topGroups, topNodes and GraphNode::group.
///
/// Layers come from `struct_name` ("/PPHGNetV2/StemBlock/ConvBNAct/Conv2D/"): one group per
/// path prefix. A group holding a single op is dissolved into its parent (a box around one op
/// says nothing) and a group holding only one sub-group is merged with it ("A / B"). Ops of a
/// train program from its first grad op on that carry no `struct_name` (Paddle gives grad ops
/// none) go into a "backward" group that mirrors the forward layers: a grad op under its
/// forward op's layer, a helper op (add_n, full, ...) under the layer of its first consumer.
/// Ops without a layer stay at the top level while they are few; when more than half of
/// maxItems would (a split forward's shadow_outputs), each joins its first consumer's layer or
/// else its first operand producer's, and those still left share one "ops outside any layer"
/// group. Nodes inside control-flow regions and ghosts belong to the group of the op they
/// belong to.
/// O(nodes + edges + total path length).
class LayerGrouper
{
public:
    static void group(GraphModel &model, const LayerGrouperOptions &options = {});
    /// The forward op a grad op most likely differentiates: for `pd_op.X_grad`, an operand's
    /// producer or user named `pd_op.X` that has a `struct_name`; null when none is found.
    static const Operation *guessForwardOp(const Operation &gradOp);
};

} // namespace ps
