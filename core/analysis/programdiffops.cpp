#include "core/analysis/opmatcher.h"
#include "core/analysis/programdiff.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ps {

namespace {

/// Index-based union-find with path halving.
class Components
{
public:
    explicit Components(size_t n)
        : m_parent(n)
    {
        std::iota(m_parent.begin(), m_parent.end(), size_t(0));
    }
    size_t find(size_t x)
    {
        while (m_parent[x] != x)
            x = m_parent[x] = m_parent[m_parent[x]];
        return x;
    }
    void unite(size_t a, size_t b) { m_parent[find(a)] = find(b); }

private:
    std::vector<size_t> m_parent;
};

std::unordered_map<const Operation *, int32_t> indexOf(const std::vector<const Operation *> &ops)
{
    std::unordered_map<const Operation *, int32_t> index;
    index.reserve(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
        index.emplace(ops[i], int32_t(i));
    return index;
}

void addUnique(std::vector<int32_t> &list, int32_t x)
{
    if (std::find(list.begin(), list.end(), x) == list.end())
        list.push_back(x);
}

/// The index of the op defining `v`; -1 for a block argument or an op not indexed.
int32_t producer(const std::unordered_map<const Operation *, int32_t> &index, Value v)
{
    const Operation *def = v.definingOp();
    if (!def)
        return -1;
    auto it = index.find(def);
    return it == index.end() ? -1 : it->second;
}

/// Whether `a` (of after) reads what `b` (of before) read, slot by slot: the same result of
/// paired ops, or the same argument of paired blocks (the top block's, or a region's whose
/// owners are paired). A fused op's users and CSE's survivors' users read another op now.
bool sameInputs(const OpDiff &d, const std::unordered_map<const Operation *, int32_t> &beforeIndex,
    const std::unordered_map<const Operation *, int32_t> &afterIndex, const Operation &b, const Operation &a)
{
    if (b.numOperands() != a.numOperands())
        return false;
    for (unsigned s = 0; s < b.numOperands(); ++s) {
        const Value vb = b.operand(s);
        const Value va = a.operand(s);
        if (!vb || !va) {
            if (bool(vb) != bool(va))
                return false;
            continue;
        }
        if (vb.index() != va.index() || vb.isBlockArgument() != va.isBlockArgument())
            return false;
        const Operation *ownerB = vb.isBlockArgument() ? vb.parentBlock()->parentOp() : vb.definingOp();
        const Operation *ownerA = va.isBlockArgument() ? va.parentBlock()->parentOp() : va.definingOp();
        if (!ownerB || !ownerA) {
            if (ownerB || ownerA)
                return false;
            continue; // both top-block arguments of the same index
        }
        const auto ib = beforeIndex.find(ownerB);
        const auto ia = afterIndex.find(ownerA);
        if (ib == beforeIndex.end() || ia == afterIndex.end() || d.afterOf[size_t(ib->second)] != ia->second)
            return false;
    }
    return true;
}

/// Pairs the ops of the two walks with OpMatcher and classifies each: kept, changed, removed,
/// added (OpDiff's lists and counts).
void classify(OpDiff &d, const OpKeys *keysBefore, const OpKeys *keysAfter)
{
    d.matchedByKey = OpMatcher::match(d.before, d.after, keysBefore, keysAfter, d.afterOf, d.beforeOf);
    const size_t nb = d.before.size();
    const size_t na = d.after.size();
    d.beforeChange.assign(nb, OpChange::Removed);
    d.afterChange.assign(na, OpChange::Added);
    const auto beforeIndex = indexOf(d.before);
    const auto afterIndex = indexOf(d.after);
    for (size_t i = 0; i < nb; ++i) {
        const int32_t j = d.afterOf[i];
        if (j < 0) {
            ++d.removed;
            continue;
        }
        const Operation &b = *d.before[i];
        const Operation &a = *d.after[size_t(j)];
        const OpChange c = OpMatcher::sameContent(b, a) && sameInputs(d, beforeIndex, afterIndex, b, a)
            ? OpChange::Kept
            : OpChange::Changed;
        d.beforeChange[i] = d.afterChange[size_t(j)] = c;
        ++(c == OpChange::Kept ? d.kept : d.changed);
    }
    d.added = na - d.kept - d.changed;
    d.fusedFrom.resize(na);
    d.replacedBy.resize(nb);
}

/// Which removed ops each added op was made from (OpDiff::replacedBy, fusedFrom, rewrites),
/// phase by phase, on a classified diff with removed ops.
class RewriteTracer
{
public:
    RewriteTracer(const Program &before, OpDiff &d)
        : m_before(before)
        , m_d(d)
        , m_beforeIndex(indexOf(d.before))
        , m_afterIndex(indexOf(d.after))
        , m_roots(d.after.size())
        , m_replacer(d.before.size(), -1)
        , m_owner(d.before.size(), -1)
        , m_rootAnchor(d.after.size(), -1)
    {
    }

    /// A user that switched from a removed op's result to another op's says what replaced it
    /// (replacedBy); an added op that did so took the removed op's users (a root of its region).
    void findReplacements();
    /// An added op that replaced ops was made from them and the removed ops they were computed
    /// from, up to another replacing op's.
    void claimRegions();
    /// A chain of fused ops (fc → fc): only the last one took users from the program, so its
    /// region holds the earlier ones' too. An added op feeding a resolved one takes the part of
    /// that region its own inputs lead to, up to the ops that read an input only the later op has.
    void splitChains();
    /// fusedFrom and rewrites from the regions.
    void recordRegions();
    /// The other added ops of a rewrite (the folded weight feeding the fused op) share what the
    /// ops they are connected to were made from.
    void shareWithConnectedOps();

private:
    /// The values of `before` the added op `j` reads: results of kept or changed ops and
    /// arguments of the top block.
    std::vector<Value> keptInputs(size_t j) const;
    /// Moves to the added op `a` the ops of `n`'s region its inputs lead to; the ops moved.
    std::vector<int32_t> takeFromRegion(size_t n, int32_t a);

    const Program &m_before;
    OpDiff &m_d;
    const std::unordered_map<const Operation *, int32_t> m_beforeIndex;
    const std::unordered_map<const Operation *, int32_t> m_afterIndex;
    std::vector<std::vector<int32_t>> m_roots; ///< added op → the removed ops whose users it took
    std::vector<int32_t> m_replacer; ///< removed op → the one added op that took its users
    std::vector<int32_t> m_owner; ///< removed op → the added op made from it
    std::vector<int32_t> m_rootAnchor; ///< added op → the op whose region it shares
    std::vector<int32_t> m_resolved; ///< added ops with a region, in the order found
};

void RewriteTracer::findReplacements()
{
    for (size_t j = 0; j < m_d.after.size(); ++j) {
        const int32_t i = m_d.beforeOf[j];
        if (i < 0)
            continue;
        const Operation &userBefore = *m_d.before[size_t(i)];
        const Operation &userAfter = *m_d.after[j];
        const unsigned slots = std::min(userBefore.numOperands(), userAfter.numOperands());
        for (unsigned s = 0; s < slots; ++s) {
            const int32_t old = producer(m_beforeIndex, userBefore.operand(s));
            if (old < 0 || m_d.beforeChange[size_t(old)] != OpChange::Removed)
                continue;
            const int32_t now = producer(m_afterIndex, userAfter.operand(s));
            if (now < 0)
                continue;
            addUnique(m_d.replacedBy[size_t(old)], now);
            if (m_d.afterChange[size_t(now)] != OpChange::Added)
                continue;
            addUnique(m_roots[size_t(now)], old);
            int32_t &r = m_replacer[size_t(old)];
            r = r == -1 || r == now ? now : -2;
        }
    }
}

void RewriteTracer::claimRegions()
{
    std::vector<int32_t> stack;
    for (size_t j = 0; j < m_d.after.size(); ++j) {
        if (m_roots[j].empty())
            continue;
        m_rootAnchor[j] = int32_t(j);
        m_resolved.push_back(int32_t(j));
        stack = m_roots[j];
        while (!stack.empty()) {
            const int32_t r = stack.back();
            stack.pop_back();
            if (m_owner[size_t(r)] >= 0)
                continue;
            m_owner[size_t(r)] = int32_t(j);
            for (Value v : m_d.before[size_t(r)]->operands()) {
                const int32_t p = producer(m_beforeIndex, v);
                if (p >= 0 && m_d.beforeChange[size_t(p)] == OpChange::Removed && m_owner[size_t(p)] < 0
                    && (m_replacer[size_t(p)] < 0 || m_replacer[size_t(p)] == int32_t(j)))
                    stack.push_back(p);
            }
        }
    }
}

std::vector<Value> RewriteTracer::keptInputs(size_t j) const
{
    std::vector<Value> inputs;
    for (Value v : m_d.after[j]->operands()) {
        const int32_t p = producer(m_afterIndex, v);
        if (p >= 0 && m_d.beforeOf[size_t(p)] >= 0)
            inputs.push_back(m_d.before[size_t(m_d.beforeOf[size_t(p)])]->result(v.index()));
        else if (v.isBlockArgument() && !v.parentBlock()->parentOp()
            && v.index() < m_before.block().numArguments())
            inputs.push_back(m_before.block().argument(v.index()));
    }
    return inputs;
}

std::vector<int32_t> RewriteTracer::takeFromRegion(size_t n, int32_t a)
{
    const std::vector<Value> inputsOfN = keptInputs(n);
    const std::vector<Value> inputsOfA = keptInputs(size_t(a));
    auto onlyN = [&](const Operation &op) {
        for (Value x : op.operands())
            if (std::find(inputsOfN.begin(), inputsOfN.end(), x) != inputsOfN.end()
                && std::find(inputsOfA.begin(), inputsOfA.end(), x) == inputsOfA.end())
                return true;
        return false;
    };
    std::vector<int32_t> taken;
    std::vector<int32_t> stack;
    for (Value in : inputsOfA)
        for (OpOperand *use = in.firstUse(); use; use = use->nextUse())
            if (auto it = m_beforeIndex.find(use->owner()); it != m_beforeIndex.end())
                stack.push_back(it->second);
    while (!stack.empty()) {
        const int32_t r = stack.back();
        stack.pop_back();
        if (m_owner[size_t(r)] < 0 || m_rootAnchor[size_t(m_owner[size_t(r)])] != m_rootAnchor[n]
            || m_owner[size_t(r)] == a || onlyN(*m_d.before[size_t(r)]))
            continue;
        m_owner[size_t(r)] = a;
        taken.push_back(r);
        for (Value res : m_d.before[size_t(r)]->results())
            for (OpOperand *use = res.firstUse(); use; use = use->nextUse())
                if (auto it = m_beforeIndex.find(use->owner()); it != m_beforeIndex.end())
                    stack.push_back(it->second);
    }
    return taken;
}

void RewriteTracer::splitChains()
{
    for (size_t k = 0; k < m_resolved.size(); ++k) {
        const size_t n = size_t(m_resolved[k]);
        for (Value v : m_d.after[n]->operands()) {
            const int32_t a = producer(m_afterIndex, v);
            if (a < 0 || m_d.afterChange[size_t(a)] != OpChange::Added || m_rootAnchor[size_t(a)] >= 0)
                continue;
            if (!takeFromRegion(n, a).empty()) {
                m_rootAnchor[size_t(a)] = m_rootAnchor[n];
                m_resolved.push_back(a);
            }
        }
    }
}

void RewriteTracer::recordRegions()
{
    for (size_t i = 0; i < m_d.before.size(); ++i)
        if (m_owner[i] >= 0)
            m_d.fusedFrom[size_t(m_owner[i])].push_back(int32_t(i));
    for (size_t j = 0; j < m_d.after.size(); ++j)
        if (!m_d.fusedFrom[j].empty())
            m_d.rewrites.push_back(int32_t(j));
}

void RewriteTracer::shareWithConnectedOps()
{
    const size_t na = m_d.after.size();
    Components components(na);
    for (size_t j = 0; j < na; ++j) {
        if (m_d.afterChange[j] != OpChange::Added)
            continue;
        for (Value v : m_d.after[j]->operands())
            if (const int32_t p = producer(m_afterIndex, v);
                p >= 0 && m_d.afterChange[size_t(p)] == OpChange::Added)
                components.unite(j, size_t(p));
    }
    std::unordered_map<size_t, std::vector<int32_t>> madeOf;
    for (size_t j = 0; j < na; ++j)
        for (int32_t i : m_d.fusedFrom[j])
            madeOf[components.find(j)].push_back(i);
    for (size_t j = 0; j < na; ++j) {
        if (m_d.afterChange[j] != OpChange::Added || m_rootAnchor[j] >= 0)
            continue;
        if (auto it = madeOf.find(components.find(j)); it != madeOf.end()) {
            m_d.fusedFrom[j] = it->second;
            std::sort(m_d.fusedFrom[j].begin(), m_d.fusedFrom[j].end());
        }
    }
}

} // namespace

OpDiff ProgramDiff::ops(
    const Program &before, const Program &after, const OpKeys *keysBefore, const OpKeys *keysAfter)
{
    OpDiff d;
    before.block().walk([&d](Operation *op) { d.before.push_back(op); });
    after.block().walk([&d](Operation *op) { d.after.push_back(op); });
    classify(d, keysBefore, keysAfter);
    if (d.removed == 0)
        return d;
    RewriteTracer tracer(before, d);
    tracer.findReplacements();
    tracer.claimRegions();
    tracer.splitChains();
    tracer.recordRegions();
    tracer.shareWithConnectedOps();
    return d;
}

} // namespace ps
