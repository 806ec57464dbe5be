#include "core/transform/autodiffwalker.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/autodiffcontrolflow.h"
#include "core/transform/gradstopgradient.h"
#include "core/transform/vjprules.h"

#include <algorithm>
#include <string>

namespace ps {

namespace {

bool isCombineResult(Value v)
{
    const Operation *def = v.definingOp();
    return def && ops::isCombine(*def);
}

bool isFake(Value v)
{
    return v.isNull() || !v.type();
}

/// The `builtin.split` that unpacks a vector value, or nullptr.
Operation *splitUser(Value v)
{
    for (OpOperand *use = v.firstUse(); use; use = use->nextUse()) {
        if (ops::isBuiltinSplit(*use->owner()))
            return use->owner();
    }
    return nullptr;
}

bool allTrue(const std::vector<bool> &flags)
{
    return std::all_of(flags.begin(), flags.end(), [](bool b) { return b; });
}

} // namespace

AutodiffWalker::AutodiffWalker(Program &program, const ValueSet &noGrad, DiagnosticList &diagnostics)
    : m_program(program)
    , m_noGrad(noGrad)
    , m_diagnostics(diagnostics)
    , m_builder(program)
{
}

Value AutodiffWalker::mapValue(Value v, const ValueMap &map)
{
    for (auto it = map.find(v); it != map.end(); it = map.find(v))
        v = it->second;
    return v;
}

std::vector<Value> AutodiffWalker::mapValues(const std::vector<Value> &values, const ValueMap &map)
{
    std::vector<Value> out;
    out.reserve(values.size());
    for (Value v : values)
        out.push_back(mapValue(v, map));
    return out;
}

std::vector<bool> AutodiffWalker::gradSemantics(const Operation &op) const
{
    const std::string_view name = op.name();
    if (name == ops::kCombine || name == ops::kIf || name == ops::kWhile || name == ops::kPyLayer
        || name == ops::kTuplePush) {
        std::vector<bool> semantics(GradGraph::realInputs(op).size(), true);
        if (name == ops::kIf && !semantics.empty())
            semantics[0] = false;
        return semantics;
    }
    return VjpRules::instance().gradSemantics(op);
}

Value AutodiffWalker::appendFullLike(
    double fill, Value copyValue, Value value, GradState &state, std::vector<Operation *> &backwardOps)
{
    if (isFake(value)) {
        state.valueToGrad[value] = { { Value() } };
        return {};
    }
    if (copyValue.type().kind() == Type::Kind::Vector) {
        m_diagnostics.error(
            {}, "This kind of scene, where VectorType grad be fulled with zeros should not occur.");
        return {};
    }
    if (copyValue.type().kind() == Type::Kind::DenseTensorArray) {
        m_diagnostics.error(
            {}, "zero gradients of tensor arrays (pd_op.create_array_like) are not supported");
        return {};
    }
    Operation *fullLike = m_builder.fullLike(copyValue, fill);
    backwardOps.push_back(fullLike);
    backwardOps.push_back(fullLike->operand(1).definingOp());
    const Value grad = fullLike->result(0);
    state.valueToGrad[value] = { { grad } };
    return grad;
}

void AutodiffWalker::appendAddN(
    Value value, GradState &state, std::vector<Operation *> &backwardOps, const ValueMap &bwdValueToArg)
{
    auto &entries = state.valueToGrad[value];
    std::vector<Value> terms;
    for (const auto &entry : entries) {
        if (!entry.empty() && entry.front())
            terms.push_back(mapValue(entry.front(), bwdValueToArg));
    }
    auto &sums = state.valueToSumGrad[value];
    sums.insert(sums.end(), entries.begin(), entries.end());
    // Paddle's FLAGS_max_inplace_grad_add is 0 by default, so sums are never chains of add_.
    if (terms.empty()) {
        state.valueToGrad[value] = {};
    } else if (terms.size() == 1) {
        state.valueToGrad[value] = { terms };
    } else {
        Operation *addN = m_builder.addN(terms);
        backwardOps.push_back(addN->operand(0).definingOp());
        backwardOps.push_back(addN);
        state.valueToGrad[value] = { { addN->result(0) } };
    }
}

void AutodiffWalker::updateInputGradMap(const Operation &op,
    const std::vector<std::vector<Value>> &inputGrads, const std::vector<Value> &inputs, GradState &state)
{
    const std::vector<bool> semantics = gradSemantics(op);
    size_t i = 0;
    for (size_t k = 0; k < inputs.size() && k < semantics.size(); ++k) {
        if (!semantics[k])
            continue;
        const Value input = inputs[k];
        std::vector<Value> grads = i < inputGrads.size() ? inputGrads[i] : std::vector<Value>();
        if (grads.empty())
            grads.push_back(Value());
        if (op.name() != ops::kTuplePush && isCombineResult(input)) {
            const Operation &combine = *input.definingOp();
            std::vector<std::vector<Value>> elementGrads;
            for (Value g : grads)
                elementGrads.push_back({ g });
            updateInputGradMap(combine, elementGrads, combine.operands(), state);
        } else if (input) {
            state.valueToGrad[input].push_back(grads);
        }
        ++i;
    }
}

void AutodiffWalker::removeOp(Operation *op, GradState &state)
{
    for (Value r : op->results()) {
        if (auto it = state.gradToValue.find(r); it != state.gradToValue.end())
            state.valueToGrad[it->second] = {};
    }
    op->parentBlock()->erase(op);
}

AutodiffWalker::OutputGrads AutodiffWalker::makeOutputWithOutputGrad(Operation &op, GradState &state,
    std::vector<Operation *> &backwardOps, const ValueMap &bwdValueToArg, const ValueMap &valueToCopy)
{
    std::vector<Value> outputList;
    if (op.name() == ops::kArrayWrite_)
        outputList = { op.operand(0) };
    else if (op.name() == ops::kAssignOut_)
        outputList = { op.operand(1) };
    else
        outputList = op.results();

    OutputGrads out;
    out.zeroFlags.assign(outputList.size(), false);
    for (size_t i = 0; i < outputList.size(); ++i) {
        std::vector<Value> newValue { mapValue(outputList[i], valueToCopy) };
        const Value value = mapValue(outputList[i], state.insideToOutside);
        if (state.valueToGrad.contains(value) && state.valueToGrad[value].size() > 1)
            appendAddN(value, state, backwardOps, bwdValueToArg);
        if (state.valueToGrad.emptyAt(value) || state.valueToGrad[value].front().empty()
            || !state.valueToGrad[value].front().front()) {
            Operation *split = value.hasUses() ? splitUser(value) : nullptr;
            if (split) {
                OutputGrads sub
                    = makeOutputWithOutputGrad(*split, state, backwardOps, bwdValueToArg, valueToCopy);
                out.zeroFlags[i] = allTrue(sub.zeroFlags);
                std::vector<Value> gradValues;
                for (const auto &g : sub.outGrads)
                    gradValues.push_back(g.empty() ? Value() : g.front());
                state.valueToGrad[value] = { gradValues };
                newValue.clear();
                for (const auto &o : sub.outputs)
                    newValue.push_back(o.empty() ? Value() : o.front());
            } else {
                appendFullLike(0.0, newValue.front(), value, state, backwardOps);
                out.zeroFlags[i] = true;
            }
        }
        out.outputs.push_back(newValue);
        const auto &entries = state.valueToGrad[value];
        const std::vector<Value> gradValue
            = entries.empty() ? std::vector<Value> { Value() } : entries.front();
        if (gradValue.empty() || !gradValue.front())
            out.zeroFlags[i] = true;
        out.outGrads.push_back(mapValues(gradValue, bwdValueToArg));
    }
    if (op.name() == "pd_op.array_read") {
        const Value value = mapValue(op.operand(0), state.insideToOutside);
        if (state.valueToGrad.contains(value) && state.valueToGrad[value].size() > 1)
            appendAddN(value, state, backwardOps, bwdValueToArg);
        if (state.valueToGrad.emptyAt(value))
            appendFullLike(0.0, mapValue(value, valueToCopy), value, state, backwardOps);
        const auto &entries = state.valueToGrad[value];
        out.outGrads.push_back(
            mapValues(entries.empty() ? std::vector<Value> {} : entries.front(), bwdValueToArg));
    }
    return out;
}

AutodiffWalker::InputStops AutodiffWalker::makeInputWithInputStopGradient(
    const Operation &op, const ValueMap &valueToCopy) const
{
    InputStops out;
    const std::vector<Value> inputs = GradGraph::realInputs(op);
    const std::vector<bool> semantics = gradSemantics(op);
    for (size_t k = 0; k < inputs.size() && k < semantics.size(); ++k) {
        const Value input = inputs[k];
        if (!semantics[k]) {
            if (op.name() != ops::kTuplePush && !ops::isIf(op) && isCombineResult(input))
                out.inputs.push_back(mapValues(input.definingOp()->operands(), valueToCopy));
            else
                out.inputs.push_back({ mapValue(input, valueToCopy) });
            continue;
        }
        if (op.name() != ops::kTuplePush && isCombineResult(input)) {
            const InputStops combine = makeInputWithInputStopGradient(*input.definingOp(), valueToCopy);
            std::vector<Value> values;
            std::vector<bool> stops;
            for (size_t j = 0; j < combine.inputs.size(); ++j) {
                values.push_back(combine.inputs[j].front());
                stops.push_back(combine.stopGradients[j].front());
            }
            out.inputs.push_back(values);
            out.stopGradients.push_back(stops);
        } else {
            out.inputs.push_back({ mapValue(input, valueToCopy) });
            out.stopGradients.push_back({ m_noGrad.count(input) != 0 || valueStopGradient(input) });
        }
    }
    return out;
}

bool AutodiffWalker::appendBackwardOps(Operation *baseOp, std::vector<Value> baseInputs,
    const std::vector<Value> &baseInputGrads, Block &fwdBlock, Block &bwdBlock,
    const std::vector<Operation *> &effectiveOps, std::vector<Operation *> &backwardOps, GradState &state,
    const ValueMap &bwdValueToArg, ValueMap &valueToCopy)
{
    std::vector<Operation *> forwardOps = effectiveOps;
    if (forwardOps.size() > 1 && ops::isYield(*forwardOps.back())) {
        const Operation *yield = forwardOps.back();
        const unsigned skip = baseOp && ops::isWhile(*baseOp) ? 1 : 0;
        for (unsigned i = skip; baseOp && i < yield->numOperands() && i - skip < baseOp->numResults(); ++i)
            state.insideToOutside[yield->operand(i)] = baseOp->result(i - skip);
        forwardOps.pop_back();
    }
    std::vector<Operation *> order;
    if (GradGraph::isInplaceNet(forwardOps))
        order.assign(forwardOps.rbegin(), forwardOps.rend());
    else
        order = GradGraph::inverseSort(forwardOps);

    Block *savedBlock = m_builder.insertionBlock();
    const long savedIndex = m_builder.insertionIndex();
    m_builder.setInsertionPointToEnd(bwdBlock);
    std::vector<Operation *> tupleOps; // pop, push, stack of this block's pipe
    bool ok = true;
    for (Operation *op : order) {
        if (ops::isCombine(*op) || ops::isBuiltinSplit(*op))
            continue;
        m_builder.setInsertionPointToEnd(bwdBlock);
        const size_t first = backwardOps.size();
        if (!processOp(*op, bwdBlock, backwardOps, state, bwdValueToArg, valueToCopy, tupleOps)) {
            ok = false;
            break;
        }
        if (m_gradOpLog && &fwdBlock == &bwdBlock && backwardOps.size() > first)
            m_gradOpLog->push_back({ op, { backwardOps.begin() + long(first), backwardOps.end() } });
    }
    if (ok && &fwdBlock != &bwdBlock) {
        m_builder.setInsertionPointToEnd(bwdBlock);
        if (!tupleOps.empty()) {
            const auto results = tupleOps[0]->results();
            const bool unused
                = std::none_of(results.begin(), results.end(), [](Value v) { return v.hasUses(); });
            if (unused) {
                removeOp(tupleOps[0], state);
                tupleOps[1]->parentBlock()->erase(tupleOps[1]);
                const auto stack = tupleOps[2]->results();
                if (std::none_of(stack.begin(), stack.end(), [](Value v) { return v.hasUses(); }))
                    tupleOps[2]->parentBlock()->erase(tupleOps[2]);
            }
        }
        ok = AutodiffControlFlow(*this).appendYield(bwdBlock, *baseOp, std::move(baseInputs), baseInputGrads,
            backwardOps, state, bwdValueToArg, valueToCopy);
    }
    if (savedBlock && savedIndex < 0)
        m_builder.setInsertionPointToEnd(*savedBlock);
    else if (savedBlock)
        m_builder.setInsertionPoint(*savedBlock, size_t(savedIndex));
    return ok;
}

bool AutodiffWalker::processOp(Operation &op, Block &bwdBlock, std::vector<Operation *> &backwardOps,
    GradState &state, const ValueMap &bwdValueToArg, ValueMap &valueToCopy,
    std::vector<Operation *> &tupleOps)
{
    if (!VjpRules::instance().hasVjp(op))
        return processNoVjp(op, state, backwardOps, bwdValueToArg);

    OutputGrads out = makeOutputWithOutputGrad(op, state, backwardOps, bwdValueToArg, valueToCopy);
    if (m_diagnostics.hasErrors())
        return false;
    InputStops in = makeInputWithInputStopGradient(op, valueToCopy);
    const std::string_view name = op.name();
    if (name == ops::kTuplePush)
        return processTuplePush(op, in, bwdBlock, backwardOps, valueToCopy, tupleOps);

    const bool noGrads
        = std::all_of(out.outGrads.begin(), out.outGrads.end(), [](const std::vector<Value> &g) {
              return std::all_of(g.begin(), g.end(), [](Value v) { return v.isNull(); });
          });
    if ((out.outGrads.empty() || allTrue(out.zeroFlags) || noGrads) && name != ops::kWhile && name != ops::kIf
        && name != ops::kIncrement_)
        return true;
    const bool allStopped = std::all_of(in.stopGradients.begin(), in.stopGradients.end(),
        [](const std::vector<bool> &s) { return allTrue(s); });
    if (allStopped && name != "pd_op.array_read" && name != ops::kArrayWrite_ && name != ops::kIncrement_)
        return true;

    VjpCall call { &op, std::move(in.inputs), std::move(out.outputs), std::move(out.outGrads),
        std::move(in.stopGradients) };
    if (name == ops::kIf)
        return AutodiffControlFlow(*this).processIf(call, bwdBlock, backwardOps, state, valueToCopy);
    if (name == ops::kWhile)
        return AutodiffControlFlow(*this).processWhile(
            call, bwdBlock, backwardOps, state, bwdValueToArg, valueToCopy);
    if (name == ops::kPyLayer) {
        m_diagnostics.error(
            {}, "op 'pd_op.pylayer' has no VJP rule in PIRScope (its backward is a Python function)");
        return false;
    }
    const size_t before = bwdBlock.size();
    VjpResult grads;
    if (!VjpRules::instance().apply(m_builder, call, grads, m_diagnostics))
        return false;
    for (size_t i = before; i < bwdBlock.size(); ++i)
        backwardOps.push_back(bwdBlock.op(i));
    updateInputGradMap(op, grads, op.operands(), state);
    return true;
}

bool AutodiffWalker::processTuplePush(Operation &op, const InputStops &in, Block &bwdBlock,
    std::vector<Operation *> &backwardOps, ValueMap &valueToCopy, std::vector<Operation *> &tupleOps)
{
    Operation *stack = op.operand(0).definingOp();
    if (!stack || stack->numResults() < 3) {
        m_diagnostics.error({}, "cf.tuple_push without its cf.stack_create");
        return false;
    }
    const Value outlet = stack->result(2);
    if (outlet.hasUses()) {
        backwardOps.push_back(outlet.firstUse()->owner());
        return true;
    }
    VjpCall call { &op, in.inputs, {}, {}, in.stopGradients };
    VjpResult copies;
    if (!VjpRules::instance().apply(m_builder, call, copies, m_diagnostics))
        return false;
    Operation *pop = bwdBlock.back();
    tupleOps = { pop, &op, stack };
    backwardOps.push_back(pop);
    for (size_t i = 1; i < call.inputs.size() && i < copies.size(); ++i)
        valueToCopy[call.inputs[i].front()] = copies[i].front();
    return true;
}

bool AutodiffWalker::processNoVjp(
    Operation &op, GradState &state, std::vector<Operation *> &backwardOps, const ValueMap &bwdValueToArg)
{
    if ((op.numOperands() == 0 && op.numResults() != 0) || op.name() == ops::kFullLike
        || op.name() == ops::kTuplePop) {
        for (Value v : op.results()) {
            if (state.valueToGrad.contains(v) && state.valueToGrad[v].size() > 1)
                appendAddN(v, state, backwardOps, bwdValueToArg);
        }
        return true;
    }
    const auto results = op.results();
    const bool allStopped
        = std::all_of(results.begin(), results.end(), [](Value v) { return valueStopGradient(v); });
    if (op.dialect() != "builtin" && !allStopped) {
        m_diagnostics.error(
            {}, "op '" + std::string(op.name()) + "' has no grad op, consider enable prim to decompose it.");
        return false;
    }
    return true;
}

} // namespace ps
