#include "core/analysis/unionfind.h"

namespace ps {

Value UnionFind::find(Value x)
{
    auto [it, inserted] = m_father.emplace(x, x);
    if (inserted) {
        m_order.push_back(x);
        return x;
    }
    Value r = x;
    while (true) {
        Value f = m_father.at(r);
        if (f == r)
            break;
        r = f;
    }
    // Path compression (iterative; the seed recurses).
    Value cur = x;
    while (cur != r) {
        Value &f = m_father.at(cur);
        Value next = f;
        f = r;
        cur = next;
    }
    return r;
}

void UnionFind::unite(Value x, Value y)
{
    const Value fx = find(x);
    const Value fy = find(y);
    if (fx != fy)
        m_father[fx] = fy;
}

Value UnionFind::root(Value x) const
{
    auto it = m_father.find(x);
    if (it == m_father.end())
        return x;
    Value r = x;
    while (true) {
        auto f = m_father.find(r);
        if (f == m_father.end() || f->second == r)
            return r;
        r = f->second;
    }
}

} // namespace ps
