#include "core/transform/autodiffcontrolflow.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/transform/gradstopgradient.h"
#include "core/transform/vjpcontrolflow.h"
#include "core/transform/vjprules.h"

namespace ps {

namespace {

/// `argument_to_value(while_op)`: operand (after the condition) → body argument.
ValueMap valueToBlockArgument(const Operation &op)
{
    ValueMap map;
    if (!ops::isWhile(op) || op.numRegions() == 0 || op.region(0).empty())
        return map;
    const Block &body = op.region(0).block(0);
    for (size_t i = 0; i < body.numArguments() && i + 1 < op.numOperands(); ++i)
        map[op.operand(unsigned(i + 1))] = body.argument(i);
    return map;
}

/// `value_in_block`: the value is defined in `block` or in a block enclosing it.
bool valueInBlock(Value value, const Block &block)
{
    const Block *defined = value.parentBlock();
    for (const Block *b = &block; b;) {
        if (b == defined)
            return true;
        const Operation *parent = b->parentOp();
        b = parent ? parent->parentBlock() : nullptr;
    }
    return false;
}

std::vector<Value> firsts(const std::vector<std::vector<Value>> &lists, size_t from = 0)
{
    std::vector<Value> out;
    for (size_t i = from; i < lists.size(); ++i)
        out.push_back(lists[i].empty() ? Value() : lists[i].front());
    return out;
}

} // namespace

bool AutodiffControlFlow::processIf(VjpCall &call, Block &bwdBlock, std::vector<Operation *> &backwardOps,
    GradState &state, const ValueMap &valueToCopy)
{
    Operation &op = *call.op;
    const std::vector<Value> originInputs = GradGraph::realInputs(op);
    for (unsigned r = 0; r < op.numRegions(); ++r)
        buildPipeForBlock(m_walker.program(), op.region(r).block(0));
    for (unsigned r = 0; r < op.numRegions(); ++r) {
        const Block &block = op.region(r).block(0);
        if (!block.empty() && block.op(0)->name() == ops::kTuplePop) {
            m_walker.diagnostics().error(
                {}, "the grad of a pd_op.if that is itself a grad (double grad) is not supported");
            return false;
        }
    }
    VjpResult inputGrads;
    if (!VjpRules::instance().apply(m_walker.builder(), call, inputGrads, m_walker.diagnostics()))
        return false;
    Operation *grad = bwdBlock.back();
    backwardOps.push_back(grad);

    std::vector<std::pair<Value, GradMap::Entries>> usedElsewhere;
    const std::vector<Value> baseInputs = firsts(call.inputs, 1);
    const std::vector<Value> baseGrads = firsts(inputGrads);
    for (unsigned r = 0; r < op.numRegions(); ++r) {
        Block &fwd = op.region(r).block(0);
        Block &bwd = grad->region(r).block(0);
        GradState sub = state;
        for (Value input : originInputs) {
            if (state.valueToGrad.contains(input))
                usedElsewhere.emplace_back(input, state.valueToGrad[input]);
        }
        std::vector<Operation *> subBackwardOps;
        ValueMap subCopy = valueToCopy;
        // Paddle passes no block-argument map to the branches of an if.
        if (!m_walker.appendBackwardOps(
                &op, baseInputs, baseGrads, fwd, bwd, fwd.ops(), subBackwardOps, sub, {}, subCopy))
            return false;
        for (const auto &[input, entries] : usedElsewhere)
            state.valueToGrad[input] = entries;
    }
    const Operation *trueYield = grad->region(0).block(0).back();
    const Operation *falseYield = grad->region(1).block(0).back();
    for (unsigned i = 0;
         i < grad->numResults() && i < trueYield->numOperands() && i < falseYield->numOperands(); ++i) {
        if (!valueStopGradient(trueYield->operand(i)) || !valueStopGradient(falseYield->operand(i)))
            setValueStopGradient(grad->result(i), false);
    }
    for (const auto &[input, entries] : usedElsewhere)
        state.valueToGrad[input] = {};
    m_walker.updateInputGradMap(op, inputGrads, originInputs, state);
    return true;
}

bool AutodiffControlFlow::processWhile(VjpCall &call, Block &bwdBlock, std::vector<Operation *> &backwardOps,
    GradState &state, const ValueMap &bwdValueToArg, const ValueMap &valueToCopy)
{
    Operation &op = *call.op;
    const std::vector<Value> originInputs = GradGraph::realInputs(op);
    Block &body = op.region(0).block(0);
    GradState sub = state;
    for (Value input : GradGraph::usedExternalValues(body)) {
        // Paddle sums into the outer state but reads the copy, so a pending sum is not seen here.
        if (sub.valueToGrad.contains(input) && sub.valueToGrad[input].size() > 1)
            m_walker.appendAddN(input, state, backwardOps, bwdValueToArg);
        if (sub.valueToGrad.emptyAt(input))
            m_walker.appendFullLike(0.0, input, input, sub, backwardOps);
        const std::vector<Value> gradValue = sub.valueToGrad[input].front();
        auto &sums = state.valueToSumGrad[input];
        const auto pending = state.valueToGrad[input];
        sums.insert(sums.end(), pending.begin(), pending.end());
        state.valueToGrad[input] = {};
        call.outGrads.push_back(AutodiffWalker::mapValues(gradValue, bwdValueToArg));
    }
    buildPipeForBlock(m_walker.program(), body);
    VjpResult inputGrads;
    if (!VjpRules::instance().apply(m_walker.builder(), call, inputGrads, m_walker.diagnostics()))
        return false;
    Operation *grad = bwdBlock.back();
    backwardOps.push_back(grad);

    ValueMap subArgs = valueToBlockArgument(*grad);
    for (const auto &[from, to] : bwdValueToArg)
        subArgs[from] = to;
    ValueMap subCopy = valueToCopy;
    Block &gradBody = grad->region(0).block(0);
    std::vector<Operation *> subBackwardOps;
    if (!m_walker.appendBackwardOps(&op, firsts(call.inputs), firsts(inputGrads), body, gradBody, body.ops(),
            subBackwardOps, sub, subArgs, subCopy))
        return false;
    const Operation *yield = gradBody.back();
    for (unsigned i = 1; i < yield->numOperands() && i - 1 < grad->numResults(); ++i) {
        if (!valueStopGradient(yield->operand(i)))
            setValueStopGradient(grad->result(i - 1), false);
    }
    m_walker.updateInputGradMap(op, inputGrads, originInputs, state);
    return true;
}

bool AutodiffControlFlow::appendYield(Block &bwdBlock, Operation &baseOp, std::vector<Value> baseInputs,
    const std::vector<Value> &baseInputGrads, std::vector<Operation *> &backwardOps, GradState &state,
    const ValueMap &bwdValueToArg, const ValueMap &valueToCopy)
{
    GradOpBuilder &b = m_walker.builder();
    b.setInsertionPointToEnd(bwdBlock);
    std::vector<Value> grads;
    if (ops::isWhile(baseOp)) {
        const Value cond = buildHasElements(b, baseOp, m_walker.diagnostics());
        if (!cond)
            return false;
        grads.push_back(cond);
        const ValueMap toArgument = valueToBlockArgument(baseOp);
        for (size_t i = 0; i < baseInputs.size() && i < baseOp.numOperands(); ++i)
            baseInputs[i] = AutodiffWalker::mapValue(baseInputs[i], toArgument);
    }
    for (size_t i = 0; i < baseInputs.size() && i < baseInputGrads.size(); ++i) {
        if (!baseInputGrads[i])
            continue;
        const Value value = AutodiffWalker::mapValue(baseInputs[i], state.insideToOutside);
        if (state.valueToGrad.contains(value)) {
            if (state.valueToGrad[value].size() > 1)
                m_walker.appendAddN(value, state, backwardOps, bwdValueToArg);
        } else {
            const Value copy = AutodiffWalker::mapValue(value, valueToCopy);
            if (!copy || !valueInBlock(copy, bwdBlock))
                state.valueToGrad[value] = { { Value() } };
            else
                m_walker.appendFullLike(0.0, copy, value, state, backwardOps);
        }
        const auto &entries = state.valueToGrad[value];
        const Value grad = entries.empty() || entries.front().empty() ? Value() : entries.front().front();
        grads.push_back(AutodiffWalker::mapValue(grad, bwdValueToArg));
    }
    b.createPlain(ops::kYield, grads, {});
    return !m_walker.diagnostics().hasErrors();
}

} // namespace ps
