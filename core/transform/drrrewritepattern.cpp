#include "core/transform/drrrewritepattern.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/transform/drrmatch.h"
#include "core/transform/patternrewriter.h"
#include "core/transform/rewritehelpers.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

int anchorOf(const DrrPattern &pattern)
{
    const std::vector<int> nodes = pattern.sourceGraph().outputNodes();
    if (nodes.empty())
        throw std::logic_error("DRR pattern " + pattern.name() + " has no output op");
    return nodes.front();
}

} // namespace

DrrRewritePattern::DrrRewritePattern(DrrPattern pattern)
    : RewritePattern(
        pattern.name(), pattern.sourceGraph().opCalls()[size_t(anchorOf(pattern))].name, pattern.benefit())
    , m_pattern(std::move(pattern))
    , m_anchor(anchorOf(m_pattern))
    , m_outputNodes(m_pattern.sourceGraph().outputNodes())
{
}

bool DrrRewritePattern::matchAndRewrite(Operation &root, PatternRewriter &rewriter) const
{
    DrrMatch source;
    if (!match(root, source))
        return false;
    rewrite(source, rewriter);
    return true;
}

// Paddle's DfsVisitor: from the anchor, through shared inputs, producers and users, collect the
// IR ops that could play the other output ops of the pattern.
void DrrRewritePattern::findOutputCandidates(int drrOp, Operation *irOp, std::vector<int> &visited,
    std::vector<std::pair<int, std::vector<Operation *>>> &candidates) const
{
    const DrrPatternGraph &graph = m_pattern.sourceGraph();
    const DrrOpCall &call = graph.opCalls()[size_t(drrOp)];
    if (call.name != irOp->name() || call.inputs.size() != irOp->numOperands()
        || call.outputs.size() != irOp->numResults())
        return;
    auto isVisited
        = [&visited](int op) { return std::find(visited.begin(), visited.end(), op) != visited.end(); };
    auto visit = [&](int next, Operation *irNext) {
        visited.push_back(next);
        findOutputCandidates(next, irNext, visited, candidates);
        visited.pop_back();
    };
    for (size_t i = 0; i < call.inputs.size(); ++i) {
        const DrrPatternGraph::Tensor &tensor = graph.tensor(call.inputs[i]);
        const Value irInput = irOp->operand(unsigned(i));
        if (tensor.producer < 0) {
            for (int brother : tensor.consumers) {
                if (isVisited(brother) || irInput.isNull())
                    continue;
                for (OpOperand *use = irInput.firstUse(); use; use = use->nextUse())
                    if (graph.opCalls()[size_t(brother)].name == use->owner()->name())
                        visit(brother, use->owner());
            }
            continue;
        }
        if (isVisited(tensor.producer))
            continue;
        if (tensor.consumers.size() != irInput.useCount())
            return;
        if (Operation *producer = irInput.definingOp())
            visit(tensor.producer, producer);
    }
    if (std::find(m_outputNodes.begin(), m_outputNodes.end(), drrOp) != m_outputNodes.end()) {
        auto it = std::find_if(
            candidates.begin(), candidates.end(), [drrOp](const auto &c) { return c.first == drrOp; });
        if (it == candidates.end())
            candidates.push_back({ drrOp, {} });
        it = std::find_if(
            candidates.begin(), candidates.end(), [drrOp](const auto &c) { return c.first == drrOp; });
        if (std::find(it->second.begin(), it->second.end(), irOp) == it->second.end())
            it->second.push_back(irOp);
        return;
    }
    for (size_t i = 0; i < call.outputs.size(); ++i) {
        const DrrPatternGraph::Tensor &tensor = graph.tensor(call.outputs[i]);
        const Value irOutput = irOp->result(unsigned(i));
        if (tensor.consumers.size() != irOutput.useCount())
            return;
        for (int child : tensor.consumers)
            for (OpOperand *use = irOutput.firstUse(); use; use = use->nextUse())
                if (graph.opCalls()[size_t(child)].name == use->owner()->name() && !isVisited(child))
                    visit(child, use->owner());
    }
}

