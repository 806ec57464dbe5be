#include "core/graph/groupdotwriter.h"

#include "core/graph/groupexpansion.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>
#include <unordered_map>

namespace ps {

namespace {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    std::string s = buf;
    while (s.size() > 1 && s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s;
}

std::string itemName(const GroupItem &item)
{
    return (item.isGroup ? "g" : "n") + std::to_string(item.id);
}

} // namespace

/// Where nodes and clusters sit: built once per model, O(nodes).
struct GroupDotWriter::Index
{
    std::vector<std::vector<int>> nodesOfCluster; ///< index cluster + 1 (0: outside regions)
    std::vector<std::vector<int>> childClusters; ///< index cluster + 1
    std::vector<std::vector<int>> ghosts; ///< attached ghosts per consumer (attachGhosts only)
    std::unordered_map<int, std::vector<int>> regionsOf; ///< node → its op's top-level clusters

    Index(const GraphModel &model, bool attachGhosts)
        : nodesOfCluster(model.clusters.size() + 1)
        , childClusters(model.clusters.size() + 1)
    {
        if (attachGhosts)
            ghosts = model.ghostsByConsumer();
        for (const GraphNode &n : model.nodes)
            if (!(n.ghost && attachGhosts))
                nodesOfCluster[size_t(n.cluster + 1)].push_back(n.id);
        for (const GraphCluster &c : model.clusters) {
            childClusters[size_t(c.parent + 1)].push_back(c.id);
            if (c.parent < 0)
                regionsOf[model.nodeOf(c.op)].push_back(c.id);
        }
    }
};

namespace {

/// Writes DOT statements: the header, nodes with their chips, regions as clusters. Shared by
/// the flat and the per-group graphs so that both draw nodes the same way.
class Emitter
{
public:
    Emitter(const GraphModel &model, const DotWriterOptions &options, const std::vector<NodeSize> &sizes,
        const GroupDotWriter::Index &index)
        : m_model(model)
        , m_options(options)
        , m_sizes(sizes)
        , m_nodesOfCluster(index.nodesOfCluster)
        , m_childClusters(index.childClusters)
        , m_ghosts(index.ghosts)
        , m_regionsOf(index.regionsOf)
    {
    }

    std::string &out() { return m_out; }

    void header(bool compound)
    {
        const DotWriterOptions &o = m_options;
        m_out += "digraph pir {\n";
        m_out += "  graph [rankdir=" + o.rankdir + ", splines=" + o.splines;
        if (o.nslimit > 0)
            m_out += ", nslimit=" + num(o.nslimit);
        if (o.nslimit1 > 0)
            m_out += ", nslimit1=" + num(o.nslimit1);
        if (compound)
            m_out += ", compound=true";
        m_out += ", nodesep=0.25, ranksep=0.35, fontname=\"" + DotWriter::escape(o.fontName)
            + "\", fontsize=" + num(o.fontSize) + "];\n";
        m_out += "  node [shape=box, style=\"rounded,filled\", fixedsize=true, fontname=\""
            + DotWriter::escape(o.fontName) + "\", fontsize=" + num(o.fontSize) + "];\n";
        m_out += "  edge [arrowsize=0.6, fontname=\"" + DotWriter::escape(o.fontName)
            + "\", fontsize=" + num(o.fontSize * 0.8) + "];\n";
    }

    /// Nodes of `cluster` (-1: those outside every region) and, nested, its child clusters.
    void cluster(int cluster, const std::string &indent, std::vector<int> *written = nullptr)
    {
        if (cluster >= 0) {
            const GraphCluster &c = m_model.clusters[size_t(cluster)];
            const std::string id = std::to_string(c.id);
            m_out += indent + "subgraph cluster_" + id + " {\n";
            m_out += indent + "  label=\"" + DotWriter::escape(c.label) + "\"; style=\"rounded,dashed\";\n";
            m_out += indent + "  a" + id
                + " [shape=point, style=invis, width=0.01, height=0.01, label=\"\"];\n";
            if (written)
                written->push_back(cluster);
        }
        const std::string inner = cluster >= 0 ? indent + "  " : indent;
        for (int n : m_nodesOfCluster[size_t(cluster + 1)])
            node(m_model.nodes[size_t(n)], inner);
        for (int child : m_childClusters[size_t(cluster + 1)])
            this->cluster(child, inner, written);
        if (cluster >= 0)
            m_out += indent + "}\n";
    }

    /// A top-level cluster and everything inside it.
    void regionsOf(const GraphNode &owner, const std::string &indent, std::vector<int> &written)
    {
        auto it = m_regionsOf.find(owner.id);
        if (it != m_regionsOf.end())
            for (int c : it->second)
                cluster(c, indent, &written);
    }

