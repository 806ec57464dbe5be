#include "core/runtime/breakpointset.h"

#include "core/analysis/namepattern.h"

namespace ps {

struct BreakpointSet::Compiled
{
    NamePattern regex;
};

BreakpointSet::BreakpointSet() = default;
BreakpointSet::~BreakpointSet() = default;

int BreakpointSet::addOp(const ProgramPosition &position)
{
    std::lock_guard lock(m_mutex);
    Breakpoint b;
    b.id = m_nextId++;
    b.kind = Breakpoint::Kind::Op;
    b.position = position;
    m_items.push_back(b);
    m_regexes.push_back(nullptr);
    return b.id;
}

int BreakpointSet::addNanInf()
{
    std::lock_guard lock(m_mutex);
    Breakpoint b;
    b.id = m_nextId++;
    b.kind = Breakpoint::Kind::NanInf;
    m_items.push_back(b);
    m_regexes.push_back(nullptr);
    return b.id;
}

int BreakpointSet::addNameRegex(const std::string &pattern, std::string &error)
{
    std::optional<NamePattern> regex = NamePattern::compile(pattern, error);
    if (!regex)
        return -1;
    auto compiled = std::make_shared<Compiled>(Compiled { std::move(*regex) });
    std::lock_guard lock(m_mutex);
    Breakpoint b;
    b.id = m_nextId++;
    b.kind = Breakpoint::Kind::NameRegex;
    b.pattern = pattern;
    m_items.push_back(b);
    m_regexes.push_back(std::move(compiled));
    return b.id;
}

bool BreakpointSet::remove(int id)
{
    std::lock_guard lock(m_mutex);
    for (size_t i = 0; i < m_items.size(); ++i) {
        if (m_items[i].id == id) {
            m_items.erase(m_items.begin() + long(i));
            m_regexes.erase(m_regexes.begin() + long(i));
            return true;
        }
    }
    return false;
}

bool BreakpointSet::setEnabled(int id, bool enabled)
{
    std::lock_guard lock(m_mutex);
    for (Breakpoint &b : m_items) {
        if (b.id == id) {
            b.enabled = enabled;
            return true;
        }
    }
    return false;
}

void BreakpointSet::clear()
{
    std::lock_guard lock(m_mutex);
    m_items.clear();
    m_regexes.clear();
}

std::vector<Breakpoint> BreakpointSet::all() const
{
    std::lock_guard lock(m_mutex);
    return m_items;
}

bool BreakpointSet::empty() const
{
    std::lock_guard lock(m_mutex);
    return m_items.empty();
}

int BreakpointSet::opBreakpointAt(const ProgramPosition &position) const
{
    std::lock_guard lock(m_mutex);
    for (const Breakpoint &b : m_items)
        if (b.enabled && b.kind == Breakpoint::Kind::Op && b.position == position)
            return b.id;
    return -1;
}

int BreakpointSet::nanInfBreakpoint() const
{
    std::lock_guard lock(m_mutex);
    for (const Breakpoint &b : m_items)
        if (b.enabled && b.kind == Breakpoint::Kind::NanInf)
            return b.id;
    return -1;
}

bool BreakpointSet::hasNameBreakpoints() const
{
    std::lock_guard lock(m_mutex);
    for (const Breakpoint &b : m_items)
        if (b.enabled && b.kind == Breakpoint::Kind::NameRegex)
            return true;
    return false;
}

int BreakpointSet::matchName(std::string_view name) const
{
    std::lock_guard lock(m_mutex);
    for (size_t i = 0; i < m_items.size(); ++i) {
        const Breakpoint &b = m_items[i];
        if (b.enabled && b.kind == Breakpoint::Kind::NameRegex && m_regexes[i]
            && m_regexes[i]->regex.search(name))
            return b.id;
    }
    return -1;
}

} // namespace ps
