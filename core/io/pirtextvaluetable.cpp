#include "core/io/pirtextvaluetable.h"

#include <algorithm>

namespace ps {

namespace {

/// N for a plain `%N` name (no leading zeros), or -1.
long numberedIndex(std::string_view name)
{
    if (name.size() < 2 || name.size() > 9 || (name.size() > 2 && name[1] == '0'))
        return -1;
    long n = 0;
    for (size_t i = 1; i < name.size(); ++i) {
        const char c = name[i];
        if (c < '0' || c > '9')
            return -1;
        n = n * 10 + (c - '0');
    }
    return n;
}

} // namespace

PirTextValueTable::Entry *PirTextValueTable::find(std::string_view name)
{
    const long n = numberedIndex(name);
    if (n >= 0 && size_t(n) < m_denseLimit)
        return size_t(n) < m_numbered.size() ? &m_numbered[size_t(n)] : nullptr;
    auto it = m_named.find(name);
    return it == m_named.end() ? nullptr : &it->second;
}

PirTextValueTable::Entry &PirTextValueTable::slot(std::string_view name)
{
    const long n = numberedIndex(name);
    if (n >= 0 && size_t(n) < m_denseLimit) {
        if (size_t(n) >= m_numbered.size())
            m_numbered.resize(std::min(std::max(size_t(n) + 1, m_numbered.size() * 2), m_denseLimit));
        return m_numbered[size_t(n)];
    }
    return m_named[name];
}

std::vector<PirTextValueTable::PendingUse> PirTextValueTable::takePending(std::string_view name)
{
    if (m_pending.empty())
        return {};
    auto it = m_pending.find(name);
    if (it == m_pending.end())
        return {};
    std::vector<PendingUse> uses = std::move(it->second);
    m_pending.erase(it);
    return uses;
}

std::vector<std::pair<std::string_view, PirTextValueTable::PendingUse>> PirTextValueTable::takeAllPending()
{
    std::vector<std::pair<std::string_view, PendingUse>> uses;
    for (auto &[name, list] : m_pending) {
        for (PendingUse &p : list)
            uses.emplace_back(name, std::move(p));
    }
    m_pending.clear();
    std::sort(uses.begin(), uses.end(),
        [](const auto &a, const auto &b) { return a.second.use.begin < b.second.use.begin; });
    return uses;
}

} // namespace ps
