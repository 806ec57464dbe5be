#pragma once

#include "core/ir/value.h"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ps {

/// A Python-like nested structure of values: a value leaf, a constant leaf (kept as text, e.g.
/// a Python int the layer returned), or a list, tuple or dict of nodes.
struct NestNode
{
    enum class Kind { Value, Constant, List, Tuple, Dict };
    Kind kind = Kind::Constant;
    Value value;
    std::string constant;
    std::vector<NestNode> items; ///< list/tuple elements, dict values
    std::vector<std::string> keys; ///< dict keys, parallel to items

    static NestNode leaf(Value v);
    static NestNode constantLeaf(std::string text);
    static NestNode list(std::vector<NestNode> items);
    static NestNode tuple(std::vector<NestNode> items);
    static NestNode dict(std::vector<std::pair<std::string, NestNode>> entries);
};

/// Paddle's dy2static `NestSequence`: flattens a nested structure in `paddle.utils.flatten`
/// order (dict entries by sorted key), keeps the value leaves without duplicates (the first
/// occurrence wins; constants are dropped) and restores the structure from a list with one
/// entry per distinct value. O(leaves) plus the key sorts.
class NestSequence
{
public:
    NestSequence() = default;
    explicit NestSequence(NestNode raw);

    const NestNode &raw() const { return m_raw; }
    /// The distinct values, first-occurrence order (`var_list`).
    const std::vector<Value> &varList() const { return m_varList; }
    size_t size() const { return m_varList.size(); }
    /// Every leaf in flatten order.
    std::vector<const NestNode *> flatten() const;
    /// For every value leaf in flatten order, its index in varList() (`quick_index_map`).
    std::vector<size_t> quickIndexMap() const;
    /// Value leaves that repeat an earlier leaf, flatten order.
    std::vector<const NestNode *> duplicates() const;

    /// The structure with each value leaf replaced by `values[index of the leaf in varList()]`
    /// (`restore`). Returns false (and leaves `out` untouched) when the sizes differ.
    bool restore(const std::vector<Value> &values, NestNode &out) const;

private:
    NestNode m_raw;
    std::vector<Value> m_varList;
    std::unordered_map<Value, size_t> m_varMap;
};

} // namespace ps
