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

} // namespace

OpDiff ProgramDiff::ops(
    const Program &before, const Program &after, const OpKeys *keysBefore, const OpKeys *keysAfter)
{
    OpDiff d;
    before.block().walk([&d](Operation *op) { d.before.push_back(op); });
    after.block().walk([&d](Operation *op) { d.after.push_back(op); });
    d.matchedByKey = OpMatcher::match(d.before, d.after, keysBefore, keysAfter, d.afterOf, d.beforeOf);

    const size_t nb = d.before.size();
    const size_t na = d.after.size();
    d.beforeChange.assign(nb, OpChange::Removed);
    d.afterChange.assign(na, OpChange::Added);
    for (size_t i = 0; i < nb; ++i) {
        const int32_t j = d.afterOf[i];
        if (j < 0) {
            ++d.removed;
            continue;
        }
        const OpChange c
            = OpMatcher::sameContent(*d.before[i], *d.after[size_t(j)]) ? OpChange::Kept : OpChange::Changed;
        d.beforeChange[i] = d.afterChange[size_t(j)] = c;
        ++(c == OpChange::Kept ? d.kept : d.changed);
    }
    d.added = na - d.kept - d.changed;
    d.fusedFrom.resize(na);
    d.replacedBy.resize(nb);
    if (d.removed == 0)
        return d;

    // A user that switched from a removed op's result to another op's says what replaced it.
    const auto beforeIndex = indexOf(d.before);
    const auto afterIndex = indexOf(d.after);
    auto producer = [](const auto &index, Value v) -> int32_t {
        const Operation *def = v.definingOp();
        if (!def)
            return -1;
        auto it = index.find(def);
        return it == index.end() ? -1 : it->second;
    };
    std::vector<std::vector<int32_t>> roots(na); // added op → the removed ops whose users it took
    std::vector<int32_t> replacer(nb, -1); // removed op → the one added op that took its users
    for (size_t j = 0; j < na; ++j) {
        const int32_t i = d.beforeOf[j];
        if (i < 0)
            continue;
        const Operation &userBefore = *d.before[size_t(i)];
        const Operation &userAfter = *d.after[j];
        const unsigned slots = std::min(userBefore.numOperands(), userAfter.numOperands());
        for (unsigned s = 0; s < slots; ++s) {
            const int32_t old = producer(beforeIndex, userBefore.operand(s));
            if (old < 0 || d.beforeChange[size_t(old)] != OpChange::Removed)
                continue;
            const int32_t now = producer(afterIndex, userAfter.operand(s));
            if (now < 0)
                continue;
            addUnique(d.replacedBy[size_t(old)], now);
            if (d.afterChange[size_t(now)] != OpChange::Added)
                continue;
            addUnique(roots[size_t(now)], old);
            int32_t &r = replacer[size_t(old)];
            r = r == -1 || r == now ? now : -2;
        }
    }
    // An added op that replaced ops was made from them and the removed ops they were computed
    // from, up to another replacing op's (owner: removed op → the added op made from it).
    std::vector<int32_t> owner(nb, -1);
    std::vector<int32_t> rootAnchor(na, -1);
    std::vector<int32_t> stack;
    std::vector<int32_t> resolved;
    for (size_t j = 0; j < na; ++j) {
        if (roots[j].empty())
            continue;
        rootAnchor[j] = int32_t(j);
        resolved.push_back(int32_t(j));
        stack = roots[j];
        while (!stack.empty()) {
            const int32_t r = stack.back();
            stack.pop_back();
            if (owner[size_t(r)] >= 0)
                continue;
            owner[size_t(r)] = int32_t(j);
            for (Value v : d.before[size_t(r)]->operands()) {
                const int32_t p = producer(beforeIndex, v);
                if (p >= 0 && d.beforeChange[size_t(p)] == OpChange::Removed && owner[size_t(p)] < 0
                    && (replacer[size_t(p)] < 0 || replacer[size_t(p)] == int32_t(j)))
                    stack.push_back(p);
            }
        }
    }
    // A chain of fused ops (fc → fc): only the last one took users from the program, so its
    // region holds the earlier ones' too. An added op feeding a resolved one takes the part of
    // that region its own inputs lead to, up to the ops that read an input only the later op has.
    auto keptInputs = [&](size_t j) {
        std::vector<Value> inputs;
        for (Value v : d.after[j]->operands()) {
            const int32_t p = producer(afterIndex, v);
            if (p >= 0 && d.beforeOf[size_t(p)] >= 0)
                inputs.push_back(d.before[size_t(d.beforeOf[size_t(p)])]->result(v.index()));
            else if (v.isBlockArgument() && !v.parentBlock()->parentOp()
                && v.index() < before.block().numArguments())
                inputs.push_back(before.block().argument(v.index()));
        }
        return inputs;
    };
    for (size_t k = 0; k < resolved.size(); ++k) {
        const size_t n = size_t(resolved[k]);
        const std::vector<Value> inputsOfN = keptInputs(n);
        for (Value v : d.after[n]->operands()) {
            const int32_t a = producer(afterIndex, v);
            if (a < 0 || d.afterChange[size_t(a)] != OpChange::Added || rootAnchor[size_t(a)] >= 0)
                continue;
            const std::vector<Value> inputsOfA = keptInputs(size_t(a));
            auto onlyN = [&](const Operation &op) {
                for (Value x : op.operands())
                    if (std::find(inputsOfN.begin(), inputsOfN.end(), x) != inputsOfN.end()
                        && std::find(inputsOfA.begin(), inputsOfA.end(), x) == inputsOfA.end())
                        return true;
                return false;
            };
            std::vector<int32_t> taken;
            for (Value in : inputsOfA)
                for (OpOperand *use = in.firstUse(); use; use = use->nextUse())
                    if (auto it = beforeIndex.find(use->owner()); it != beforeIndex.end())
                        stack.push_back(it->second);
            while (!stack.empty()) {
                const int32_t r = stack.back();
                stack.pop_back();
                if (owner[size_t(r)] < 0 || rootAnchor[size_t(owner[size_t(r)])] != rootAnchor[n]
                    || owner[size_t(r)] == a || onlyN(*d.before[size_t(r)]))
                    continue;
                owner[size_t(r)] = a;
                taken.push_back(r);
                for (Value res : d.before[size_t(r)]->results())
                    for (OpOperand *use = res.firstUse(); use; use = use->nextUse())
                        if (auto it = beforeIndex.find(use->owner()); it != beforeIndex.end())
                            stack.push_back(it->second);
            }
            if (!taken.empty()) {
                rootAnchor[size_t(a)] = rootAnchor[n];
                resolved.push_back(a);
            }
        }
    }
    for (size_t i = 0; i < nb; ++i)
        if (owner[i] >= 0)
            d.fusedFrom[size_t(owner[i])].push_back(int32_t(i));
    for (size_t j = 0; j < na; ++j)
        if (!d.fusedFrom[j].empty())
            d.rewrites.push_back(int32_t(j));
    // The other added ops of a rewrite (the folded weight feeding the fused op) share what the
    // ops they are connected to were made from.
    Components components(na);
    for (size_t j = 0; j < na; ++j) {
        if (d.afterChange[j] != OpChange::Added)
            continue;
        for (Value v : d.after[j]->operands())
            if (const int32_t p = producer(afterIndex, v);
                p >= 0 && d.afterChange[size_t(p)] == OpChange::Added)
                components.unite(j, size_t(p));
    }
    std::unordered_map<size_t, std::vector<int32_t>> madeOf;
    for (size_t j = 0; j < na; ++j)
        for (int32_t i : d.fusedFrom[j])
            madeOf[components.find(j)].push_back(i);
    for (size_t j = 0; j < na; ++j) {
        if (d.afterChange[j] != OpChange::Added || rootAnchor[j] >= 0)
            continue;
        if (auto it = madeOf.find(components.find(j)); it != madeOf.end()) {
            d.fusedFrom[j] = it->second;
            std::sort(d.fusedFrom[j].begin(), d.fusedFrom[j].end());
        }
    }
    return d;
}

} // namespace ps
