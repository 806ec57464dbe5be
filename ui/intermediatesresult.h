#pragma once

#include "core/ir/diagnostic.h"
#include "core/session/debugtarget.h"
#include "core/session/intermediatescheck.h"
#include "ui/common/nodemarks.h"

#include <QString>
#include <functional>
#include <memory>
#include <vector>

namespace ps {

class Operation;

/// A trace bundle's Paddle intermediates (every value of Paddle's run, export_paddle_trace.py
/// --intermediates) checked against PIRScope's CPU run of the same program
/// (IntermediatesCheck::run): what the comparison dock lists, the graphs colour and "Run to
/// first divergence" runs to. Each compared value is shown on the op of the programs the window
/// shows: its clone in the split forward/backward programs (PipelineResult::wholeToSplit) for a
/// pipeline, else the origin program's op (the forward part has Paddle's op indices). Computed on
/// a worker thread by compute(); immutable afterwards; keeps the target's programs alive.
struct IntermediatesResult
{
    DebugTarget target;
    /// Null when the check could not run (error says why).
    std::shared_ptr<const IntermediatesReport> report;
    QString error;
    IntermediatesCheck::Tolerance tolerance;
    double seconds = 0;
    /// Per report->differences entry: the op shown for it, null when none of the programs shown
    /// has it (a pass removed the clone, a backward op on the Program tab).
    std::vector<const Operation *> shownOp;

    bool ok() const { return report != nullptr; }
    size_t count() const { return report ? report->differences.size() : 0; }
    const IntermediateDifference &differenceAt(size_t i) const { return report->differences[i]; }
    /// "fwd:9", "bwd:3", or "op 9" of Paddle's program when no split op is known.
    QString opLabel(size_t i) const;
    /// The op of the first value beyond tolerance (when shown), else null.
    const Operation *firstDivergentOp() const;
    /// The index in differences of the first divergent value, or -1.
    long firstDivergentIndex() const;
    /// Every shown op with the verdict of its worst value (RunLogResult::accuracyOf of its error
    /// ratio); values Paddle wrote that PIRScope's run did not compute are not listed.
    OpAccuracy opAccuracy() const;
    /// "91 values · 91 compared · 1 divergent — first: fwd:9 pd_op.matmul %30 (max abs 0.5, 4e+03×
    /// tolerance, its own error)", or the error.
    QString summary() const;

    /// Runs the check for `target` (its bundle must have intermediates; the pipeline names the
    /// split ops). Any thread; never throws: the result then says why in `error`.
    /// `canceled` stops PIRScope's run at its next op (Interpreter::Options::canceled).
    static std::shared_ptr<const IntermediatesResult> compute(
        DebugTarget target, std::function<bool()> canceled = {});
    /// Whether `target` has Paddle's intermediates to compare with.
    static bool available(const DebugTarget &target);
};

} // namespace ps
