#pragma once

#include "core/ir/value.h"

#include <unordered_map>
#include <vector>

namespace ps {

/// Union-find over Values as the seed's `UnionFindSet` (a ValueDict `father`): elements are
/// added by their first find(), keep that insertion order, and `unite(x, y)` makes the root
/// of `y` the father of the root of `x`. The null Value is an ordinary element (Python hashes
/// the fake value like any other). find() compresses paths; root() does not.
class UnionFind
{
public:
    /// Adds `x` when absent; returns its root. Amortised near O(1).
    Value find(Value x);
    /// The seed's `union(x, y)`: x → y, i.e. root(y) becomes the root of both sets.
    void unite(Value x, Value y);
    /// Root without adding or compressing; `x` itself when absent.
    Value root(Value x) const;

    bool contains(Value x) const { return m_father.count(x) != 0; }
    /// Elements in insertion order (the order `iter_elements` yields them).
    const std::vector<Value> &elements() const { return m_order; }
    size_t size() const { return m_order.size(); }

private:
    std::unordered_map<Value, Value> m_father;
    std::vector<Value> m_order;
};

} // namespace ps