bool DrrRewritePattern::match(Operation &root, DrrMatch &result) const
{
    std::vector<std::pair<int, std::vector<Operation *>>> candidates { { m_anchor, { &root } } };
    if (m_outputNodes.size() > 1) {
        std::vector<int> visited { m_anchor };
        candidates.clear();
        candidates.push_back({ m_anchor, { &root } });
        findOutputCandidates(m_anchor, &root, visited, candidates);
        if (candidates.size() != m_outputNodes.size())
            return false;
    }
    // Every combination of candidates, as Paddle's permute(). Paddle keeps the first IR op it
    // saw for each pattern op across combinations (the map it fills is never cleared); so here.
    std::vector<std::pair<int, Operation *>> outputs;
    std::vector<Operation *> chosen;
    auto permute = [&](auto &&self, size_t index) -> bool {
        if (index == candidates.size()) {
            std::unordered_set<Operation *> distinct(chosen.begin(), chosen.end());
            if (distinct.size() != chosen.size())
                return false;
            for (size_t i = 0; i < chosen.size(); ++i) {
                const int drrOp = candidates[i].first;
                if (std::none_of(
                        outputs.begin(), outputs.end(), [drrOp](const auto &o) { return o.first == drrOp; }))
                    outputs.push_back({ drrOp, chosen[i] });
            }
            DrrMatch attempt;
            if (!matchFromOutputs(outputs, attempt))
                return false;
            result = std::move(attempt);
            return true;
        }
        for (Operation *op : candidates[index].second) {
            chosen.push_back(op);
            if (self(self, index + 1))
                return true;
            chosen.pop_back();
        }
        return false;
    };
    return permute(permute, 0);
}

// Paddle's MatchFromOutputToInput: breadth first from the output ops to the inputs.
bool DrrRewritePattern::matchFromOutputs(
    const std::vector<std::pair<int, Operation *>> &outputs, DrrMatch &match) const
{
    const DrrPatternGraph &graph = m_pattern.sourceGraph();
    std::deque<std::pair<int, Operation *>> queue;
    std::unordered_set<int> drrVisited;
    std::unordered_set<Operation *> irVisited;
    for (const auto &[drrOp, irOp] : outputs) {
        queue.push_back({ drrOp, irOp });
        drrVisited.insert(drrOp);
        irVisited.insert(irOp);
    }
    size_t steps = 0;
    while (!queue.empty()) {
        const auto [drrIndex, irOp] = queue.front();
        queue.pop_front();
        const DrrOpCall &call = graph.opCalls()[size_t(drrIndex)];
        if (call.name != irOp->name() || call.inputs.size() != irOp->numOperands()
            || call.outputs.size() != irOp->numResults())
            return false;
        match.bindOp(size_t(drrIndex), irOp);
        for (const DrrAttribute &a : call.attributes) {
            const Attribute *value = irOp->attribute(a.name);
            if (!value)
                return false;
            match.bindAttr(a.source, *value);
        }
        for (size_t i = 0; i < call.inputs.size(); ++i) {
            const std::string &name = call.inputs[i];
            const Value value = irOp->operand(unsigned(i));
            if (DrrPatternGraph::isNone(name)) {
                if (value.isNull())
                    continue;
                return false;
            }
            if (match.hasTensor(name) && match.tensor(name) != value)
                return false;
            match.bindTensor(name, value);
            const DrrPatternGraph::Tensor &tensor = graph.tensor(name);
            if (tensor.producer < 0)
                continue;
            if (tensor.consumers.size() != value.useCount())
                return false;
            Operation *producer = value.definingOp();
            if (!producer)
                return false;
            const bool drrSeen = drrVisited.count(tensor.producer) != 0;
            const bool irSeen = irVisited.count(producer) != 0;
            if (drrSeen && irSeen)
                continue;
            if (drrSeen || irSeen)
                return false;
            queue.push_back({ tensor.producer, producer });
            drrVisited.insert(tensor.producer);
            irVisited.insert(producer);
        }
        for (size_t j = 0; j < call.outputs.size(); ++j)
            match.bindTensor(call.outputs[j], irOp->result(unsigned(j)));
        ++steps;
    }
    if (steps != graph.opCalls().size())
        return false;
    for (const DrrPattern::Constraint &constraint : m_pattern.constraints())
        if (!constraint(match))
            return false;
    return true;
}