    bool hasRegions(int node) const { return m_regionsOf.count(node) > 0; }

    void node(const GraphNode &n, const std::string &indent)
    {
        const NodeSize size = m_sizes[size_t(n.id)];
        std::string label;
        if (m_options.nodeLabels)
            for (size_t i = 0; i < n.lines.size(); ++i)
                label += (i ? "\\n" : "") + DotWriter::escape(n.lines[i]);
        std::string chips; // the attached ghosts, for renderers of this DOT (a label would not fit)
        if (!m_ghosts.empty() && m_options.nodeLabels)
            for (int g : m_ghosts[size_t(n.id)])
                if (!m_model.nodes[size_t(g)].lines.empty())
                    chips += (chips.empty() ? "inputs: " : ", ")
                        + DotWriter::escape(m_model.nodes[size_t(g)].lines[0]);
        m_out += indent + "n" + std::to_string(n.id) + " [label=\"" + label
            + "\", width=" + num(size.width / 72) + ", height=" + num(size.height / 72) + ", fillcolor=\""
            + std::string(nodeKindFillColor(n.kind)) + "\"";
        if (!chips.empty())
            m_out += ", labelloc=t, tooltip=\"" + chips + "\"";
        if (n.ghost)
            m_out += ", style=\"rounded,filled,dashed\", fontsize=" + num(m_options.fontSize * 0.8);
        m_out += "];\n";
    }

    void edgeAttributes(const GraphEdge &e)
    {
        if (!e.label.empty())
            m_out += std::string(m_options.edgeLabels ? ", label=\"" : ", tooltip=\"")
                + DotWriter::escape(e.label) + "\"";
    }

