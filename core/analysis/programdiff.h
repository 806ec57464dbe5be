#pragma once

#include "core/analysis/opdiff.h"

#include <string>
#include <vector>

namespace ps {

class Program;

/// The first structural difference between two programs, located and quoted: programsEqual's
/// description plus the top-level op index where it is and that op as printed in each program
/// (value ids as `pirscope-cli print` gives them).
struct ProgramDifference
{
    bool equal = true;
    std::string message; ///< programsEqual's description; empty when equal
    long opIndex = -1; ///< top-level op of the difference; -1 when it is not at an op (kwargs)
    std::string opTextA; ///< that op printed in A (regions included); empty when A has no such op
    std::string opTextB;
    size_t opsA = 0; ///< top-level op counts
    size_t opsB = 0;
    /// Keywords of the top-block kwargs of each program, when the difference is about kwargs.
    std::vector<std::string> kwargsA;
    std::vector<std::string> kwargsB;

    /// A readable multi-line report ("equal" when equal).
    std::string toString(const std::string &nameA = "A", const std::string &nameB = "B") const;
};

/// Differences between two programs: the first structural one (compare) and all op-level ones
/// (ops).
class ProgramDiff
{
public:
    /// Wraps programsEqual (core/analysis/programequality.h) into a ProgramDifference. Cost of
    /// programsEqual plus printing the two differing ops.
    static ProgramDifference compare(const Program &a, const Program &b);
    /// Every op kept, changed, removed or added between `before` and `after`, with the removed
    /// ops each added op replaces. Ops are paired by OpMatcher (keys when given, one per op in
    /// walk order, else structure). O(ops + operands). The result points into both programs.
    static OpDiff ops(const Program &before, const Program &after, const OpKeys *keysBefore = nullptr,
        const OpKeys *keysAfter = nullptr);
};

} // namespace ps
