#pragma once

#include "core/ir/diagnostic.h"
#include "core/transform/autodiff.h"
#include "core/transform/gradgraph.h"
#include "core/transform/gradopbuilder.h"
#include "core/transform/gradstate.h"
#include "core/transform/vjpcall.h"

#include <unordered_map>
#include <vector>

namespace ps {

class Block;
class Operation;
class Program;

using ValueMap = std::unordered_map<Value, Value>;

/// ir_backward.py's `append_backward_ops` and its helpers: walks forward ops in reverse
/// topological order, gathers and sums output gradients, calls the VJP rules and records the
/// input gradients in a GradState. Control flow (pd_op.if / pd_op.while) recurses through
/// AutodiffControlFlow. Errors (an op without a grad op, a rule that fails) are reported to the
/// DiagnosticList and stop the walk.
class AutodiffWalker
{
public:
    AutodiffWalker(Program &program, const ValueSet &noGrad, DiagnosticList &diagnostics);

    GradOpBuilder &builder() { return m_builder; }
    /// When set, the top-level walk (fwdBlock == bwdBlock) appends, per forward op, the ops
    /// processOp added to `backwardOps` for it. Off (nullptr) by default.
    void setGradOpLog(std::vector<GradOpGroup> *log) { m_gradOpLog = log; }
    Program &program() { return m_program; }
    const ValueSet &noGrad() const { return m_noGrad; }
    DiagnosticList &diagnostics() { return m_diagnostics; }

    /// `append_backward_ops(base_op, base_inputs, base_input_grads, fwd_block, bwd_block,
    /// effective_forward_ops, ...)`: grad ops go to the end of `bwdBlock`; `backwardOps` receives
    /// the ops created for `fwdBlock`'s level. For a sub-block (fwdBlock != bwdBlock) the grad
    /// block is closed with its `cf.yield`. Returns false after an error.
    bool appendBackwardOps(Operation *baseOp, std::vector<Value> baseInputs,
        const std::vector<Value> &baseInputGrads, Block &fwdBlock, Block &bwdBlock,
        const std::vector<Operation *> &effectiveOps, std::vector<Operation *> &backwardOps, GradState &state,
        const ValueMap &bwdValueToArg, ValueMap &valueToCopy);

    /// `append_full_like(fill, copy_value, value)`: a zero/one gradient for `value` shaped like
    /// `copyValue`, recorded as its only gradient.
    Value appendFullLike(
        double fill, Value copyValue, Value value, GradState &state, std::vector<Operation *> &backwardOps);
    /// `append_add_n`: sums the pending gradients of `value` into one (builtin.combine + add_n).
    void appendAddN(
        Value value, GradState &state, std::vector<Operation *> &backwardOps, const ValueMap &bwdValueToArg);
    /// `update_input_grad_map`: appends the gradients a VJP returned to each input's list.
    void updateInputGradMap(const Operation &op, const std::vector<std::vector<Value>> &inputGrads,
        const std::vector<Value> &inputs, GradState &state);
    /// `get_grad_semantic_info(op)`.
    std::vector<bool> gradSemantics(const Operation &op) const;
    /// `remove_op`: erases `op` (all its results must be unused) and forgets the gradients it made.
    static void removeOp(Operation *op, GradState &state);

    static Value mapValue(Value v, const ValueMap &map);
    static std::vector<Value> mapValues(const std::vector<Value> &values, const ValueMap &map);

private:
    struct OutputGrads
    {
        std::vector<bool> zeroFlags;
        std::vector<std::vector<Value>> outputs;
        std::vector<std::vector<Value>> outGrads;
    };
    struct InputStops
    {
        std::vector<std::vector<Value>> inputs;
        std::vector<std::vector<bool>> stopGradients;
    };

    OutputGrads makeOutputWithOutputGrad(Operation &op, GradState &state,
        std::vector<Operation *> &backwardOps, const ValueMap &bwdValueToArg, const ValueMap &valueToCopy);
    InputStops makeInputWithInputStopGradient(const Operation &op, const ValueMap &valueToCopy) const;
    bool processOp(Operation &op, Block &bwdBlock, std::vector<Operation *> &backwardOps, GradState &state,
        const ValueMap &bwdValueToArg, ValueMap &valueToCopy, std::vector<Operation *> &tupleOps);
    bool processTuplePush(Operation &op, const InputStops &in, Block &bwdBlock,
        std::vector<Operation *> &backwardOps, ValueMap &valueToCopy, std::vector<Operation *> &tupleOps);
    bool processNoVjp(Operation &op, GradState &state, std::vector<Operation *> &backwardOps,
        const ValueMap &bwdValueToArg);

    Program &m_program;
    const ValueSet &m_noGrad;
    DiagnosticList &m_diagnostics;
    GradOpBuilder m_builder;
    std::vector<GradOpGroup> *m_gradOpLog = nullptr;

    friend class AutodiffControlFlow;
};

} // namespace ps