void DrrRewritePattern::rewrite(const DrrMatch &source, PatternRewriter &rewriter) const
{
    const DrrPatternGraph &resultGraph = m_pattern.resultGraph();
    DrrMatch result;
    for (const std::string &name : resultGraph.inputTensors())
        if (!DrrPatternGraph::isNone(name))
            result.bindTensor(name, source.tensor(name));
    for (int index : resultGraph.topologicalOrder())
        createResultOp(index, source, result, rewriter);
    for (const auto &[from, to] : resultGraph.assignments())
        result.bindTensor(from, result.tensor(to));
    for (const std::string &name : resultGraph.outputTensors())
        if (m_pattern.sourceGraph().hasTensor(name))
            rewriter.replaceAllUsesWith(source.tensor(name), result.tensor(name));
    eraseSourceOps(source, rewriter);
}

Operation *DrrRewritePattern::createResultOp(
    int index, const DrrMatch &source, DrrMatch &result, PatternRewriter &rewriter) const
{
    const DrrOpCall &call = m_pattern.resultGraph().opCalls()[size_t(index)];
    Block &block = *rewriter.insertionBlock();
    std::unordered_map<const Operation *, size_t> position;
    for (size_t i = 0; i < block.size(); ++i)
        position.emplace(block.op(i), i);

    // The latest defining op of the operands (among the block's ops) ...
    size_t latestIndex = 0;
    Operation *latest = nullptr;
    for (const std::string &input : call.inputs) {
        if (DrrPatternGraph::isNone(input))
            continue;
        Operation *def = result.tensor(input).definingOp();
        const auto it = position.find(def);
        if (it == position.end())
            continue;
        if (latestIndex < it->second || (latestIndex == it->second && !latest)) {
            latestIndex = it->second;
            latest = def;
        }
    }
    // ... and the first matched source op.
    const size_t numSource = m_pattern.sourceGraph().opCalls().size();
    Operation *first = source.op(0);
    size_t firstIndex = position[first];
    for (size_t i = 0; i < numSource; ++i) {
        Operation *op = source.op(i);
        const size_t at = position[op];
        if (firstIndex > at) {
            firstIndex = at;
            first = op;
        }
    }
    if (firstIndex > latestIndex || !latest)
        rewriter.setInsertionPoint(first);
    else
        rewriter.setInsertionPointAfter(latest);

    std::vector<Value> operands;
    for (const std::string &input : call.inputs)
        operands.push_back(DrrPatternGraph::isNone(input) ? Value() : result.tensor(input));
    std::vector<NamedAttribute> attributes;
    for (const DrrAttribute &a : call.attributes)
        attributes.push_back({ a.name, a.compute ? a.compute(source) : source.attr(a.source) });
    std::vector<Type> types;
    if (const DrrPattern::TypeRule &rule = m_pattern.typeRule(size_t(index))) {
        types = rule(source, operands);
    } else {
        for (const std::string &output : call.outputs) {
            if (!source.hasTensor(output))
                throw std::logic_error(
                    "DRR pattern " + m_pattern.name() + ": result tensor '" + output + "' needs a type rule");
            types.push_back(source.tensor(output).type());
        }
    }
    Operation *op = buildOp(rewriter, call.name, operands, types, std::move(attributes));
    for (size_t j = 0; j < call.outputs.size(); ++j)
        if (!DrrPatternGraph::isNone(call.outputs[j]))
            result.bindTensor(call.outputs[j], op->result(unsigned(j)));
    return op;
}

void DrrRewritePattern::eraseSourceOps(const DrrMatch &source, PatternRewriter &rewriter) const
{
    std::deque<Operation *> queue;
    std::unordered_set<Operation *> queued;
    for (int index : m_pattern.sourceGraph().topologicalOrder()) {
        Operation *op = source.op(size_t(index));
        if (!queued.count(op) && resultsUnused(*op)) {
            queue.push_back(op);
            queued.insert(op);
        }
    }
    while (!queue.empty()) {
        Operation *op = queue.front();
        queue.pop_front();
        const std::vector<Value> inputs = op->operands();
        rewriter.eraseOp(op);
        for (const Value input : inputs) {
            Operation *def = input.definingOp();
            if (def && resultsUnused(*def) && !queued.count(def)) {
                queued.insert(def);
                queue.push_back(def);
            }
        }
    }
}

} // namespace ps
