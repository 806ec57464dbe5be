#include "core/transform/valuerename.h"

#include "core/analysis/valuenames.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <algorithm>
#include <unordered_set>

namespace ps {

namespace {

struct BlockValue
{
    Value value;
    const Block *block = nullptr; ///< set for kwargs: the block that holds them
};

void collectValues(const Block &block, std::vector<BlockValue> &out)
{
    for (Value kw : block.kwargs())
        out.push_back({ kw, &block });
    for (Operation *op : block.ops()) {
        for (unsigned i = 0; i < op->numResults(); ++i)
            out.push_back({ op->result(i), nullptr });
        for (unsigned r = 0; r < op->numRegions(); ++r) {
            const Region &region = op->region(r);
            for (size_t b = 0; b < region.numBlocks(); ++b)
                collectValues(region.block(b), out);
        }
    }
}

std::vector<BlockValue> allBlockValues(const Program &program)
{
    std::vector<BlockValue> out;
    if (program.region().numBlocks() != 0)
        collectValues(program.block(), out);
    return out;
}

void renameAttribute(Operation *op, const char *attribute, const std::string &newName,
    std::map<std::string, std::string> &mapping)
{
    const Attribute *a = op->attribute(attribute);
    const std::string old = a && a->kind() == Attribute::Kind::String ? a->asString() : std::string();
    if (old == newName)
        return;
    op->setAttribute(attribute, Attribute::string(newName));
    mapping.insert({ old, newName });
}

} // namespace

void RenameMapping::set(const std::string &from, const std::string &to)
{
    auto [it, inserted] = m_index.try_emplace(from, m_items.size());
    if (inserted)
        m_items.emplace_back(from, to);
    else
        m_items[it->second].second = to;
}

std::string RenameMapping::map(const std::string &name) const
{
    auto it = m_index.find(name);
    return it == m_index.end() ? name : m_items[it->second].second;
}

bool RenameMapping::contains(const std::string &name) const
{
    return m_index.count(name) != 0;
}

std::map<std::string, std::string> renameValue(Value &value, const std::string &newName, Block &block)
{
    std::map<std::string, std::string> mapping;
    if (value.isNull())
        return mapping;
    if (value.isKeywordArgument() && value.parentBlock() == &block && value.keyword() != newName) {
        const std::string oldName = value.keyword();
        Value newValue = block.kwarg(newName);
        if (newValue.isNull())
            newValue = block.addKwarg(newName, value.type());
        value.replaceAllUsesWith(newValue);
        block.eraseKwarg(oldName);
        value = newValue;
        mapping.insert({ oldName, newName });
    }
    if (Operation *def = value.definingOp()) {
        if (ops::isData(*def)) {
            renameAttribute(def, "name", newName, mapping);
        } else if (ops::isParameter(*def)) {
            renameAttribute(def, "parameter_name", newName, mapping);
        } else if (ops::isConstant(*def)) {
            const Attribute *a = def->attribute("value");
            if (a && a->kind() == Attribute::Kind::TensorName && a->asString() != newName) {
                mapping.insert({ a->asString(), newName });
                def->setAttribute("value", Attribute::tensorName(newName));
            }
        }
    }
    for (OpOperand *use = value.firstUse(); use; use = use->nextUse()) {
        Operation *user = use->owner();
        if (ops::isShadowOutput(*user))
            renameAttribute(user, "output_name", newName, mapping);
        else if (ops::isSetParameter(*user))
            renameAttribute(user, "parameter_name", newName, mapping);
    }
    return mapping;
}

std::vector<Value> programAllValues(const Program &program)
{
    std::vector<Value> out;
    for (const BlockValue &bv : allBlockValues(program))
        out.push_back(bv.value);
    return out;
}

RenameMapping unifyValueNames(Program &program, RenameMapping mapping, std::vector<std::string> *problems)
{
    // A kwarg that an earlier rename replaced is erased (its impl destroyed): such values are
    // recognised by identity only. The arena never reuses memory, so identities stay unique.
    std::unordered_set<Value> erased;
    for (const BlockValue &bv : allBlockValues(program)) {
        if (bv.block && erased.count(bv.value))
            continue;
        const std::optional<std::string> first = ValueNames::firstName(bv.value);
        if (!first)
            continue;
        Value value = bv.value;
        for (const auto &[from, to] : renameValue(value, mapping.map(*first), program.block()))
            mapping.set(from, to);
        if (value != bv.value)
            erased.insert(bv.value);
    }
    if (problems) {
        for (const BlockValue &bv : allBlockValues(program)) {
            if (!ValueNames::hasOnlyOneName(bv.value)) {
                std::string names;
                for (const std::string &n : ValueNames::allNameStrings(bv.value))
                    names += (names.empty() ? "" : ", ") + n;
                problems->push_back("a value still has several names after unify_value_names: " + names);
            }
        }
    }
    return mapping;
}

} // namespace ps
