#include "core/graph/groupexpansion.h"

#include <deque>
#include <unordered_set>

namespace ps {

GroupExpansion::GroupExpansion(const GraphModel &model)
    : m_expanded(model.groups.size(), 0)
{
}

GroupExpansion GroupExpansion::all(const GraphModel &model)
{
    GroupExpansion e(model);
    std::fill(e.m_expanded.begin(), e.m_expanded.end(), 1);
    return e;
}

GroupExpansion GroupExpansion::defaults(const GraphModel &model, size_t budget)
{
    GroupExpansion e(model);
    size_t visible = model.itemsOf(-1).size();
    std::deque<int> queue(model.topGroups.begin(), model.topGroups.end());
    while (!queue.empty()) {
        const int g = queue.front();
        queue.pop_front();
        const LayerGroup &group = model.groups[size_t(g)];
        if (group.kind == LayerGroupKind::Unused)
            continue;
        const size_t items = group.nodes.size() + group.groups.size();
        if (visible + items > budget + 1) // the group's box gives way to its items
            continue;
        visible = visible + items - 1;
        e.m_expanded[size_t(g)] = 1;
        queue.insert(queue.end(), group.groups.begin(), group.groups.end());
    }
    return e;
}

GroupExpansion GroupExpansion::fromPaths(const GraphModel &model, const std::vector<std::string> &paths)
{
    GroupExpansion e(model);
    const std::unordered_set<std::string> wanted(paths.begin(), paths.end());
    for (const LayerGroup &g : model.groups)
        e.m_expanded[size_t(g.id)] = wanted.count(g.path) ? 1 : 0;
    return e;
}

void GroupExpansion::setExpanded(int group, bool expanded)
{
    if (group < 0)
        return;
    if (size_t(group) >= m_expanded.size())
        m_expanded.resize(size_t(group) + 1, 0);
    m_expanded[size_t(group)] = expanded ? 1 : 0;
}

void GroupExpansion::setSubtreeExpanded(const GraphModel &model, int group, bool expanded)
{
    std::vector<int> stack;
    if (group >= 0)
        stack.push_back(group);
    else
        stack.assign(model.topGroups.begin(), model.topGroups.end());
    while (!stack.empty()) {
        const int g = stack.back();
        stack.pop_back();
        setExpanded(g, expanded);
        const std::vector<int> &children = model.groups[size_t(g)].groups;
        stack.insert(stack.end(), children.begin(), children.end());
    }
}

void GroupExpansion::reveal(const GraphModel &model, int node)
{
    if (node < 0 || size_t(node) >= model.nodes.size())
        return;
    for (int g = model.nodes[size_t(node)].group; g >= 0; g = model.groups[size_t(g)].parent)
        setExpanded(g, true);
}

bool GroupExpansion::isShown(const GraphModel &model, int group) const
{
    if (group < 0)
        return true;
    for (int g = model.groups[size_t(group)].parent; g >= 0; g = model.groups[size_t(g)].parent)
        if (!isExpanded(g))
            return false;
    return true;
}

GroupItem GroupExpansion::visibleItem(const GraphModel &model, int node) const
{
    const GraphNode &n = model.nodes[size_t(node)];
    GroupItem item { false, n.ghost && n.attachedTo >= 0 ? n.attachedTo : node };
    for (int g = n.group; g >= 0; g = model.groups[size_t(g)].parent)
        if (!isExpanded(g))
            item = { true, g }; // keep climbing: the outermost collapsed group wins
    return item;
}

size_t GroupExpansion::visibleItemCount(const GraphModel &model) const
{
    size_t count = model.itemsOf(-1).size();
    for (const LayerGroup &g : model.groups)
        if (isExpanded(g.id) && isShown(model, g.id))
            count += g.nodes.size() + g.groups.size() - 1; // its items instead of its box
    return count;
}

std::vector<std::string> GroupExpansion::expandedPaths(const GraphModel &model) const
{
    std::vector<std::string> paths;
    for (const LayerGroup &g : model.groups)
        if (isExpanded(g.id))
            paths.push_back(g.path);
    return paths;
}

} // namespace ps
