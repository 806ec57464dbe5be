#pragma once

#include "core/runtime/programrunner.h"
#include "core/session/runlogcomparison.h"
#include "core/session/runlogmatcher.h"

#include <memory>
#include <string>

namespace ps {

class PaddleRunLog;
struct DebugTarget;

/// One check of a Paddle run log against a target (a trace bundle's forward + backward, or a
/// program): the records matched to the target's programs, then compared with PIRScope's CPU run
/// of it (the CPU oracle, fed with `options`), or with a second log of the same program.
struct RunLogCheck
{
    std::unique_ptr<RunLogMatcher> matcher; ///< labels "fwd", "bwd" by segment
    RunLogReport report;
    /// Why PIRScope's run did not finish ("" when it did, or when comparing two logs); the
    /// records after that point count as not computed.
    std::string runProblem;

    /// Against PIRScope's CPU run. False with `error` when the run cannot even be prepared.
    static bool againstRun(const DebugTarget &target, const ProgramRunner::Options &options,
        const PaddleRunLog &log, RunLogComparison::Tolerance tolerance, RunLogCheck &out, std::string &error);
    /// Against `other`, a log of the same programs.
    static RunLogCheck againstLog(const DebugTarget &target, const PaddleRunLog &log,
        const PaddleRunLog &other, RunLogComparison::Tolerance tolerance);
    /// The matcher over `target`'s programs.
    static std::unique_ptr<RunLogMatcher> matcherFor(const DebugTarget &target);
};

} // namespace ps
