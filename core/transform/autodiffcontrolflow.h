#pragma once

#include "core/transform/autodiffwalker.h"

namespace ps {

/// The control-flow branches of ir_backward.py's `append_backward_ops`: the grad of a
/// `pd_op.if` (pipes for both blocks, an empty grad if, both grad blocks filled recursively) and
/// of a `pd_op.while` (zero gradients for the body's external inputs, a pipe for the body, the
/// `cf.has_elements`-driven grad while filled recursively), and `append_yield`, which closes a
/// grad block with the summed gradients of the forward op's inputs.
class AutodiffControlFlow
{
public:
    explicit AutodiffControlFlow(AutodiffWalker &walker)
        : m_walker(walker)
    {
    }

    bool processIf(VjpCall &call, Block &bwdBlock, std::vector<Operation *> &backwardOps, GradState &state,
        const ValueMap &valueToCopy);
    bool processWhile(VjpCall &call, Block &bwdBlock, std::vector<Operation *> &backwardOps, GradState &state,
        const ValueMap &bwdValueToArg, const ValueMap &valueToCopy);
    bool appendYield(Block &bwdBlock, Operation &baseOp, std::vector<Value> baseInputs,
        const std::vector<Value> &baseInputGrads, std::vector<Operation *> &backwardOps, GradState &state,
        const ValueMap &bwdValueToArg, const ValueMap &valueToCopy);

private:
    AutodiffWalker &m_walker;
};

} // namespace ps
