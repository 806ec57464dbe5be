#pragma once

#include "core/ir/diagnostic.h"
#include "core/session/debugtarget.h"
#include "core/session/runlogcheck.h"
#include "ui/common/nodemarks.h"

#include <QString>
#include <functional>
#include <memory>
#include <vector>

namespace ps {

class Operation;
class PaddleRunLog;
struct RunLogDifference;

/// A Paddle run log checked against the programs the window shows (RunLogCheck::againstRun with
/// the target's own inputs and parameters, DebugSources::defaultsFor): what the "Paddle run log"
/// dock lists, the graphs colour and "Run to first divergence" runs to. Computed on a worker
/// thread by compute(); immutable afterwards. It keeps the target's programs alive, so its op
/// pointers stay valid after the window moves on to other programs.
struct RunLogResult
{
    QString path;
    DebugTarget target;
    std::shared_ptr<const PaddleRunLog> log; ///< null when it could not be read
    std::shared_ptr<const RunLogCheck> check; ///< null when the log or the run failed (error)
    /// Why there is no check: an unreadable log, a log without records, a run that cannot be
    /// prepared. Empty when check is set.
    QString error;
    /// The problems of opening the log and its unreadable record lines.
    DiagnosticList diagnostics;
    RunLogComparison::Tolerance tolerance;
    double seconds = 0;
    /// Per record: the index of its difference in check->report.differences, -1 when not compared.
    std::vector<int> differenceOf;

    bool ok() const { return check != nullptr; }
    size_t recordCount() const;
    /// The record's comparison, or null when it was not compared (unmatched, not computed).
    const RunLogDifference *differenceAt(size_t record) const;
    /// The op the record matched, or null.
    const Operation *opOf(size_t record) const;
    /// "fwd:9" and "%30" of the record's match; empty when unmatched.
    QString opLabel(size_t record) const;
    QString valueLabel(size_t record) const;
    /// The op of the first record beyond tolerance, or null.
    const Operation *firstDivergentOp() const;
    /// The verdict of an error ratio (|difference| / tolerance): below 0.1 agrees, up to 1 close,
    /// beyond divergent.
    static NodeMarks::Accuracy accuracyOf(double error);
    /// Every matched op with the verdict of its worst record; ops whose records PIRScope did not
    /// compute are NotCompared.
    OpAccuracy opAccuracy() const;
    /// "24 records · 22 matched · 22 compared · 1 divergent — first: line 6 matmul → fwd:9 ...",
    /// or the error.
    QString summary() const;

    /// The float64 referee on record `record` (RunLogReferee: its op recomputed in double on
    /// PIRScope's operands): "referee (float64) on line 6 fwd:9 pd_op.matmul: mean -0.44; Paddle is
    /// 7.6e+03x tolerance from it, PIRScope 3e-06x: PIRScope is closer", or why it cannot judge.
    /// Reruns the target up to the op: call it off the GUI thread.
    QString referee(size_t record) const;
    /// The record the referee judges by default: the first divergent one, or -1.
    long firstDivergentRecord() const;

    /// Reads the log at `path` and checks it against `target` (the window's programs). Any
    /// thread; never throws for a bad log: the result then says why in `error`.
    /// `canceled` stops PIRScope's run at its next op (Interpreter::Options::canceled).
    static std::shared_ptr<const RunLogResult> compute(
        const QString &path, DebugTarget target, std::function<bool()> canceled = {});
};

} // namespace ps
