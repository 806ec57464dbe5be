#include "core/analysis/valuenamemap.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

namespace ps {

namespace {

const std::string *stringAttr(const Operation *op, std::string_view name)
{
    const Attribute *a = op->attribute(name);
    if (!a || a->kind() != Attribute::Kind::String)
        return nullptr;
    return &a->asString();
}

} // namespace

ValueNameMap::ValueNameMap(const Program &program)
{
    // The fake entry's source is never reported unless a null operand overwrites it.
    m_entries.push_back({ Value(), std::string(kFakeName), NameSource::ShadowOutput, nullptr });
    m_index.emplace(Value(), 0);

    if (program.region().numBlocks() != 0) {
        const Block &block = program.block();
        for (Value kw : block.kwargs())
            set(kw, kw.keyword(), NameSource::Kwarg, nullptr);
        for (const Operation *op : block.ops()) {
            const std::string_view name = op->name();
            if (name == ops::kSetParameter) {
                if (const std::string *s = stringAttr(op, "parameter_name"); s && op->numOperands() > 0)
                    set(op->operand(0), *s, NameSource::SetParameter, op);
            } else if (name == ops::kParameter) {
                if (const std::string *s = stringAttr(op, "parameter_name"); s && op->numResults() > 0)
                    set(op->result(0), *s, NameSource::Parameter, op);
            } else if (name == ops::kShadowOutput) {
                if (const std::string *s = stringAttr(op, "output_name"); s && op->numOperands() > 0)
                    set(op->operand(0), *s, NameSource::ShadowOutput, op);
            } else if (name == ops::kData) {
                if (const std::string *s = stringAttr(op, "name"); s && op->numResults() > 0)
                    set(op->result(0), *s, NameSource::Data, op);
            }
        }
    }

    for (const ValueNameEntry &e : m_entries)
        m_reverse[e.name] = e.value;
}

void ValueNameMap::set(Value value, std::string name, NameSource source, const Operation *op)
{
    auto [it, inserted] = m_index.emplace(value, m_entries.size());
    if (inserted) {
        m_entries.push_back({ value, std::move(name), source, op });
        return;
    }
    ValueNameEntry &e = m_entries[it->second];
    e.name = std::move(name);
    e.source = source;
    e.op = op;
    if (value.isNull())
        m_fakeOverwritten = true;
}

bool ValueNameMap::contains(Value value) const
{
    return m_index.count(value) != 0;
}

std::optional<std::string> ValueNameMap::name(Value value) const
{
    auto it = m_index.find(value);
    if (it == m_index.end())
        return std::nullopt;
    return m_entries[it->second].name;
}

const ValueNameEntry *ValueNameMap::entry(Value value) const
{
    auto it = m_index.find(value);
    if (it == m_index.end() || (it->second == 0 && !m_fakeOverwritten))
        return nullptr;
    return &m_entries[it->second];
}

std::optional<Value> ValueNameMap::lookup(std::string_view name) const
{
    auto it = m_reverse.find(std::string(name));
    if (it == m_reverse.end())
        return std::nullopt;
    return it->second;
}

} // namespace ps
