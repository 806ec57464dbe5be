#include "core/transform/autodiff.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/transform/autodiffwalker.h"
#include "core/transform/gradgraph.h"
#include "core/transform/gradstopgradient.h"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace ps {

namespace {

bool isControlFlow(const Operation &op)
{
    return ops::isIf(op) || ops::isWhile(op);
}

void addStopGradientValues(const Block &block, ValueSet &noGrad)
{
    for (const Operation *op : block.ops()) {
        if (isControlFlow(*op)) {
            for (unsigned r = 0; r < op->numRegions(); ++r) {
                for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                    addStopGradientValues(op->region(r).block(b), noGrad);
            }
        }
        for (Value v : op->results()) {
            if (valueStopGradient(v))
                noGrad.insert(v);
        }
    }
}

bool allStopGradient(const Block &block)
{
    for (const Operation *op : block.ops()) {
        for (Value v : op->results()) {
            if (!valueStopGradient(v))
                return false;
        }
    }
    return true;
}

bool sameShape(Type a, Type b)
{
    if (a.kind() != Type::Kind::DenseTensor || b.kind() != Type::Kind::DenseTensor)
        return true;
    if (a.dims().size() != b.dims().size())
        return false;
    for (size_t i = 0; i < a.dims().size(); ++i) {
        if (a.dims()[i] != -1 && b.dims()[i] != -1 && a.dims()[i] != b.dims()[i])
            return false;
    }
    return true;
}

bool allUnused(const Operation &op)
{
    const auto results = op.results();
    return std::none_of(results.begin(), results.end(), [](Value v) { return v.hasUses(); });
}

/// AutodiffWalker::removeOp on each op of `ops`, in order, whose results are all unused (and
/// that `skip` does not reject), without its O(block size) erase per op: a removed op's gradients
/// are forgotten and its operands dropped at once (so the ops feeding only it become unused for
/// the ops that follow), and the removed ops leave their blocks in one pass per block.
template<class Skip>
void removeUnusedOps(const std::vector<Operation *> &ops, GradState &state, Arena &arena, Skip skip)
{
    std::unordered_set<const Operation *> removed;
    std::vector<Block *> blocks;
    for (Operation *op : ops) {
        if (!op || skip(*op) || !allUnused(*op) || !removed.insert(op).second)
            continue;
        for (Value r : op->results()) {
            if (auto it = state.gradToValue.find(r); it != state.gradToValue.end())
                state.valueToGrad[it->second] = {};
        }
        op->setOperands(arena, {});
        if (std::find(blocks.begin(), blocks.end(), op->parentBlock()) == blocks.end())
            blocks.push_back(op->parentBlock());
    }
    for (Block *block : blocks)
        block->eraseIf([&removed](Operation *op) { return removed.count(op) != 0; });
}

/// `remove_useless_full_like_ops`: unused full_like ops (and their full) in a grad block.
void removeUselessFullLike(Block &block, GradState &state)
{
    std::vector<Operation *> remove;
    for (Operation *op : GradGraph::inverseSort(block.ops())) {
        if (op->name() == ops::kFullLike && !op->result(0).hasUses()) {
            remove.push_back(op);
            remove.push_back(op->operand(1).definingOp());
        } else if (isControlFlow(*op)) {
            for (unsigned r = 0; r < op->numRegions(); ++r) {
                for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                    removeUselessFullLike(op->region(r).block(b), state);
            }
        }
    }
    for (Operation *op : remove) {
        if (op && allUnused(*op))
            AutodiffWalker::removeOp(op, state);
    }
}

class Helper
{
public:
    Helper(Program &program, GradResult &result)
        : m_program(program)
        , m_result(result)
    {
    }

    bool run(const std::vector<Value> &outputs, const std::vector<Value> &inputs,
        const std::vector<Value> &gradOutputs, const std::vector<Value> &noGradSet);
    /// The first gradient recorded for each input (`calc_gradient`'s result).
    std::vector<Value> gradsOf(const std::vector<Value> &inputs) const;
    /// The grad ops per forward op that survived the final prune.
    std::vector<GradOpGroup> gradOps() const;

private:
    bool prepareGradOutputs(
        std::vector<Value> gradOutputs, const std::vector<Value> &outputs, AutodiffWalker &walker);
    void createBackwardPruneSets(const ValueSet &outputsFwd, const std::vector<Value> &inputsFwd,
        ValueSet &outputsSet, ValueSet &inputsSet, ValueSet &noGradVars);
    void finalPrune(const std::vector<Value> &inputs, const ValueSet &outputsFwd);

