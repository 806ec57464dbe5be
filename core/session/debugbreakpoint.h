#pragma once

#include "core/runtime/programposition.h"

#include <string>

namespace ps {

class Operation;

/// A breakpoint as the debugger lists it; the session mirrors the enabled ones into each
/// interpreter's BreakpointSet, so they outlive sessions and restarts.
struct DebugBreakpoint
{
    enum class Kind {
        Op, ///< before the op at `position` runs
        NanInf, ///< after the first op producing a NaN or an infinity
        NameRegex, ///< after an op writing a value whose name matches `pattern`
    };

    int id = 0;
    Kind kind = Kind::Op;
    ProgramPosition position;
    const Operation *op = nullptr;
    std::string pattern;
    bool enabled = true;
    /// Times it stopped the run since it was set.
    int hits = 0;

    /// "pd_op.relu at 0:5", "NaN/Inf in any result", "value name ~ /grad/".
    std::string description() const;
};

} // namespace ps
