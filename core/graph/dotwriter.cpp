#include "core/graph/dotwriter.h"

#include "core/graph/ghostchiplayout.h"
#include "core/graph/groupdotwriter.h"

#include <algorithm>
#include <cstdio>

namespace ps {

namespace {

size_t displayLength(const std::string &s)
{
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80 ? 1 : 0; // count UTF-8 code points
    return n;
}

} // namespace

std::string DotWriter::write(const GraphModel &model, const DotWriterOptions &options)
{
    return GroupDotWriter::writeFlat(model, options);
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
