#pragma once

#include "core/ir/value.h"

#include <unordered_map>

namespace ps {

/// Old value → new value, filled by clone and consulted for operands. Unmapped values map to
/// themselves.
class IrMapping
{
public:
    void map(Value from, Value to) { m_values[from] = to; }
    Value lookup(Value v) const
    {
        auto it = m_values.find(v);
        return it == m_values.end() ? v : it->second;
    }
    bool contains(Value v) const { return m_values.count(v) != 0; }
    const std::unordered_map<Value, Value> &values() const { return m_values; }

private:
    std::unordered_map<Value, Value> m_values;
};

} // namespace ps
