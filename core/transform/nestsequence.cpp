#include "core/transform/nestsequence.h"

#include <algorithm>
#include <numeric>

namespace ps {

namespace {

/// Children of a node in flatten order: dicts by sorted key (stable for equal keys).
std::vector<size_t> childOrder(const NestNode &node)
{
    std::vector<size_t> order(node.items.size());
    std::iota(order.begin(), order.end(), 0);
    if (node.kind == NestNode::Kind::Dict)
        std::stable_sort(
            order.begin(), order.end(), [&node](size_t a, size_t b) { return node.keys[a] < node.keys[b]; });
    return order;
}

template<class Node, class Fn> void visitLeaves(Node &node, Fn &&fn)
{
    if (node.kind == NestNode::Kind::Value || node.kind == NestNode::Kind::Constant) {
        fn(node);
        return;
    }
    for (size_t i : childOrder(node))
        visitLeaves(node.items[i], fn);
}

} // namespace

NestNode NestNode::leaf(Value v)
{
    NestNode n;
    n.kind = Kind::Value;
    n.value = v;
    return n;
}

NestNode NestNode::constantLeaf(std::string text)
{
    NestNode n;
    n.kind = Kind::Constant;
    n.constant = std::move(text);
    return n;
}

NestNode NestNode::list(std::vector<NestNode> items)
{
    NestNode n;
    n.kind = Kind::List;
    n.items = std::move(items);
    return n;
}

NestNode NestNode::tuple(std::vector<NestNode> items)
{
    NestNode n = list(std::move(items));
    n.kind = Kind::Tuple;
    return n;
}

NestNode NestNode::dict(std::vector<std::pair<std::string, NestNode>> entries)
{
    NestNode n;
    n.kind = Kind::Dict;
    for (auto &[key, item] : entries) {
        n.keys.push_back(key);
        n.items.push_back(std::move(item));
    }
    return n;
}

NestSequence::NestSequence(NestNode raw)
    : m_raw(std::move(raw))
{
    visitLeaves(m_raw, [this](const NestNode &leaf) {
        if (leaf.kind != NestNode::Kind::Value || m_varMap.count(leaf.value))
            return;
        m_varMap.emplace(leaf.value, m_varList.size());
        m_varList.push_back(leaf.value);
    });
}

std::vector<const NestNode *> NestSequence::flatten() const
{
    std::vector<const NestNode *> leaves;
    visitLeaves(m_raw, [&leaves](const NestNode &leaf) { leaves.push_back(&leaf); });
    return leaves;
}

std::vector<size_t> NestSequence::quickIndexMap() const
{
    std::vector<size_t> indices;
    for (const NestNode *leaf : flatten())
        if (leaf->kind == NestNode::Kind::Value)
            indices.push_back(m_varMap.at(leaf->value));
    return indices;
}

std::vector<const NestNode *> NestSequence::duplicates() const
{
    std::vector<const NestNode *> repeated;
    std::unordered_map<Value, bool> seen;
    for (const NestNode *leaf : flatten()) {
        if (leaf->kind != NestNode::Kind::Value)
            continue;
        if (!seen.emplace(leaf->value, true).second)
            repeated.push_back(leaf);
    }
    return repeated;
}

bool NestSequence::restore(const std::vector<Value> &values, NestNode &out) const
{
    if (values.size() != m_varList.size())
        return false;
    NestNode copy = m_raw;
    visitLeaves(copy, [&](NestNode &leaf) {
        if (leaf.kind == NestNode::Kind::Value)
            leaf.value = values[m_varMap.at(leaf.value)];
    });
    out = std::move(copy);
    return true;
}

} // namespace ps
