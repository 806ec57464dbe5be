#include "core/transform/gradgraph.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/region.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

namespace ps {

namespace {

void collectExternal(std::unordered_set<Value> &defined, std::vector<Value> &used, const Operation &op)
{
    for (unsigned i = 0; i < op.numOperands(); ++i) {
        const Value v = op.operand(i);
        if (v && defined.insert(v).second)
            used.push_back(v);
    }
    for (unsigned r = 0; r < op.numRegions(); ++r) {
        const Region &region = op.region(r);
        for (size_t b = 0; b < region.numBlocks(); ++b) {
            for (Value arg : region.block(b).arguments())
                defined.insert(arg);
            for (Value kw : region.block(b).kwargs())
                defined.insert(kw);
        }
        for (size_t b = 0; b < region.numBlocks(); ++b) {
            for (const Operation *inner : region.block(b).ops())
                collectExternal(defined, used, *inner);
        }
    }
    for (unsigned i = 0; i < op.numResults(); ++i)
        defined.insert(op.result(i));
}

bool someIn(const std::vector<Value> &values, const ValueSet &set)
{
    return std::any_of(values.begin(), values.end(), [&](Value v) { return set.count(v) != 0; });
}

/// Whether realInputs()/realOutputs() of `op` are just its operands/results, so the visitors
/// below can walk them without building a list.
bool plainInputs(const Operation &op)
{
    const std::string_view name = op.name();
    return name != ops::kIf && name != ops::kPyLayer && name != ops::kWhile;
}

bool plainOutputs(const Operation &op)
{
    const std::string_view name = op.name();
    return name != ops::kArrayWrite_ && name != ops::kWhile;
}

/// Calls `fn` on each value of GradGraph::realInputs(op), in order, until it returns true;
/// returns whether it did.
template<class Fn> bool anyRealInput(const Operation &op, Fn &&fn)
{
    if (!plainInputs(op)) {
        const std::vector<Value> inputs = GradGraph::realInputs(op);
        return std::any_of(inputs.begin(), inputs.end(), fn);
    }
    for (unsigned i = 0; i < op.numOperands(); ++i)
        if (fn(op.operand(i)))
            return true;
    return false;
}

template<class Fn> bool anyRealOutput(const Operation &op, Fn &&fn)
{
    if (!plainOutputs(op)) {
        const std::vector<Value> outputs = GradGraph::realOutputs(op);
        return std::any_of(outputs.begin(), outputs.end(), fn);
    }
    for (unsigned i = 0; i < op.numResults(); ++i)
        if (fn(op.result(i)))
            return true;
    return false;
}

template<class Fn> void forEachRealInput(const Operation &op, Fn &&fn)
{
    anyRealInput(op, [&fn](Value v) {
        fn(v);
        return false;
    });
}

template<class Fn> void forEachRealOutput(const Operation &op, Fn &&fn)
{
    anyRealOutput(op, [&fn](Value v) {
        fn(v);
        return false;
    });
}

} // namespace

std::vector<Value> GradGraph::usedExternalValues(const Operation &op)
{
    std::unordered_set<Value> defined;
    std::vector<Value> used;
    collectExternal(defined, used, op);
    return used;
}

std::vector<Value> GradGraph::usedExternalValues(const Block &block)
{
    std::unordered_set<Value> defined;
    for (Value arg : block.arguments())
        defined.insert(arg);
    for (Value kw : block.kwargs())
        defined.insert(kw);
    std::vector<Value> used;
    for (const Operation *op : block.ops())
        collectExternal(defined, used, *op);
    return used;
}

std::vector<Value> GradGraph::realInputs(const Operation &op)
{
    const std::string_view name = op.name();
    if (name == ops::kIf || name == ops::kPyLayer)
        return usedExternalValues(op);
    std::vector<Value> inputs = op.operands();
    if (name == ops::kWhile && op.numRegions() && !op.region(0).empty()) {
        for (Value v : usedExternalValues(op.region(0).block(0)))
            inputs.push_back(v);
    }
    return inputs;
}

std::vector<Value> GradGraph::realOutputs(const Operation &op)
{
    std::vector<Value> outputs = op.results();
    if (op.name() == ops::kArrayWrite_) {
        for (Value v : op.operands())
            outputs.push_back(v);
    }
    if (ops::isWhile(op) && op.numRegions() && !op.region(0).empty()) {
        for (const Operation *inner : op.region(0).block(0).ops()) {
            if (inner->name() == ops::kArrayWrite_) {
                for (Value v : inner->operands())
                    outputs.push_back(v);
            }
        }
    }
    return outputs;
}

std::vector<Operation *> GradGraph::inverseSort(const std::vector<Operation *> &oldOps)
{
    // `pending` holds every op of the list (deduplicated, first occurrence kept) with the number
    // of its uses by ops of the list; only ops of the list are ever looked up or counted.
    std::vector<Operation *> ops;
    std::unordered_map<const Operation *, long> pending;
    pending.reserve(oldOps.size());
    ops.reserve(oldOps.size());
    for (Operation *op : oldOps) {
        if (pending.emplace(op, 0).second)
            ops.push_back(op);
    }
    for (Operation *op : ops) {
        forEachRealInput(*op, [&pending](Value x) {
            if (!x || !x.type())
                return;
            if (auto it = pending.find(x.definingOp()); it != pending.end())
                ++it->second;
        });
    }
    std::deque<Operation *> queue;
    for (Operation *op : ops) {
        if (pending[op] == 0)
            queue.push_back(op);
    }
    std::vector<Operation *> sorted;
    sorted.reserve(ops.size());
    while (!queue.empty()) {
        Operation *op = queue.front();
        queue.pop_front();
        sorted.push_back(op);
        forEachRealInput(*op, [&](Value x) {
            Operation *def = x.definingOp();
            if (!def)
                return;
            if (auto it = pending.find(def); it != pending.end() && --it->second == 0)
                queue.push_back(def);
        });
    }
    // Paddle raises when the graph has a cycle; ops left unsorted keep their reverse order.
    if (sorted.size() != ops.size()) {
        std::unordered_set<const Operation *> done(sorted.begin(), sorted.end());
        for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
            if (!done.count(*it))
                sorted.push_back(*it);
        }
    }
    // An increment_ must come after the ops that read its operand (tuple_push excepted).
    std::vector<std::pair<size_t, size_t>> swaps;
    for (size_t k = sorted.size(); k-- > 0;) {
        Operation *op = sorted[k];
        if (op->name() != ops::kIncrement_)
            continue;
        size_t target = k;
        const std::vector<Value> operands = op->operands();
        for (size_t m = k; m-- > 0;) {
            const std::vector<Value> inputs = realInputs(*sorted[m]);
            const ValueSet inputSet(inputs.begin(), inputs.end());
            if (someIn(operands, inputSet) && sorted[m]->name() != ops::kTuplePush)
                target = m;
        }
        if (target != k)
            swaps.emplace_back(k, target);
    }
    for (auto [a, b] : swaps)
        std::swap(sorted[a], sorted[b]);
    return sorted;
}