    void anchorEdges(const std::vector<int> &clusters)
    {
        for (int id : clusters) {
            const int owner = m_model.nodeOf(m_model.clusters[size_t(id)].op);
            if (owner >= 0)
                m_out += "  n" + std::to_string(owner) + " -> a" + std::to_string(id) + " [lhead=cluster_"
                    + std::to_string(id) + ", style=dashed, arrowhead=none];\n";
        }
    }

private:
    const GraphModel &m_model;
    const DotWriterOptions &m_options;
    const std::vector<NodeSize> &m_sizes;
    const std::vector<std::vector<int>> &m_nodesOfCluster;
    const std::vector<std::vector<int>> &m_childClusters;
    const std::vector<std::vector<int>> &m_ghosts;
    const std::unordered_map<int, std::vector<int>> &m_regionsOf;
    std::string m_out;
};

} // namespace

GroupDotWriter::GroupDotWriter(const GraphModel &model)
    : m_model(model)
    , m_index(std::make_unique<Index>(model, true))
    , m_edgesOfGroup(model.groups.size() + 1)
{
    std::vector<int> chain;
    for (const GraphEdge &e : model.edges) {
        const GraphNode &from = model.nodes[size_t(e.from)];
        if (from.ghost)
            continue; // a chip inside its consumer
        chain.clear();
        for (int g = from.group; g >= 0; g = model.groups[size_t(g)].parent)
            chain.push_back(g);
        chain.push_back(-1);
        int lca = model.nodes[size_t(e.to)].group;
        std::vector<int> downTo; // groups below the common ancestor on the consumer's side
        while (std::find(chain.begin(), chain.end(), lca) == chain.end()) {
            downTo.push_back(lca);
            lca = model.groups[size_t(lca)].parent;
        }
        for (int g : chain) {
            m_edgesOfGroup[size_t(g + 1)].push_back(e.id);
            if (g == lca)
                break;
        }
        for (int g : downTo)
            m_edgesOfGroup[size_t(g + 1)].push_back(e.id);
    }
}

GroupItem GroupDotWriter::localItem(int node, int group) const
{
    const GraphNode &n = m_model.nodes[size_t(node)];
    const int id = n.ghost && n.attachedTo >= 0 ? n.attachedTo : node;
    int g = m_model.nodes[size_t(id)].group;
    if (g == group)
        return { false, id };
    while (g >= 0) {
        const int parent = m_model.groups[size_t(g)].parent;
        if (parent == group)
            return { true, g };
        g = parent;
    }
    return { true, -2 };
}

GroupDotWriter::Graph GroupDotWriter::write(int group, const std::vector<NodeSize> &nodeSizes,
    const std::vector<NodeSize> &groupSizes, const GroupExpansion &expansion,
    const DotWriterOptions &options) const
{
    Graph graph;
    graph.items = m_model.itemsOf(group);

    // Edges first: the ports they need are written before the items.
    using Key = std::tuple<int, int, int, int, const void *>;
    std::set<Key> seen;
    auto kindOf = [](const GroupItem &i, int port) { return port >= 0 ? 2 : i.isGroup ? 1 : 0; };
    auto portOf = [](std::vector<Value> &ports, Value v) {
        for (size_t i = 0; i < ports.size(); ++i)
            if (ports[i] == v)
                return int(i);
        ports.push_back(v);
        return int(ports.size() - 1);
    };
    for (int id : m_edgesOfGroup[size_t(group + 1)]) {
        const GraphEdge &e = m_model.edges[size_t(id)];
        Edge edge;
        edge.from = localItem(e.from, group);
        edge.to = localItem(e.to, group);
        edge.value = e.value;
        edge.modelEdge = e.id;
        const bool fromOutside = edge.from.id == -2;
        const bool toOutside = edge.to.id == -2;
        if ((fromOutside && toOutside) || edge.from == edge.to)
            continue;
        if (fromOutside)
            edge.fromPort = portOf(graph.entries, e.value);
        if (toOutside)
            edge.toPort = portOf(graph.exits, e.value);
        const Key key { kindOf(edge.from, edge.fromPort), edge.fromPort >= 0 ? edge.fromPort : edge.from.id,
            kindOf(edge.to, edge.toPort), edge.toPort >= 0 ? edge.toPort : edge.to.id, e.value.impl() };
        if (seen.insert(key).second)
            graph.edges.push_back(edge);
    }

    Emitter em(m_model, options, nodeSizes, *m_index);
    bool regions = false;
    for (const GroupItem &item : graph.items)
        regions = regions || (!item.isGroup && em.hasRegions(item.id));
    em.header(regions);
    std::string &out = em.out();
    auto ports = [&out](const char *prefix, const char *rank, size_t count) {
        if (count == 0)
            return;
        out += std::string("  { rank=") + rank + ";";
        for (size_t i = 0; i < count; ++i)
            out += std::string(" ") + prefix + std::to_string(i)
                + " [shape=point, style=invis, width=0.01, height=0.01, label=\"\"];";
        out += " }\n";
    };
    ports("pi", "source", graph.entries.size());
    for (const GroupItem &item : graph.items) {
        if (item.isGroup) {
            const LayerGroup &g = m_model.groups[size_t(item.id)];
            const NodeSize size = groupSizes[size_t(item.id)];
            const bool labelled = options.nodeLabels && !expansion.isExpanded(item.id);
            out += "  g" + std::to_string(item.id) + " [label=\""
                + (labelled ? DotWriter::escape(g.label) + "\\n" + std::to_string(g.ops) + " ops"
                            : std::string())
                + "\", width=" + num(size.width / 72) + ", height=" + num(size.height / 72) + "];\n";
            continue;
        }
        em.node(m_model.nodes[size_t(item.id)], "  ");
        em.regionsOf(m_model.nodes[size_t(item.id)], "  ", graph.clusters);
    }
    ports("po", "sink", graph.exits.size());
    for (size_t k = 0; k < graph.edges.size(); ++k) {
        const Edge &e = graph.edges[k];
        out += "  " + (e.fromPort >= 0 ? "pi" + std::to_string(e.fromPort) : itemName(e.from)) + " -> "
            + (e.toPort >= 0 ? "po" + std::to_string(e.toPort) : itemName(e.to)) + " [id=e"
            + std::to_string(k);
        if (e.toPort >= 0 || (e.to.isGroup && expansion.isExpanded(e.to.id)))
            out += ", arrowhead=none"; // the edge goes on inside
        em.edgeAttributes(m_model.edges[size_t(e.modelEdge)]);
        out += "];\n";
    }
    em.anchorEdges(graph.clusters);
    out += "}\n";
    graph.dot = std::move(out);
    return graph;
}

std::string GroupDotWriter::writeFlat(const GraphModel &model, const DotWriterOptions &options)
{
    const std::vector<NodeSize> sizes = DotWriter::boxSizes(model, options);
    const Index index(model, options.attachGhosts);
    Emitter em(model, options, sizes, index);
    em.out().reserve(model.nodes.size() * 120 + model.edges.size() * 60);
    em.header(!model.clusters.empty());
    em.cluster(-1, "  ");
    std::string &out = em.out();
    for (const GraphEdge &e : model.edges) {
        const bool ghost = model.nodes[size_t(e.from)].ghost;
        if (options.attachGhosts && ghost)
            continue;
        out += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to) + " [id=e"
            + std::to_string(e.id);
        em.edgeAttributes(e);
        if (ghost)
            out += ", style=dashed";
        out += "];\n";
    }
    std::vector<int> all;
    for (const GraphCluster &c : model.clusters)
        all.push_back(c.id);
    em.anchorEdges(all);
    out += "}\n";
    return std::move(out);
}

GroupDotWriter::~GroupDotWriter() = default;

} // namespace ps
