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

/// One DiffGraph::build, phase by phase: the union program is made of copies of the ops of
/// `after` (those drawn) and then of the removed ops of `before`, each placed after the op that
/// preceded it; the copies are then linked as the diff links the originals.
class UnionBuilder
{
public:
    UnionBuilder(const Program &before, const Program &after, const OpDiff &diff, DiffGraph &g)
        : m_before(before)
        , m_after(after)
        , m_diff(diff)
        , m_g(g)
        , m_top(g.program->block())
    {
        for (size_t i = 0; i < diff.before.size(); ++i)
            m_beforeIndex.emplace(diff.before[i], int32_t(i));
        for (size_t j = 0; j < diff.after.size(); ++j)
            m_afterIndex.emplace(diff.after[j], int32_t(j));
    }

    /// Top-level ops of `before` the pass removed.
    size_t removedTopLevelOps() const;
    /// Every top-level op of `after`.
    std::unordered_set<const Operation *> allOps() const;
    /// The top-level ops of `after` that changed or stand next to a removed op, and the ops
    /// within `hops` uses of them.
    std::unordered_set<const Operation *> changesAndContext(int hops) const;
    /// Copies the ops of `after` in `include`, in order; inputs from ops left out become
    /// arguments of the union.
    void copyAfterOps(const std::unordered_set<const Operation *> &include);
    /// Copies each removed op after the op that preceded it before the pass, in the block of its
    /// parent's copy (top level when its parent was not drawn).
    void insertRemovedOps();
    /// DiffGraph::fusedFrom and DiffGraph::replacedBy between the copies.
    void linkRewrites();
    /// Labels the drawn outputs of the rewrites with the ops they were made from.
    void labelRewriteOutputs(GraphModel &graph) const;

private:
    bool removed(const Operation *beforeOp) const;
    /// The op of `after` that `beforeOp` became; null when removed or not in the diff.
    const Operation *counterpart(const Operation *beforeOp) const;
    /// The copy of `counterpart(beforeOp)`; null when there is none or it was not drawn.
    Operation *counterpartCopy(const Operation *beforeOp) const;
    /// A fresh argument of the union standing for `v` (one per value).
    Value placeholder(Value v);
    /// Notes what each op in `copy` (walked in step with `original`) is in the diff.
    void record(const Operation &original, Operation *copy, bool fromBefore);
    /// The union's value for `v`, a value `before`'s removed op reads: the copy of its
    /// counterpart in `after`, else a placeholder.
    void mapBeforeValue(Value v);
    /// The block of the union a removed op goes to.
    Block &blockFor(const Operation &removedOp) const;
    /// The position in `block` just after the copy of the closest earlier sibling of `removedOp`.
    size_t positionFor(const Operation &removedOp, const Block &block) const;

    const Program &m_before;
    const Program &m_after;
    const OpDiff &m_diff;
    DiffGraph &m_g;
    Block &m_top;
    std::unordered_map<const Operation *, int32_t> m_beforeIndex;
    std::unordered_map<const Operation *, int32_t> m_afterIndex;
    IrMapping m_afterMapping;
    IrMapping m_beforeMapping;
    std::unordered_map<Value, Value> m_placeholders;
    std::unordered_map<const Operation *, Operation *> m_afterCopies;
    std::unordered_map<const Operation *, Operation *> m_beforeCopies;
};

bool UnionBuilder::removed(const Operation *beforeOp) const
{
    auto it = m_beforeIndex.find(beforeOp);
    return it != m_beforeIndex.end() && m_diff.beforeChange[size_t(it->second)] == OpChange::Removed;
}

const Operation *UnionBuilder::counterpart(const Operation *beforeOp) const
{
    auto it = m_beforeIndex.find(beforeOp);
    if (it == m_beforeIndex.end() || m_diff.afterOf[size_t(it->second)] < 0)
        return nullptr;
    return m_diff.after[size_t(m_diff.afterOf[size_t(it->second)])];
}

Operation *UnionBuilder::counterpartCopy(const Operation *beforeOp) const
{
    const Operation *a = counterpart(beforeOp);
    if (!a)
        return nullptr;
    auto it = m_afterCopies.find(a);
    return it == m_afterCopies.end() ? nullptr : it->second;
}

size_t UnionBuilder::removedTopLevelOps() const
{
    size_t n = 0;
    for (const Operation *op : m_before.block().ops())
        n += removed(op);
    return n;
}

std::unordered_set<const Operation *> UnionBuilder::allOps() const
{
    return { m_after.block().ops().begin(), m_after.block().ops().end() };
}

