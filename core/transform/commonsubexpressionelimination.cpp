#include "core/transform/commonsubexpressionelimination.h"

#include "core/analysis/inplacegroups.h"
#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/attributehash.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/transform/deadcodeelimination.h"
#include "core/transform/gradstopgradient.h"

#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

bool isCommutative(std::string_view name)
{
    static const std::unordered_set<std::string_view> ops = {
        ops::kMultiply,
        ops::kAdd,
        "pd_op.maximum",
        "pd_op.minimum",
        "pd_op.logical_and",
        "pd_op.logical_or",
        "pd_op.logical_xor",
        "pd_op.equal",
        "pd_op.not_equal",
        "pd_op.bitwise_or",
        "pd_op.bitwise_xor",
        "pd_op.bitwise_and",
    };
    return ops.count(name) != 0;
}

bool isTerminateOp(const Operation *op)
{
    if (ops::isData(*op) || ops::isParameter(*op))
        return true;
    if (!ops::isConstant(*op))
        return false;
    const Attribute *value = op->attribute("value");
    return value && value->kind() == Attribute::Kind::TensorName;
}

bool isTerminateValue(Value v)
{
    return !v.definingOp() || isTerminateOp(v.definingOp());
}

bool isDenseOrVectorOfDense(Type t)
{
    if (t.kind() == Type::Kind::DenseTensor)
        return true;
    if (t.kind() != Type::Kind::Vector)
        return false;
    return std::all_of(
        t.elements().begin(), t.elements().end(), [](Type e) { return e.kind() == Type::Kind::DenseTensor; });
}

/// The op's declared attributes (`op->info().GetAttributesName()`): the registry's YAML
/// attributes; for an unknown op every attribute except the bookkeeping ones.
std::vector<std::string> declaredAttributes(const Operation *op)
{
    std::vector<std::string> names;
    if (const OpInfo *info = OpRegistry::instance().lookup(op->name())) {
        for (int i = 0; i < info->numAttributes; ++i)
            names.emplace_back(info->attributes[i].name);
        return names;
    }
    static const std::unordered_set<std::string_view> extras = { "stop_gradient", "struct_name",
        "op_callstack", "sym_shape_str", "op_role", "chunk_id", "comp_op_name" };
    for (const NamedAttribute &a : op->attributes())
        if (!extras.count(a.name))
            names.push_back(a.name);
    std::sort(names.begin(), names.end());
    return names;
}

class Analyzer
{
public:
    struct Table
    {
        std::unordered_map<size_t, std::vector<Operation *>> buckets;
    };

    void simplifyBlock(Block &block, const Table &parent)
    {
        Table table = parent;
        for (Operation *op : block.ops())
            simplifyOp(op, table);
    }

    std::vector<std::pair<Operation *, Operation *>> toErase;

private:
    struct Entry
    {
        size_t hash = 0;
        bool safe = false;
    };

    void simplifyOp(Operation *op, Table &table)
    {
        if (isTerminateOp(op))
            return;
        for (unsigned r = 0; r < op->numRegions(); ++r)
            for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                simplifyBlock(op->region(r).block(b), table);
        const Entry entry { opHash(op), canBeSafeToReplace(op) };
        m_entries[op] = entry;
        Operation *same = nullptr;
        auto it = table.buckets.find(entry.hash);
        if (it != table.buckets.end()) {
            for (Operation *candidate : it->second) {
                if (opsEqual(op, candidate)) {
                    same = candidate;
                    break;
                }
            }
        }
        if (!entry.safe)
            return;
        if (same)
            toErase.emplace_back(op, same);
        else
            table.buckets[entry.hash].push_back(op);
    }

    size_t valueHash(Value v) const
    {
        if (!isTerminateValue(v)) {
            auto it = m_entries.find(v.definingOp());
            if (it != m_entries.end())
                return hashCombine(it->second.hash, v.index());
        }
        return std::hash<const void *>()(v.impl());
    }

    std::vector<Value> orderedOperands(const Operation *op) const
    {
        std::vector<Value> operands = op->operands();
        if (isCommutative(op->name()) && operands.size() >= 2
            && valueHash(operands[1]) < valueHash(operands[0]))
            std::swap(operands[0], operands[1]);
        return operands;
    }

    size_t opHash(const Operation *op) const
    {
        size_t h = 0;
        for (const Value &v : orderedOperands(op))
            h = hashCombine(h, valueHash(v));
        h = hashCombine(h, std::hash<std::string_view>()(op->name()));
        for (const std::string &name : declaredAttributes(op)) {
            h = hashCombine(h, std::hash<std::string>()(name));
            const Attribute *a = op->attribute(name);
            h = hashCombine(h, a ? hashAttribute(*a) : 0);
        }
        return h;
    }

