#include "core/graph/graphmodel.h"

namespace ps {

std::string_view nodeKindName(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Data:
        return "data";
    case NodeKind::Parameter:
        return "parameter";
    case NodeKind::Compute:
        return "compute";
    case NodeKind::Grad:
        return "grad";
    case NodeKind::Output:
        return "output";
    case NodeKind::ControlFlow:
        return "controlflow";
    case NodeKind::Constant:
        return "constant";
    }
    return "compute";
}

std::string_view nodeKindFillColor(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Data:
        return "#b7e1c1";
    case NodeKind::Parameter:
        return "#f6dc8f";
    case NodeKind::Compute:
        return "#d3e3f8";
    case NodeKind::Grad:
        return "#f5c0bd";
    case NodeKind::Output:
        return "#d5c4ec";
    case NodeKind::ControlFlow:
        return "#ffcc99";
    case NodeKind::Constant:
        return "#e3e3e3";
    }
    return "#d3e3f8";
}

size_t GraphModel::ghostCount() const
{
    size_t n = 0;
    for (const GraphNode &node : nodes)
        n += node.ghost ? 1 : 0;
    return n;
}

size_t GraphModel::opNodeCount() const
{
    size_t n = 0;
    for (const GraphNode &node : nodes)
        n += !node.ghost && node.op ? 1 : 0;
    return n;
}

std::vector<GroupItem> GraphModel::itemsOf(int group) const
{
    std::vector<GroupItem> items;
    const std::vector<int> *nodeIds = group >= 0 ? &groups[size_t(group)].nodes : &topNodes;
    const std::vector<int> *groupIds = group >= 0 ? &groups[size_t(group)].groups : &topGroups;
    std::vector<int> scanned;
    if (group < 0 && topNodes.empty() && groups.empty()) {
        for (const GraphNode &n : nodes)
            if (!n.ghost && n.cluster < 0)
                scanned.push_back(n.id);
        nodeIds = &scanned;
    }
    items.reserve(nodeIds->size() + groupIds->size());
    size_t g = 0;
    for (int n : *nodeIds) {
        for (; g < groupIds->size() && groups[size_t((*groupIds)[g])].firstNode < n; ++g)
            items.push_back({ true, (*groupIds)[g] });
        items.push_back({ false, n });
    }
    for (; g < groupIds->size(); ++g)
        items.push_back({ true, (*groupIds)[g] });
    return items;
}

std::vector<int> GraphModel::groupsNamed(std::string_view name) const
{
    std::vector<int> found;
    for (const LayerGroup &g : groups)
        if (g.path == name)
            return { g.id };
    for (const LayerGroup &g : groups) {
        std::string_view path = g.path;
        if (!path.empty() && path.back() == '/')
            path.remove_suffix(1);
        const size_t slash = path.rfind('/');
        const std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
        if (g.label == name || last == name)
            found.push_back(g.id);
    }
    return found;
}

bool GraphModel::groupWithin(int group, int ancestor) const
{
    if (ancestor < 0)
        return true;
    for (; group >= 0; group = groups[size_t(group)].parent)
        if (group == ancestor)
            return true;
    return false;
}

std::vector<std::vector<int>> GraphModel::ghostsByConsumer() const
{
    std::vector<std::vector<int>> out(nodes.size());
    for (const GraphNode &node : nodes)
        if (node.ghost && node.attachedTo >= 0)
            out[size_t(node.attachedTo)].push_back(node.id);
    return out;
}

} // namespace ps
