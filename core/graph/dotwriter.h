#pragma once

#include "core/graph/graphmodel.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// Options of DotWriter. The defaults are what the GUI lays out.
struct DotWriterOptions
{
    using NodeSize = ps::NodeSize;

    /// DOT `splines`: "spline", "polyline", "line", "ortho" (slow on big graphs), "none".
    std::string splines = "spline";
    std::string rankdir = "TB";
    /// Network-simplex iteration caps (× node count); <= 0 leaves them unset, which lets the
    /// x-positioning phase run for minutes on graphs with long edges.
    double nslimit = 2;
    double nslimit1 = 2;
    /// Box size (points) per node id, written with fixedsize=true; empty (or a zero entry)
    /// estimates the size from the label length. For a node with attached ghosts this is the
    /// size of its own label; the writer adds the chip rows (GhostChipLayout).
    std::vector<NodeSize> nodeSizes;
    /// Ghosts become chips inside their consumer's box instead of DOT nodes of their own
    /// (see GhostChipLayout); ghost edges are then not written either.
    bool attachGhosts = true;
    /// Write edge labels as `label` (dot then reserves room for them, which costs layout time).
    /// Off: the label goes to `tooltip` only and the viewer draws it itself.
    bool edgeLabels = false;
    /// Write node and group labels. With fixed sizes they do not change the layout, and
    /// Graphviz measures every label's text: the view's layouts leave them out.
    bool nodeLabels = true;
    std::string fontName = "Helvetica";
    double fontSize = 10;
};

/// Writes a GraphModel as DOT text: nodes "n<id>", edges with id "e<id>", regions as
/// "cluster_<id>" subgraphs each holding an invisible anchor node "a<id>". The output is
/// deterministic (same model and options → same bytes), so it can key a layout cache.
class DotWriter
{
public:
    static std::string write(const GraphModel &model, const DotWriterOptions &options = {});
    /// Escapes a label line for a DOT quoted string (`"` and `\`; control characters → space).
    static std::string escape(std::string_view text);
    /// Size the writer assumes for a node when the caller gives none.
    static NodeSize estimateSize(const GraphNode &node, double fontSize);
    /// The DOT box of every node: its own size, grown by its attached ghost chips when
    /// `options.attachGhosts`. Ghost entries keep their own (chip) size.
    static std::vector<NodeSize> boxSizes(const GraphModel &model, const DotWriterOptions &options);
};

} // namespace ps
