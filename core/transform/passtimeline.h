#pragma once

#include "core/analysis/opdiff.h"
#include "core/ir/diagnostic.h"
#include "core/transform/passrecord.h"
#include "core/transform/programsnapshot.h"

#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ps {

struct PassLogIndex;

/// The numeric check of one pass: the program before and after run on the same inputs and
/// parameters (CPU), compared per output and per value that survives (as `pirscope-cli passes
/// --check-numerics` reports it).
struct NumericCheck
{
    /// False when nothing could be compared; `note` says why (a program that does not run).
    bool checked = true;
    bool ok = true; ///< every compared value within tolerance
    double maxAbs = 0;
    double maxRel = 0;
    std::string worstValue; ///< the value with the largest error ("%12", an output name)
    std::string note; ///< e.g. "AMP: fp16 error expected", or why nothing was compared
};

/// One step of a pass pipeline: a pass and the program before and after it. Immutable once
/// recorded, so steps can be shared between threads.
struct PassTimelineStep
{
    enum class Kind {
        Pass, ///< a pass that ran (or, with enabled false, one that is switched off)
        Lowering, ///< pd_op_to_kernel_pass as a log shows it
        Split, ///< split_program (one step per program it makes)
        Printed, ///< a program a log printed without a pass
        Unlogged, ///< the program changed between two logged steps (passes that did not print)
    };
    Kind kind = Kind::Pass;
    std::string pass; ///< Paddle's name ("conv2d_bn_fuse_pass"), or a description
    std::string target; ///< what it ran on: "program", "forward", "builtin.module", a file name
    int depth = 0; ///< > 0: runs inside the step before it (a pass's own sub-programs)
    int line = 0; ///< a log's banner line; 0 otherwise
    bool enabled = true; ///< false: listed in the pipeline but switched off (before == after)
    /// False: a pass of Paddle's pipeline that PIRScope lists but does not implement (not run).
    bool implemented = true;
    /// The program before and after; `before` is null where a log does not show it.
    std::shared_ptr<const ProgramSnapshot> before;
    std::shared_ptr<const ProgramSnapshot> after;
    double seconds = -1; ///< the pass's time; negative when unknown
    long rewrites = -1; ///< what the pass reported; negative when unknown
    std::string statistics; ///< Paddle's `detected [..] subgraphs` text
    std::optional<NumericCheck> numerics;
    /// From a PassManager run (empty for a log's steps), as PassRecord has them: the ops the
    /// pass removed (walk positions in `before`) and added (in `after`), and its notes.
    std::vector<PassOpRef> removedOps;
    std::vector<PassOpRef> addedOps;
    std::vector<std::string> notes;
    /// Ops in both programs that the pass edited in place (attributes, result types or
    /// operands), by their walk position in `after`; computed when the pass reported a change.
    std::vector<PassOpRef> modifiedOps;

    /// What the pass reported: ops removed or added, or rewrites (PassRecord::changed).
    bool changed() const { return !removedOps.empty() || !addedOps.empty() || rewrites > 0; }
    /// Ops (nested ones included) before and after; 0 where the step has no such program.
    size_t opsBefore() const { return before ? before->opCount() : 0; }
    size_t opsAfter() const { return after ? after->opCount() : 0; }
    /// The removed ops as printed in `before` (value ids of `pirscope-cli print` of that
    /// program), one line each; regions are summarised by their first line. O(program).
    std::vector<std::string> removedOpTexts() const;
    /// The added ops as printed in `after`.
    std::vector<std::string> addedOpTexts() const;
    /// The edited ops as printed in `after`.
    std::vector<std::string> modifiedOpTexts() const;
};

/// The diff of one step, with the two programs it points into.
struct StepDiff
{
    std::shared_ptr<const LoadedProgram> before;
    std::shared_ptr<const LoadedProgram> after;
    OpDiff ops;
    /// The programs' reading problems; `error` says why there is no diff (a program missing or
    /// unreadable), empty when `ops` is valid.
    DiagnosticList diagnostics;
    std::string error;
};

/// The steps of one pass pipeline, from a PassManager run (PassTimelineRecorder) or from a
/// Paddle log (fromLog), in order. Steps are fixed once built; diffs are computed on demand,
/// cached for the few steps looked at last, and their counts kept for every step computed.
/// Thread-safe for reading; share it as std::shared_ptr<const PassTimeline>.
class PassTimeline
{
public:
    struct Counts
    {
        size_t kept = 0;
        size_t changed = 0;
        size_t removed = 0;
        size_t added = 0;
        bool identical() const { return changed == 0 && removed == 0 && added == 0; }
    };

    PassTimeline(std::vector<PassTimelineStep> steps, std::string source);

    /// One step per banner-delimited step of the log (PaddlePassLog, PassDumpFolder); the
    /// programs are read only when a diff needs them. Op keys are Paddle's `[id:N]`.
    static std::shared_ptr<PassTimeline> fromLog(std::shared_ptr<const PassLogIndex> index);

    const std::vector<PassTimelineStep> &steps() const { return m_steps; }
    size_t size() const { return m_steps.size(); }
    const PassTimelineStep &step(size_t i) const { return m_steps[i]; }
    /// Where the timeline comes from: a log's path, or "pass manager".
    const std::string &source() const { return m_source; }
    std::shared_ptr<const PassLogIndex> logIndex() const { return m_log; }
    DiagnosticList diagnostics;

    /// The diff of step `i` (reads both programs if needed). Never null.
    std::shared_ptr<const StepDiff> diff(size_t i) const;
    /// Step `i`'s counts once its diff was computed (or when it is known unchanged).
    std::optional<Counts> counts(size_t i) const;
    /// The program after the last top-level step that has one (the pipeline's result), or the
    /// first step's program before; null for an empty timeline.
    std::shared_ptr<const ProgramSnapshot> result() const;
    /// The first step's program before (the pipeline's input), or null.
    std::shared_ptr<const ProgramSnapshot> input() const;

private:
    std::vector<PassTimelineStep> m_steps;
    std::string m_source;
    std::shared_ptr<const PassLogIndex> m_log;
    mutable std::mutex m_mutex;
    mutable std::vector<std::optional<Counts>> m_counts;
    mutable std::list<std::pair<size_t, std::shared_ptr<const StepDiff>>> m_recent; ///< newest first
};

} // namespace ps