std::unordered_set<const Operation *> UnionBuilder::changesAndContext(int hops) const
{
    std::unordered_set<const Operation *> include;
    std::deque<std::pair<const Operation *, int>> queue;
    auto seed = [&](const Operation *op) {
        if (op && include.insert(topOf(op)).second)
            queue.emplace_back(topOf(op), 0);
    };
    for (size_t j = 0; j < m_diff.after.size(); ++j)
        if (m_diff.afterChange[j] != OpChange::Kept)
            seed(m_diff.after[j]);
    for (size_t i = 0; i < m_diff.before.size(); ++i) {
        if (m_diff.beforeChange[i] != OpChange::Removed)
            continue;
        for (Value v : m_diff.before[i]->operands())
            if (const Operation *p = v.definingOp(); p && !removed(p))
                seed(counterpart(p));
        for (Value r : m_diff.before[i]->results())
            for (OpOperand *use = r.firstUse(); use; use = use->nextUse())
                if (!removed(use->owner()))
                    seed(counterpart(use->owner()));
    }
    while (!queue.empty()) {
        const auto [op, distance] = queue.front();
        queue.pop_front();
        const int next = distance + 1; // clang 14 cannot capture a structured binding
        if (distance >= hops)
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
    return include;
}

Value UnionBuilder::placeholder(Value v)
{
    auto [it, fresh] = m_placeholders.emplace(v, Value());
    if (fresh)
        it->second = m_top.addArgument(v.type());
    return it->second;
}

void UnionBuilder::record(const Operation &original, Operation *copy, bool fromBefore)
{
    std::vector<const Operation *> from;
    std::vector<Operation *> to;
    const_cast<Operation &>(original).walk([&](Operation *op) { from.push_back(op); });
    copy->walk([&](Operation *op) { to.push_back(op); });
    for (size_t k = 0; k < from.size() && k < to.size(); ++k) {
        if (fromBefore) {
            auto it = m_beforeIndex.find(from[k]);
            m_g.beforeIndex[to[k]] = it != m_beforeIndex.end() ? it->second : -1;
            m_g.change[to[k]] = OpChange::Removed;
        } else {
            m_afterCopies[from[k]] = to[k];
            auto it = m_afterIndex.find(from[k]);
            const int32_t j = it != m_afterIndex.end() ? it->second : -1;
            m_g.afterIndex[to[k]] = j;
            m_g.change[to[k]] = j >= 0 ? m_diff.afterChange[size_t(j)] : OpChange::Kept;
            if (j >= 0 && m_diff.beforeOf[size_t(j)] >= 0)
                m_g.beforeIndex[to[k]] = m_diff.beforeOf[size_t(j)];
        }
    }
}

void UnionBuilder::copyAfterOps(const std::unordered_set<const Operation *> &include)
{
    for (Value arg : m_after.block().arguments())
        m_afterMapping.map(arg, m_top.addArgument(arg.type()));
    for (Value kw : m_after.block().kwargs())
        m_afterMapping.map(kw, m_top.addKwarg(kw.keyword(), kw.type()));
    for (const Operation *op : m_after.block().ops()) {
        if (!include.count(op))
            continue;
        for (Value v : externalOperands(*op))
            if (!m_afterMapping.contains(v))
                m_afterMapping.map(v, placeholder(v));
        Operation *copy = op->clone(m_g.program->arena(), m_afterMapping);
        m_top.push_back(copy);
        record(*op, copy, false);
    }
}

void UnionBuilder::mapBeforeValue(Value v)
{
    if (m_beforeMapping.contains(v))
        return;
    Value target;
    if (const Operation *p = v.definingOp()) {
        if (Operation *copy = counterpartCopy(p); copy && v.index() < copy->numResults())
            target = copy->result(v.index());
    } else if (v.isKeywordArgument()) {
        if (Value kw = m_after.block().kwarg(v.keyword()); kw && m_afterMapping.contains(kw))
            target = m_afterMapping.lookup(kw);
    } else if (const Block *block = v.parentBlock()) {
        const Operation *owner = block->parentOp();
        if (!owner && v.index() < m_after.block().numArguments()) {
            target = m_afterMapping.lookup(m_after.block().argument(v.index()));
        } else if (Operation *copy = owner ? counterpartCopy(owner) : nullptr) {
            const auto [r, b] = blockPosition(*block);
            if (r < copy->numRegions() && b < copy->region(r).numBlocks()
                && v.index() < copy->region(r).block(b).numArguments())
                target = copy->region(r).block(b).argument(v.index());
        }
    }
    m_beforeMapping.map(v, target ? target : placeholder(v));
}

Block &UnionBuilder::blockFor(const Operation &removedOp) const
{
    if (const Operation *parent = removedOp.parentOp()) {
        if (Operation *copy = counterpartCopy(parent)) {
            const auto [r, b] = blockPosition(*removedOp.parentBlock());
            if (r < copy->numRegions() && b < copy->region(r).numBlocks())
                return copy->region(r).block(b);
        }
    }
    return m_top;
}

size_t UnionBuilder::positionFor(const Operation &removedOp, const Block &block) const
{
    const Block *original = removedOp.parentBlock();
    for (long k = original->indexOf(&removedOp) - 1; k >= 0; --k) {
        const Operation *sibling = original->op(size_t(k));
        Operation *placed = nullptr;
        if (auto it = m_beforeCopies.find(sibling); it != m_beforeCopies.end())
            placed = it->second;
        else
            placed = counterpartCopy(sibling);
        if (placed && placed->parentBlock() == &block)
            return size_t(block.indexOf(placed)) + 1;
    }
    return 0;
}

void UnionBuilder::insertRemovedOps()
{
    for (size_t i = 0; i < m_diff.before.size(); ++i) {
        const Operation *r = m_diff.before[i];
        if (m_diff.beforeChange[i] != OpChange::Removed || (r->parentOp() && removed(r->parentOp())))
            continue;
        Block &block = blockFor(*r);
        const size_t position = positionFor(*r, block);
        for (Value v : externalOperands(*r))
            mapBeforeValue(v);
        Operation *copy = r->clone(m_g.program->arena(), m_beforeMapping);
        block.insert(position, copy);
        std::vector<const Operation *> from;
        std::vector<Operation *> to;
        const_cast<Operation *>(r)->walk([&](Operation *op) { from.push_back(op); });
        copy->walk([&](Operation *op) { to.push_back(op); });
        for (size_t k = 0; k < from.size() && k < to.size(); ++k)
            m_beforeCopies[from[k]] = to[k];
        record(*r, copy, true);
    }
}

void UnionBuilder::linkRewrites()
{
    for (const auto &[uop, j] : m_g.afterIndex) {
        if (j < 0)
            continue;
        for (int32_t i : m_diff.fusedFrom[size_t(j)])
            if (auto it = m_beforeCopies.find(m_diff.before[size_t(i)]); it != m_beforeCopies.end())
                m_g.fusedFrom[uop].push_back(it->second);
    }
    for (const auto &[uop, i] : m_g.beforeIndex) {
        if (i < 0 || m_g.change[uop] != OpChange::Removed)
            continue;
        for (int32_t j : m_diff.replacedBy[size_t(i)])
            if (auto it = m_afterCopies.find(m_diff.after[size_t(j)]); it != m_afterCopies.end())
                m_g.replacedBy[uop].push_back(it->second);
    }
}

void UnionBuilder::labelRewriteOutputs(GraphModel &graph) const
{
    // The rewrites' outputs only: the added ops inside a rewrite feed one that is labelled.
    std::unordered_set<const Operation *> outputs;
    for (int32_t j : m_diff.rewrites)
        if (auto it = m_afterCopies.find(m_diff.after[size_t(j)]); it != m_afterCopies.end())
            outputs.insert(it->second);
    for (GraphNode &node : graph.nodes) {
        if (node.ghost || !node.op || !outputs.count(node.op))
            continue;
        if (auto it = m_g.fusedFrom.find(node.op); it != m_g.fusedFrom.end() && !it->second.empty())
            node.lines.push_back(fusedLabel(it->second));
    }
}

} // namespace

std::shared_ptr<const DiffGraph> DiffGraph::build(
    const Program &before, const Program &after, const OpDiff &diff, const Options &options)
{
    auto g = std::make_shared<DiffGraph>();
    g->program = std::make_unique<Program>();
    UnionBuilder builder(before, after, diff, *g);
    g->totalOps = after.block().size() + builder.removedTopLevelOps();
    g->cropped = options.wholeProgramLimit != 0 && g->totalOps > options.wholeProgramLimit;
    builder.copyAfterOps(g->cropped ? builder.changesAndContext(options.contextHops) : builder.allOps());
    builder.insertRemovedOps();
    builder.linkRewrites();
    g->graph = GraphBuilder(options.graph).build(*g->program);
    builder.labelRewriteOutputs(g->graph);
    g->shownOps = g->program->block().size();
    return g;
}

} // namespace ps
