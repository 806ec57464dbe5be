#pragma once

#include "core/analysis/opdiff.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ps {

class Program;

/// One line of an op-aligned text diff: an op as printed in its program (first line only;
/// nested ops indented by their depth), or both versions of a changed op.
struct TextDiffLine
{
    OpChange kind = OpChange::Kept;
    int32_t before = -1; ///< index into OpDiff::before, -1 for added ops
    int32_t after = -1; ///< index into OpDiff::after, -1 for removed ops
    std::string textBefore; ///< empty for added ops (kept ops have both texts)
    std::string textAfter; ///< empty for removed ops
};

/// A text diff of two programs aligned by an OpDiff rather than by lines: each op appears
/// once, at its place in the program after (removed ops where they stood before), so value
/// renumbering does not show as a change. One numbering per side, each as `print` gives it:
/// removed ops and the old half of a changed op in the before program's ids, added ops and
/// the new half in the after program's; a kept op in both, `%263→%261` where they differ.
class ProgramTextDiff
{
public:
    /// O(ops) plus printing every op once per side.
    static std::vector<TextDiffLine> build(const Program &before, const Program &after, const OpDiff &diff);
    /// `after` with each value id that differs in `before` written as both, `%263→%261`; the
    /// two must be one op printed in two numberings (else `after` is returned as it is).
    static std::string bothIds(const std::string &before, const std::string &after);
    /// Unified text: "  " kept, "- " removed, "+ " added, a changed op as "~-" then "~+".
    /// `context` >= 0 keeps only that many unchanged lines around each change ("..." between).
    static std::string unified(const std::vector<TextDiffLine> &lines, int context = -1);
};

} // namespace ps
