#include "core/transform/gradmap.h"

namespace ps {

bool GradMap::emptyAt(Value v) const
{
    auto it = m_map.find(v);
    return it == m_map.end() || it->second.empty();
}

GradMap::Entries &GradMap::operator[](Value v)
{
    auto [it, inserted] = m_map.try_emplace(v);
    if (inserted)
        m_order.push_back(v);
    return it->second;
}

const GradMap::Entries *GradMap::find(Value v) const
{
    auto it = m_map.find(v);
    return it == m_map.end() ? nullptr : &it->second;
}

} // namespace ps
