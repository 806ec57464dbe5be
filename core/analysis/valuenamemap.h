#pragma once

#include "core/analysis/valuenames.h"
#include "core/ir/value.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class Operation;
class Program;

/// One entry of the value-name map: the value, its (final) name, and where that name came from
/// (`op` is the op that gave it; null for kwargs).
struct ValueNameEntry
{
    Value value;
    std::string name;
    NameSource source = NameSource::Data;
    const Operation *op = nullptr;
};

/// The 3.0-era `RunnableProgram._get_value_name_map_from_program`, a Python dict rebuilt
/// exactly: `{fake: "FakeVar"}`, then every top-level kwarg → keyword, then for each top-level
/// op in order: `builtin.set_parameter` operand → parameter_name, `builtin.parameter` result →
/// parameter_name, `builtin.shadow_output` operand → output_name, `pd_op.data` result → name.
/// A later op overwrites the name but (dict semantics) the key keeps its first position.
/// Nested blocks are not visited. Ops lacking the attribute or operand/result are skipped
/// (Python would raise). The fake value is the null Value. O(ops + kwargs).
class ValueNameMap
{
public:
    static constexpr std::string_view kFakeName = "FakeVar";

    explicit ValueNameMap(const Program &program);

    /// Entries in dict order, without the fake value's own entry (see fakeName()); a null
    /// operand of shadow_output/set_parameter does appear, as Python overwrites the fake key.
    std::span<const ValueNameEntry> entries() const
    {
        return std::span<const ValueNameEntry>(m_entries).subspan(m_fakeOverwritten ? 0 : 1);
    }
    /// Name of the null value: "FakeVar" unless a null operand overwrote it.
    const std::string &fakeName() const { return m_entries.front().name; }

    bool contains(Value value) const;
    /// The mapped name; nullopt when the value is not in the map. Null value → fakeName().
    std::optional<std::string> name(Value value) const;
    /// The entry of a value, or nullptr (also for the un-overwritten fake value).
    const ValueNameEntry *entry(Value value) const;

    /// Reverse map as `{v: k for k, v in map.items()}` builds it: the last entry in dict order
    /// with that name wins. nullopt: no such name; a null Value: the fake value.
    std::optional<Value> lookup(std::string_view name) const;

private:
    void set(Value value, std::string name, NameSource source, const Operation *op);

    std::vector<ValueNameEntry> m_entries; ///< [0] is the fake value's entry
    std::unordered_map<Value, size_t> m_index;
    std::unordered_map<std::string, Value> m_reverse;
    bool m_fakeOverwritten = false;
};

} // namespace ps
