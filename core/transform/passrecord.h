#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// An op a pass removed or added, by position: its index in the pre-order walk (Block::walk) of
/// the program before the pass (removed ops) or after it (added ops), and its name.
struct PassOpRef
{
    size_t index = 0;
    std::string_view name; ///< interned by Operation: valid for the process's lifetime

    bool operator==(const PassOpRef &) const = default;
};

/// What one pass did to one program: counts, time and which ops went and came. It holds no
/// program text; an instrumentation that wants text or program copies keeps them
/// (PassTimelineRecorder, PassIrPrinter).
struct PassRecord
{
    std::string pass; ///< Paddle's pass name
    std::string target; ///< which program: "forward", "backward", "program", ...
    /// False for a pass PIRScope knows by name but does not implement (UnimplementedPass): it
    /// was listed in the pipeline and not run.
    bool implemented = true;
    size_t rewrites = 0; ///< what the pass reported
    size_t opsBefore = 0; ///< ops, nested ones included
    size_t opsAfter = 0;
    double seconds = 0; ///< wall time of Pass::run alone (no instrumentation, no diff)
    std::vector<PassOpRef> removedOps; ///< ops that disappeared (by identity), walk order
    std::vector<PassOpRef> addedOps; ///< ops that appeared, walk order
    /// The pass's own remarks on this run (Pass::takeNotes): what it left undone and why.
    std::vector<std::string> notes;

    bool changed() const { return !removedOps.empty() || !addedOps.empty() || rewrites != 0; }
};

} // namespace ps
