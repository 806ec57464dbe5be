#include "core/graph/dotwriter.h"

#include "core/graph/ghostchiplayout.h"

#include <algorithm>
#include <cstdio>

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

size_t displayLength(const std::string &s)
{
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80 ? 1 : 0; // count UTF-8 code points
    return n;
}

class Writer
{
public:
    Writer(const GraphModel &model, const DotWriterOptions &options)
        : m_model(model)
        , m_options(options)
        , m_nodesOfCluster(model.clusters.size() + 1)
        , m_childClusters(model.clusters.size() + 1)
        , m_sizes(DotWriter::boxSizes(model, options))
    {
        if (options.attachGhosts)
            m_ghosts = model.ghostsByConsumer();
        for (const GraphNode &n : model.nodes)
            if (!(n.ghost && options.attachGhosts))
                m_nodesOfCluster[n.cluster + 1].push_back(n.id);
        for (const GraphCluster &c : model.clusters)
            m_childClusters[c.parent + 1].push_back(c.id);
    }

    std::string run()
    {
        const DotWriterOptions &o = m_options;
        m_out.reserve(m_model.nodes.size() * 120 + m_model.edges.size() * 60);
        m_out += "digraph pir {\n";
        m_out += "  graph [rankdir=" + o.rankdir + ", splines=" + o.splines;
        if (o.nslimit > 0)
            m_out += ", nslimit=" + num(o.nslimit);
        if (o.nslimit1 > 0)
            m_out += ", nslimit1=" + num(o.nslimit1);
        if (!m_model.clusters.empty())
            m_out += ", compound=true";
        m_out += ", nodesep=0.25, ranksep=0.35, fontname=\"" + DotWriter::escape(o.fontName)
            + "\", fontsize=" + num(o.fontSize) + "];\n";
        m_out += "  node [shape=box, style=\"rounded,filled\", fixedsize=true, fontname=\""
            + DotWriter::escape(o.fontName) + "\", fontsize=" + num(o.fontSize) + "];\n";
        m_out += "  edge [arrowsize=0.6, fontname=\"" + DotWriter::escape(o.fontName)
            + "\", fontsize=" + num(o.fontSize * 0.8) + "];\n";
        writeCluster(-1, "  ");
        for (const GraphEdge &e : m_model.edges)
            if (!(m_options.attachGhosts && m_model.nodes[e.from].ghost))
                writeEdge(e);
        for (const GraphCluster &c : m_model.clusters) {
            int owner = m_model.nodeOf(c.op);
            if (owner >= 0)
                m_out += "  n" + std::to_string(owner) + " -> a" + std::to_string(c.id) + " [lhead=cluster_"
                    + std::to_string(c.id) + ", style=dashed, arrowhead=none];\n";
        }
        m_out += "}\n";
        return std::move(m_out);
    }

private:
    void writeCluster(int cluster, const std::string &indent)
    {
        if (cluster >= 0) {
            const GraphCluster &c = m_model.clusters[cluster];
            std::string id = std::to_string(c.id);
            m_out += indent + "subgraph cluster_" + id + " {\n";
            m_out += indent + "  label=\"" + DotWriter::escape(c.label) + "\"; style=\"rounded,dashed\";\n";
            m_out += indent + "  a" + id
                + " [shape=point, style=invis, width=0.01, height=0.01, label=\"\"];\n";
        }
        std::string inner = cluster >= 0 ? indent + "  " : indent;
        for (int n : m_nodesOfCluster[cluster + 1])
            writeNode(m_model.nodes[n], inner);
        for (int child : m_childClusters[cluster + 1])
            writeCluster(child, inner);
        if (cluster >= 0)
            m_out += indent + "}\n";
    }

    void writeNode(const GraphNode &n, const std::string &indent)
    {
        const NodeSize size = m_sizes[size_t(n.id)];
        std::string label;
        for (size_t i = 0; i < n.lines.size(); ++i)
            label += (i ? "\\n" : "") + DotWriter::escape(n.lines[i]);
        std::string chips; // the attached ghosts, for renderers of this DOT (a label would not fit)
        if (!m_ghosts.empty())
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

    void writeEdge(const GraphEdge &e)
    {
        m_out += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to) + " [id=e"
            + std::to_string(e.id);
        if (!e.label.empty())
            m_out += std::string(m_options.edgeLabels ? ", label=\"" : ", tooltip=\"")
                + DotWriter::escape(e.label) + "\"";
        if (m_model.nodes[e.from].ghost)
            m_out += ", style=dashed";
        m_out += "];\n";
    }

    const GraphModel &m_model;
    const DotWriterOptions &m_options;
    std::vector<std::vector<int>> m_nodesOfCluster; ///< index cluster + 1 (0: top level)
    std::vector<std::vector<int>> m_childClusters;
    std::vector<NodeSize> m_sizes;
    std::vector<std::vector<int>> m_ghosts; ///< attached ghosts per consumer (attachGhosts only)
    std::string m_out;
};

} // namespace

std::string DotWriter::write(const GraphModel &model, const DotWriterOptions &options)
{
    return Writer(model, options).run();
}

std::string DotWriter::escape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

std::vector<NodeSize> DotWriter::boxSizes(const GraphModel &model, const DotWriterOptions &options)
{
    std::vector<NodeSize> sizes(model.nodes.size());
    for (const GraphNode &n : model.nodes) {
        NodeSize s;
        if (size_t(n.id) < options.nodeSizes.size())
            s = options.nodeSizes[size_t(n.id)];
        if (s.width <= 0 || s.height <= 0)
            s = estimateSize(n, options.fontSize);
        sizes[size_t(n.id)] = s;
    }
    if (!options.attachGhosts)
        return sizes;
    const std::vector<std::vector<int>> ghosts = model.ghostsByConsumer();
    for (size_t id = 0; id < ghosts.size(); ++id) {
        if (ghosts[id].empty())
            continue;
        std::vector<NodeSize> chips;
        for (int g : ghosts[id])
            chips.push_back(sizes[size_t(g)]);
        sizes[id] = GhostChipLayout::compute(sizes[id], chips).box;
    }
    return sizes;
}

NodeSize DotWriter::estimateSize(const GraphNode &node, double fontSize)
{
    double scale = node.ghost ? 0.8 : 1.0;
    size_t chars = 0;
    for (const std::string &line : node.lines)
        chars = std::max(chars, displayLength(line));
    double lines = double(std::max<size_t>(1, node.lines.size()));
    NodeSize s;
    s.width = std::max(36.0, double(chars) * fontSize * scale * 0.6 + 16);
    s.height = lines * fontSize * scale * 1.25 + 10;
    return s;
}

} // namespace ps
