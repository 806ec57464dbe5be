#pragma once

#include "core/ir/value.h"

#include <unordered_map>
#include <vector>

namespace ps {

/// Value → list of gradient entries (each entry a list of values: one value, or the element
/// gradients of a vector value), with the semantics of ir_backward.py's
/// `ValueDict(default_factory=list)`: reading a missing key through operator[] creates an empty
/// entry list, and keys remember their first insertion order.
class GradMap
{
public:
    using Entries = std::vector<std::vector<Value>>;

    bool contains(Value v) const { return m_map.count(v) != 0; }
    /// True when the key is missing or its list is empty (`v not in m or m[v] == []`).
    bool emptyAt(Value v) const;
    Entries &operator[](Value v);
    const Entries *find(Value v) const;
    /// Keys in first-insertion order.
    const std::vector<Value> &keys() const { return m_order; }

private:
    std::unordered_map<Value, Entries> m_map;
    std::vector<Value> m_order;
};

} // namespace ps
