#pragma once

#include "core/analysis/opdiff.h"
#include "core/graph/graphbuilder.h"
#include "core/graph/graphmodel.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace ps {

class Operation;
class Program;

/// One picture of what a pass did: a program holding the ops of the program after the pass
/// plus the ops it removed (each where it stood before, reading the same inputs), drawn as one
/// graph, so an op that survives has one place whether the view shows the program before,
/// after or both. Built by DiffGraph::build; immutable; the graph points into `program`.
struct DiffGraph
{
    std::unique_ptr<Program> program;
    GraphModel graph;
    /// Every op of `program` → what the pass did to it.
    std::unordered_map<const Operation *, OpChange> change;
    /// Op of `program` → its index in OpDiff::before (removed, kept, changed) / OpDiff::after.
    std::unordered_map<const Operation *, int32_t> beforeIndex;
    std::unordered_map<const Operation *, int32_t> afterIndex;
    /// Added op → the removed ops it was made from (OpDiff::fusedFrom), as ops of `program`.
    std::unordered_map<const Operation *, std::vector<const Operation *>> fusedFrom;
    /// Removed op → the ops that took its place (OpDiff::replacedBy), as ops of `program`.
    std::unordered_map<const Operation *, std::vector<const Operation *>> replacedBy;
    size_t shownOps = 0; ///< top-level ops drawn
    size_t totalOps = 0; ///< top-level ops of the union
    bool cropped = false; ///< only the changes and their neighbourhood are drawn

    struct Options
    {
        /// Programs with more top-level ops than this are cropped to the changes and the ops
        /// within `contextHops` uses of them; 0 never crops.
        size_t wholeProgramLimit = 400;
        int contextHops = 2;
        GraphBuilderOptions graph;
    };

    /// O(ops + uses) plus the graph model. `diff` must be ProgramDiff::ops(before, after).
    static std::shared_ptr<const DiffGraph> build(
        const Program &before, const Program &after, const OpDiff &diff, const Options &options);
};

} // namespace ps
