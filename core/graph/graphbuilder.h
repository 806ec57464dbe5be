#pragma once

#include "core/graph/graphmodel.h"
#include "core/graph/layergrouper.h"

#include <cstddef>

namespace ps {

class Block;
class Operation;
class Program;

/// How GraphBuilder turns values into edges.
struct GraphBuilderOptions
{
    /// A value with more than this many uses is drawn as one ghost per use; 0 disables.
    unsigned ghostUseThreshold = 4;
    /// Results of parameter / constant / data ops (and block arguments) are drawn as ghosts.
    bool ghostSourceValues = true;
    /// An edge that would span more than this many ranks (estimated before layout) is drawn
    /// as a ghost at its consumer instead; 0 disables. Long edges become chains of virtual
    /// nodes in `dot`, which dominate its positioning time.
    unsigned ghostRankSpan = 8;
    /// Label lines longer than this are cut with "…".
    size_t maxLabelLength = 40;
    /// Layer groups (LayerGrouper); `grouping.maxItems = 0` and `grouping.layers = false` with
    /// `grouping.unusedGroup = false` give a flat graph.
    LayerGrouperOptions grouping;
};

/// Turns a Program or one Block (nested regions included) into a GraphModel: one node per op,
/// one edge per use, one cluster per region. Values shared by many ops become per-use ghost
/// nodes, because long edges from high fan-out values are what makes `dot` stall.
/// O(ops + uses). Reads the IR only.
class GraphBuilder
{
public:
    explicit GraphBuilder(GraphBuilderOptions options = {})
        : m_options(options)
    {
    }

    GraphModel build(const Program &program) const;
    /// The block must belong to a Program (value ids are numbered over the whole program).
    GraphModel build(const Block &block) const;

    static NodeKind kindOf(const Operation &op);
    /// "?x30xf32" (a dynamic dim is "?"); "vec[2]" for vectors; the type text for anything else.
    static std::string shapeText(Type type);

private:
    GraphBuilderOptions m_options;
};

} // namespace ps