    bool canBeSafeToReplace(const Operation *op) const
    {
        if (DeadCodeElimination::hasSideEffect(*op))
            return false;
        for (unsigned i = 0; i < op->numResults(); ++i) {
            const Value r = op->result(i);
            if (!isDenseOrVectorOfDense(r.type()))
                return false;
            for (const OpOperand *use = r.firstUse(); use; use = use->nextUse()) {
                const Operation *user = use->owner();
                if (ops::isYield(*user) || ops::isWhile(*user))
                    return false;
                for (const OpIndexPair &pair : InplaceGroups::registryInplaceInfo(user))
                    if (unsigned(pair.input) < user->numOperands()
                        && user->operand(unsigned(pair.input)) == r)
                        return false;
            }
        }
        for (unsigned i = 0; i < op->numOperands(); ++i) {
            const Value v = op->operand(i);
            if (isTerminateValue(v))
                continue;
            auto it = m_entries.find(v.definingOp());
            if (it == m_entries.end() || !it->second.safe)
                return false;
        }
        return true;
    }

    bool opsEqual(const Operation *lhs, const Operation *rhs) const
    {
        if (lhs == rhs)
            return true;
        if (lhs->numRegions() || rhs->numRegions() || lhs->name() != rhs->name())
            return false;
        for (const std::string &name : declaredAttributes(lhs)) {
            const Attribute *a = lhs->attribute(name);
            const Attribute *b = rhs->attribute(name);
            if ((a == nullptr) != (b == nullptr) || (a && *a != *b))
                return false;
        }
        if (lhs->numOperands() != rhs->numOperands())
            return false;
        const std::vector<Value> lo = orderedOperands(lhs);
        const std::vector<Value> ro = orderedOperands(rhs);
        for (size_t i = 0; i < lo.size(); ++i)
            if (!valuesEqual(lo[i], ro[i]))
                return false;
        if (lhs->numResults() != rhs->numResults())
            return false;
        for (unsigned i = 0; i < lhs->numResults(); ++i)
            if (lhs->result(i).type() != rhs->result(i).type())
                return false;
        return true;
    }

    bool valuesEqual(Value lhs, Value rhs) const
    {
        const bool lt = isTerminateValue(lhs);
        if (lt != isTerminateValue(rhs))
            return false;
        if (lt)
            return lhs == rhs;
        return opsEqual(lhs.definingOp(), rhs.definingOp()) && lhs.type() == rhs.type()
            && lhs.index() == rhs.index();
    }

    std::unordered_map<const Operation *, Entry> m_entries;
};

/// Paddle's ReplaceOpWith: uses move to `kept`'s results; shadow-output uses to an assign of them.
void replaceOpWith(Operation *op, Operation *kept)
{
    Block *keptBlock = kept->parentBlock();
    for (unsigned i = 0; i < op->numResults() && i < kept->numResults(); ++i) {
        const Value value = op->result(i);
        const Value newValue = kept->result(i);
        std::vector<OpOperand *> shadowUses;
        std::vector<OpOperand *> otherUses;
        for (OpOperand *use = value.firstUse(); use; use = use->nextUse())
            (ops::isShadowOutput(*use->owner()) ? shadowUses : otherUses).push_back(use);
        for (OpOperand *use : otherUses)
            use->set(newValue);
        if (shadowUses.empty())
            continue;
        const Value operands[] = { newValue };
        const Type types[] = { newValue.type() };
        std::vector<NamedAttribute> attributes { { "stop_gradient",
            Attribute::array({ Attribute::boolean(stopGradientOf(newValue)) }) } };
        Operation *assign = Operation::create(
            keptBlock->parentRegion()->arena(), ops::kAssign, operands, types, std::move(attributes));
        keptBlock->insert(size_t(keptBlock->indexOf(kept)) + 1, assign);
        for (OpOperand *use : shadowUses)
            use->set(assign->result(0));
    }
    op->parentBlock()->erase(op);
}

} // namespace

size_t CommonSubexpressionElimination::run(Program &program)
{
    m_replacements.clear();
    Analyzer analyzer;
    analyzer.simplifyBlock(program.block(), {});
    for (auto [op, kept] : analyzer.toErase) {
        m_replacements.emplace_back(op, kept);
        replaceOpWith(op, kept);
    }
    return m_replacements.size();
}

} // namespace ps
