#pragma once

#include "core/ir/value.h"

#include <unordered_set>
#include <vector>

namespace ps {

class Block;
class Operation;

using ValueSet = std::unordered_set<Value>;

/// Graph queries of ir_backward.py / backward_utils.py over forward and backward ops.
class GradGraph
{
public:
    /// `get_used_external_value(op)`: the op's operands, then every value its regions use but do
    /// not define, in first-use order (null values left out).
    static std::vector<Value> usedExternalValues(const Operation &op);
    /// `get_used_external_value(block)`: values the block's ops use that are not defined in the
    /// block (its arguments count as defined).
    static std::vector<Value> usedExternalValues(const Block &block);
    /// `get_real_op_inputs`: if/pylayer → used external values; while → operands + external
    /// values of the body; others → operands.
    static std::vector<Value> realInputs(const Operation &op);
    /// `get_real_op_outputs`: results (plus the operands of array_write_, also inside a while).
    static std::vector<Value> realOutputs(const Operation &op);
    /// `inverse_sort_op`: reverse topological order (Kahn's algorithm over real inputs, ties in
    /// list order), with Paddle's increment_ swap.
    static std::vector<Operation *> inverseSort(const std::vector<Operation *> &ops);
    /// `is_inplace_net`: an array_write_/assign_out_ anywhere (control-flow blocks included).
    static bool isInplaceNet(const std::vector<Operation *> &ops);
    /// `prune_ops`: keeps ops on a path from `inputs` to `outputs` (`effective`) and reports the
    /// ops on no path at all (`uneffective`). The sets are extended as Paddle extends them.
    static void pruneOps(const std::vector<Operation *> &ops, ValueSet inputs, ValueSet outputs,
        const ValueSet &noGrad, std::vector<Operation *> *effective, std::vector<Operation *> *uneffective);
};

} // namespace ps