bool GradGraph::isInplaceNet(const std::vector<Operation *> &ops)
{
    for (Operation *op : ops) {
        if (op->name() == ops::kArrayWrite_ || op->name() == ops::kAssignOut_)
            return true;
        if (ops::isIf(*op) || ops::isWhile(*op)) {
            for (unsigned r = 0; r < op->numRegions(); ++r) {
                for (size_t b = 0; b < op->region(r).numBlocks(); ++b) {
                    if (isInplaceNet(op->region(r).block(b).ops()))
                        return true;
                }
            }
        }
    }
    return false;
}

void GradGraph::pruneOps(const std::vector<Operation *> &ops, ValueSet inputs, ValueSet outputs,
    const ValueSet &noGrad, std::vector<Operation *> *effective, std::vector<Operation *> *uneffective)
{
    const size_t n = ops.size();
    std::vector<bool> intersection(n, true);
    std::vector<bool> unionFlags(n, false);
    const auto in = [](const ValueSet &set) { return [&set](Value v) { return set.count(v) != 0; }; };
    if (!inputs.empty()) {
        for (size_t i = 0; i < n; ++i) {
            if (anyRealOutput(*ops[i], in(inputs))) {
                unionFlags[i] = true;
                continue;
            }
            if (anyRealInput(*ops[i], in(inputs))) {
                unionFlags[i] = true;
                forEachRealOutput(*ops[i], [&](Value v) {
                    if (!noGrad.count(v))
                        inputs.insert(v);
                });
            } else {
                intersection[i] = false;
            }
        }
    }
    for (size_t i = n; i-- > 0;) {
        if (anyRealOutput(*ops[i], in(outputs))) {
            unionFlags[i] = true;
            forEachRealInput(*ops[i], [&](Value v) {
                if (!noGrad.count(v))
                    outputs.insert(v);
            });
        } else {
            unionFlags[i] = false;
            intersection[i] = false;
        }
    }
    // An op whose single-use result feeds an op that stays is kept too.
    std::unordered_map<const Operation *, size_t> position;
    for (size_t i = 0; i < n; ++i)
        position.emplace(ops[i], i);
    for (size_t i = 0; i < n; ++i) {
        if (unionFlags[i])
            continue;
        for (Value r : ops[i]->results()) {
            if (!r.hasOneUse())
                continue;
            auto it = position.find(r.firstUse()->owner());
            if (it != position.end() && unionFlags[it->second])
                unionFlags[i] = true;
        }
    }
    if (effective) {
        effective->clear();
        for (size_t i = 0; i < n; ++i) {
            if (intersection[i])
                effective->push_back(ops[i]);
        }
    }
    if (uneffective) {
        uneffective->clear();
        for (size_t i = 0; i < n; ++i) {
            if (!unionFlags[i])
                uneffective->push_back(ops[i]);
        }
    }
}

} // namespace ps