    Program &m_program;
    GradResult &m_result;
    GradState m_state;
    ValueSet m_noGrad;
    std::vector<Value> m_completeGradOutputs;
    std::vector<Value> m_completeOutputs;
    std::vector<Operation *> m_backwardOps;
    std::vector<GradOpGroup> m_gradOps;
};

bool Helper::prepareGradOutputs(
    std::vector<Value> gradOutputs, const std::vector<Value> &outputs, AutodiffWalker &walker)
{
    if (gradOutputs.empty())
        gradOutputs.assign(outputs.size(), Value());
    if (gradOutputs.size() != outputs.size()) {
        m_result.diagnostics.error({}, "grad_outputs should have the same length of as outputs.");
        return false;
    }
    for (size_t i = 0; i < gradOutputs.size(); ++i) {
        const Value output = outputs[i];
        if (!gradOutputs[i]) {
            gradOutputs[i] = walker.appendFullLike(1.0, output, output, m_state, m_backwardOps);
            continue;
        }
        if (!sameShape(output.type(), gradOutputs[i].type())) {
            m_result.diagnostics.error({},
                "The shape of grad_output[" + std::to_string(i)
                    + "] should be the same as the shape of output[" + std::to_string(i) + "]");
            return false;
        }
        if (output.type().dtype() != gradOutputs[i].type().dtype())
            m_result.diagnostics.warning({},
                "The dtype of grad_output[" + std::to_string(i) + "] is not same as the dtype of output["
                    + std::to_string(i) + "]");
        if (Operation *feed = gradOutputs[i].definingOp())
            m_backwardOps.push_back(feed);
        m_state.valueToGrad[output] = { { gradOutputs[i] } };
    }
    m_completeGradOutputs = gradOutputs;
    m_completeOutputs = outputs;
    ValueSet visited;
    for (Value output : outputs) {
        if (visited.count(output) || !output.definingOp())
            continue;
        for (Value r : output.definingOp()->results()) {
            if (r.type().kind() == Type::Kind::Vector)
                continue;
            if (m_state.valueToGrad.contains(r)) {
                visited.insert(r);
                continue;
            }
            if (!r.type()) {
                m_state.valueToGrad[r] = { { Value() } };
                continue;
            }
            walker.appendFullLike(0.0, r, r, m_state, m_backwardOps);
            visited.insert(r);
            m_completeOutputs.push_back(r);
        }
    }
    return !m_result.diagnostics.hasErrors();
}

void Helper::createBackwardPruneSets(const ValueSet &outputsFwd, const std::vector<Value> &inputsFwd,
    ValueSet &outputsSet, ValueSet &inputsSet, ValueSet &noGradVars)
{
    auto firstGrad = [&](Value v) -> Value {
        const auto &entries = m_state.valueToGrad[v];
        return entries.empty() || entries.front().empty() ? Value() : entries.front().front();
    };
    for (Value v : outputsFwd) {
        if (const Value g = firstGrad(v))
            outputsSet.insert(g);
    }
    for (Value v : inputsFwd) {
        if (const Value g = firstGrad(v))
            inputsSet.insert(g);
    }
    ValueSet extra;
    for (Value g : inputsSet) {
        if (g.hasUses()) {
            for (Value v : GradGraph::realInputs(*g.firstUse()->owner()))
                extra.insert(v);
        }
    }
    inputsSet.insert(extra.begin(), extra.end());
    for (Value key : m_state.valueToGrad.keys()) {
        if (m_noGrad.count(key)) {
            if (const Value g = firstGrad(key))
                noGradVars.insert(g);
        }
    }
    for (Value key : m_state.valueToSumGrad.keys()) {
        const auto &entries = m_state.valueToSumGrad[key];
        if (m_noGrad.count(key) && !entries.empty()) {
            for (Value g : entries.front())
                noGradVars.insert(g);
        }
    }
}

void Helper::finalPrune(const std::vector<Value> &inputs, const ValueSet &outputsFwd)
{
    ValueSet outputsSet, inputsSet, noGradVars;
    createBackwardPruneSets(outputsFwd, m_completeOutputs, outputsSet, inputsSet, noGradVars);
    std::vector<Operation *> remove;
    if (!GradGraph::isInplaceNet(m_backwardOps) && !inputs.empty())
        GradGraph::pruneOps(m_backwardOps, inputsSet, outputsSet, noGradVars, nullptr, &remove);
    m_state.turnMap();
    std::unordered_set<const Operation *> removeSet(remove.begin(), remove.end());
    auto addRemove = [&](Operation *op) {
        if (op && removeSet.insert(op).second)
            remove.push_back(op);
    };
    for (Operation *op : GradGraph::inverseSort(m_backwardOps)) {
        if (op->name() == ops::kFullLike) {
            if (!op->result(0).hasUses()) {
                addRemove(op);
                addRemove(op->operand(1).definingOp());
            }
        } else if (isControlFlow(*op)) {
            for (unsigned r = 0; r < op->numRegions(); ++r) {
                for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                    removeUselessFullLike(op->region(r).block(b), m_state);
            }
        }
    }
    const ValueSet seeds(m_completeGradOutputs.begin(), m_completeGradOutputs.end());
    removeUnusedOps(GradGraph::inverseSort(remove), m_state, m_program.arena(),
        [&seeds](const Operation &op) { return op.numResults() == 0 || seeds.count(op.result(0)) != 0; });
    m_state.turnMap();
}

bool Helper::run(const std::vector<Value> &outputs, const std::vector<Value> &inputs,
    const std::vector<Value> &gradOutputs, const std::vector<Value> &noGradSet)
{
    Block &block = m_program.block();
    if (allStopGradient(block)) {
        m_result.diagnostics.warning({}, "all op in block stop_gradient is True, no grad will be calculate");
        return true;
    }
    for (Value output : outputs) {
        if (!output.definingOp()) {
            m_result.diagnostics.error({}, "grad: every output must be an op result");
            return false;
        }
    }
    const std::vector<Operation *> totalOps = block.ops();
    m_noGrad.insert(noGradSet.begin(), noGradSet.end());
    addStopGradientValues(block, m_noGrad);

    AutodiffWalker walker(m_program, m_noGrad, m_result.diagnostics);
    walker.builder().setInsertionPointToEnd(block);
    if (!prepareGradOutputs(gradOutputs, outputs, walker))
        return false;

    const ValueSet inputsSet(inputs.begin(), inputs.end());
    ValueSet outputsSet;
    for (Value v : m_completeOutputs) {
        if (!m_noGrad.count(v))
            outputsSet.insert(v);
    }
    std::vector<Operation *> effective;
    if (GradGraph::isInplaceNet(totalOps))
        effective = totalOps;
    else
        GradGraph::pruneOps(totalOps, inputsSet, outputsSet, m_noGrad, &effective, nullptr);

    // prepare_backward_prune_set: the real inputs of every op that uses an input.
    ValueSet outputsFwd;
    for (Value input : inputs) {
        for (OpOperand *use = input.firstUse(); use; use = use->nextUse()) {
            for (Value v : GradGraph::realInputs(*use->owner()))
                outputsFwd.insert(v);
        }
    }
    ValueMap valueToCopy;
    walker.setGradOpLog(&m_gradOps);
    if (!walker.appendBackwardOps(
            nullptr, {}, {}, block, block, effective, m_backwardOps, m_state, {}, valueToCopy))
        return false;
    finalPrune(inputs, outputsFwd);
    return true;
}

std::vector<Value> Helper::gradsOf(const std::vector<Value> &inputs) const
{
    std::vector<Value> grads;
    for (Value input : inputs) {
        const GradMap::Entries *entries = m_state.valueToGrad.find(input);
        const Value g
            = entries && !entries->empty() && !entries->front().empty() ? entries->front().front() : Value();
        // A null-typed value is Paddle's fake value: no gradient.
        grads.push_back(g && g.type() ? g : Value());
    }
    return grads;
}

std::vector<GradOpGroup> Helper::gradOps() const
{
    // Pruned ops are destroyed but their arena memory is never reused, so comparing the
    // recorded pointers with the live ops is safe.
    const std::vector<Operation *> &ops = m_program.block().ops();
    const std::unordered_set<const Operation *> live(ops.begin(), ops.end());
    std::vector<GradOpGroup> out;
    for (const GradOpGroup &group : m_gradOps) {
        GradOpGroup kept { group.forward, {} };
        for (const Operation *op : group.grads)
            if (live.count(op))
                kept.grads.push_back(op);
        if (!kept.grads.empty())
            out.push_back(std::move(kept));
    }
    return out;
}

} // namespace

GradResult Autodiff::grad(Program &program, const std::vector<Value> &outputs,
    const std::vector<Value> &inputs, const std::vector<Value> &gradOutputs,
    const std::vector<Value> &noGradSet)
{
    GradResult result;
    Helper helper(program, result);
    if (helper.run(outputs, inputs, gradOutputs, noGradSet)) {
        result.grads = helper.gradsOf(inputs);
        result.gradOps = helper.gradOps();
    } else {
        result.grads.assign(inputs.size(), Value());
    }
    return result;
}

} // namespace ps
