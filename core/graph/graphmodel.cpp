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

std::vector<std::vector<int>> GraphModel::ghostsByConsumer() const
{
    std::vector<std::vector<int>> out(nodes.size());
    for (const GraphNode &node : nodes)
        if (node.ghost && node.attachedTo >= 0)
            out[size_t(node.attachedTo)].push_back(node.id);
    return out;
}

} // namespace ps
