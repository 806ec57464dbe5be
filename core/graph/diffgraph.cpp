#include "core/graph/diffgraph.h"

#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_set>

namespace ps {

namespace {

const Operation *topOf(const Operation *op)
{
    while (const Operation *p = op->parentOp())
        op = p;
    return op;
}

bool inside(const Operation *op, const Operation *ancestor)
{
    for (; op; op = op->parentOp())
        if (op == ancestor)
            return true;
    return false;
}

/// Whether `v` is defined inside `root` (by an op in it, or as an argument of one of its blocks).
bool definedInside(Value v, const Operation *root)
{
    if (const Operation *def = v.definingOp())
        return inside(def, root);
    const Block *block = v.parentBlock();
    return block && block->parentOp() && inside(block->parentOp(), root);
}

/// Every operand of `root` and of the ops nested in it that comes from outside `root`.
std::vector<Value> externalOperands(const Operation &root)
{
    std::vector<Value> out;
    const_cast<Operation &>(root).walk([&](Operation *op) {
        for (Value v : op->operands())
            if (v && !definedInside(v, &root))
                out.push_back(v);
    });
    return out;
}

/// The position of `block` among its parent op's blocks: (region, block).
std::pair<unsigned, size_t> blockPosition(const Block &block)
{
    const Operation *owner = block.parentOp();
    for (unsigned r = 0; r < owner->numRegions(); ++r)
        for (size_t b = 0; b < owner->region(r).numBlocks(); ++b)
            if (&owner->region(r).block(b) == &block)
                return { r, b };
    return { 0, 0 };
}

std::string fusedLabel(const std::vector<const Operation *> &from)
{
    std::map<std::string, int> counts;
    std::vector<std::string> order;
    for (const Operation *op : from) {
        std::string name(op->shortName().empty() ? op->name() : op->shortName());
        if (counts[name]++ == 0)
            order.push_back(name);
    }
    std::string label = "\u21d0 ";
    size_t shown = 0;
    for (const std::string &name : order) {
        if (shown == 3) {
            label += " +" + std::to_string(order.size() - shown);
            break;
        }
        label += (shown ? " + " : "") + name
            + (counts[name] > 1 ? "\u00d7" + std::to_string(counts[name]) : "");
        ++shown;
    }
    return label;
}

} // namespace

std::shared_ptr<const DiffGraph> DiffGraph::build(
    const Program &before, const Program &after, const OpDiff &diff, const Options &options)
{
    auto g = std::make_shared<DiffGraph>();
    g->program = std::make_unique<Program>();
    Program &u = *g->program;
    Block &top = u.block();

    std::unordered_map<const Operation *, int32_t> bIdx;
    std::unordered_map<const Operation *, int32_t> aIdx;
    for (size_t i = 0; i < diff.before.size(); ++i)
        bIdx.emplace(diff.before[i], int32_t(i));
    for (size_t j = 0; j < diff.after.size(); ++j)
        aIdx.emplace(diff.after[j], int32_t(j));
    auto removed = [&](const Operation *op) {
        auto it = bIdx.find(op);
        return it != bIdx.end() && diff.beforeChange[size_t(it->second)] == OpChange::Removed;
    };
    auto counterpart = [&](const Operation *beforeOp) -> const Operation * {
        auto it = bIdx.find(beforeOp);
        if (it == bIdx.end() || diff.afterOf[size_t(it->second)] < 0)
            return nullptr;
        return diff.after[size_t(diff.afterOf[size_t(it->second)])];
    };

    // Which top-level ops of `after` to draw.
    size_t removedTop = 0;
    for (const Operation *op : before.block().ops())
        removedTop += removed(op);
    g->totalOps = after.block().size() + removedTop;
    const bool crop = options.wholeProgramLimit != 0 && g->totalOps > options.wholeProgramLimit;
    std::unordered_set<const Operation *> include;
    if (!crop) {
        include.insert(after.block().ops().begin(), after.block().ops().end());
    } else {
        std::deque<std::pair<const Operation *, int>> queue;
        auto seed = [&](const Operation *op) {
            if (op && include.insert(topOf(op)).second)
                queue.emplace_back(topOf(op), 0);
        };
        for (size_t j = 0; j < diff.after.size(); ++j)
            if (diff.afterChange[j] != OpChange::Kept)
                seed(diff.after[j]);
        for (size_t i = 0; i < diff.before.size(); ++i) {
            if (diff.beforeChange[i] != OpChange::Removed)
                continue;
            for (Value v : diff.before[i]->operands())
                if (const Operation *p = v.definingOp(); p && !removed(p))
                    seed(counterpart(p));
            for (Value r : diff.before[i]->results())
                for (OpOperand *use = r.firstUse(); use; use = use->nextUse())
                    if (!removed(use->owner()))
                        seed(counterpart(use->owner()));
        }
        while (!queue.empty()) {
            const auto [op, hops] = queue.front();
            queue.pop_front();
            const int next = hops + 1; // clang 14 cannot capture a structured binding
            if (hops >= options.contextHops)
                continue;
            auto visit = [&](const Operation *n) {
                if (n && include.insert(topOf(n)).second)
                    queue.emplace_back(topOf(n), next);
            };
            for (Value v : externalOperands(*op))
                visit(v.definingOp());
            for (Value r : op->results())
                for (OpOperand *use = r.firstUse(); use; use = use->nextUse())
                    visit(use->owner());
        }
    }

    // The ops of `after`, in order; inputs from ops left out become arguments of the picture.
    IrMapping am;
    std::unordered_map<Value, Value> placeholders;
    auto placeholder = [&](Value v) {
        auto [it, fresh] = placeholders.emplace(v, Value());
        if (fresh)
            it->second = top.addArgument(v.type());
        return it->second;
    };
    for (Value arg : after.block().arguments())
        am.map(arg, top.addArgument(arg.type()));
    for (Value kw : after.block().kwargs())
        am.map(kw, top.addKwarg(kw.keyword(), kw.type()));
    std::unordered_map<const Operation *, Operation *> aToU;
    auto record = [&](const Operation &original, Operation *copy, bool fromBefore) {
        std::vector<const Operation *> from;
        std::vector<Operation *> to;
        const_cast<Operation &>(original).walk([&](Operation *op) { from.push_back(op); });
        copy->walk([&](Operation *op) { to.push_back(op); });
        for (size_t k = 0; k < from.size() && k < to.size(); ++k) {
            if (fromBefore) {
                const int32_t i = bIdx.count(from[k]) ? bIdx[from[k]] : -1;
                g->beforeIndex[to[k]] = i;
                g->change[to[k]] = OpChange::Removed;
            } else {
                aToU[from[k]] = to[k];
                const int32_t j = aIdx.count(from[k]) ? aIdx[from[k]] : -1;
                g->afterIndex[to[k]] = j;
                g->change[to[k]] = j >= 0 ? diff.afterChange[size_t(j)] : OpChange::Kept;
                if (j >= 0 && diff.beforeOf[size_t(j)] >= 0)
                    g->beforeIndex[to[k]] = diff.beforeOf[size_t(j)];
            }
        }
    };
    for (const Operation *op : after.block().ops()) {
        if (!include.count(op))
            continue;
        for (Value v : externalOperands(*op))
            if (!am.contains(v))
                am.map(v, placeholder(v));
        Operation *copy = op->clone(u.arena(), am);
        top.push_back(copy);
        record(*op, copy, false);
    }

    // The removed ops, each after the op that preceded it before the pass.
    IrMapping bm;
    std::unordered_map<const Operation *, Operation *> bToU;
    auto mapBeforeValue = [&](Value v) {
        if (bm.contains(v))
            return;
        Value target;
        if (const Operation *p = v.definingOp()) {
            if (const Operation *a = counterpart(p); a && v.index() < a->numResults() && aToU.count(a))
                target = aToU[a]->result(v.index());
        } else if (v.isKeywordArgument()) {
            if (Value kw = after.block().kwarg(v.keyword()); kw && am.contains(kw))
                target = am.lookup(kw);
        } else if (const Block *block = v.parentBlock()) {
            const Operation *owner = block->parentOp();
            if (!owner && v.index() < after.block().numArguments()) {
                target = am.lookup(after.block().argument(v.index()));
            } else if (const Operation *a = owner ? counterpart(owner) : nullptr; a && aToU.count(a)) {
                const auto [r, b] = blockPosition(*block);
                Operation *copy = aToU[a];
                if (r < copy->numRegions() && b < copy->region(r).numBlocks()
                    && v.index() < copy->region(r).block(b).numArguments())
                    target = copy->region(r).block(b).argument(v.index());
            }
        }
        bm.map(v, target ? target : placeholder(v));
    };
    for (size_t i = 0; i < diff.before.size(); ++i) {
        const Operation *r = diff.before[i];
        if (diff.beforeChange[i] != OpChange::Removed || (r->parentOp() && removed(r->parentOp())))
            continue;
        Block *block = &top;
        const Block *original = r->parentBlock();
        if (const Operation *parent = r->parentOp()) {
            const Operation *a = counterpart(parent);
            if (a && aToU.count(a)) {
                const auto [ri, bi] = blockPosition(*original);
                Operation *copy = aToU[a];
                if (ri < copy->numRegions() && bi < copy->region(ri).numBlocks())
                    block = &copy->region(ri).block(bi);
            }
        }
        size_t position = 0;
        const long here = original->indexOf(r);
        for (long k = here - 1; k >= 0; --k) {
            const Operation *sibling = original->op(size_t(k));
            Operation *placed = nullptr;
            if (auto it = bToU.find(sibling); it != bToU.end())
                placed = it->second;
            else if (const Operation *a = counterpart(sibling); a && aToU.count(a))
                placed = aToU[a];
            if (placed && placed->parentBlock() == block) {
                position = size_t(block->indexOf(placed)) + 1;
                break;
            }
        }
        for (Value v : externalOperands(*r))
            mapBeforeValue(v);
        Operation *copy = r->clone(u.arena(), bm);
        block->insert(position, copy);
        std::vector<const Operation *> from;
        std::vector<Operation *> to;
        const_cast<Operation *>(r)->walk([&](Operation *op) { from.push_back(op); });
        copy->walk([&](Operation *op) { to.push_back(op); });
        for (size_t k = 0; k < from.size() && k < to.size(); ++k)
            bToU[from[k]] = to[k];
        record(*r, copy, true);
    }

    for (const auto &[uop, j] : g->afterIndex) {
        if (j < 0)
            continue;
        for (int32_t i : diff.fusedFrom[size_t(j)])
            if (auto it = bToU.find(diff.before[size_t(i)]); it != bToU.end())
                g->fusedFrom[uop].push_back(it->second);
    }
    for (const auto &[uop, i] : g->beforeIndex) {
        if (i < 0 || g->change[uop] != OpChange::Removed)
            continue;
        for (int32_t j : diff.replacedBy[size_t(i)])
            if (auto it = aToU.find(diff.after[size_t(j)]); it != aToU.end())
                g->replacedBy[uop].push_back(it->second);
    }

    g->graph = GraphBuilder(options.graph).build(u);
    // Label the rewrites' outputs only: the added ops inside a rewrite feed one that is labelled.
    std::unordered_set<const Operation *> outputs;
    for (int32_t j : diff.rewrites)
        if (auto it = aToU.find(diff.after[size_t(j)]); it != aToU.end())
            outputs.insert(it->second);
    for (GraphNode &node : g->graph.nodes) {
        if (node.ghost || !node.op || !outputs.count(node.op))
            continue;
        if (auto it = g->fusedFrom.find(node.op); it != g->fusedFrom.end() && !it->second.empty())
            node.lines.push_back(fusedLabel(it->second));
    }
    g->shownOps = top.size();
    g->cropped = crop;
    return g;
}

} // namespace ps
