#pragma once

#include "core/transform/passinstrumentation.h"
#include "core/transform/passtimeline.h"
#include "core/transform/passtimelinecheck.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ps {

class Pass;
class PassManager;
class Program;

struct PassTimelineOptions
{
    std::string target = "program"; ///< what the passes run on, shown per step
    /// Checks each pass that runs (PassTimelineNumerics); null: no numeric check. Not shared by
    /// two runs at once.
    std::shared_ptr<PassTimelineCheck> check;
};

/// Builds a PassTimeline while passes run on a program in place: a copy of the program after
/// each pass that changed it (an unchanged program is shared with the step before, so a
/// pipeline of 40 passes of which 5 match keeps 6 copies), and stable op keys: every op of the
/// live program gets a key the first time it is seen, so an op a pass kept has the same key
/// before and after it and the diff needs no guessing. Each step also keeps what the pass
/// reported (PassRecord: removed and added ops, notes) and the ops it edited in place. Costs
/// one program copy per changing pass plus a walk per pass.
///
/// Added to a PassManager as an instrumentation, it records every run(): each run starts from a
/// copy of the program it is given, with the run's target, and the steps of all runs add up.
class PassTimelineRecorder : public PassInstrumentation
{
public:
    explicit PassTimelineRecorder(std::string target = "program");

    void runBeforePipeline(const Program &program, std::string_view target) override;
    void runAfterPass(const Pass &pass, const Program &program, const PassRecord &record) override;

    /// Starts with `program`, the program the passes will change in place (the steps recorded
    /// so far stay).
    void begin(const Program &program);
    /// Starts from an earlier snapshot whose keys carry over; returns the live copy to run the
    /// next passes on (owned by the recorder).
    Program &beginFrom(std::shared_ptr<const ProgramSnapshot> snapshot);
    /// Records the pass `record` describes, run on the program given to begin() (or returned by
    /// beginFrom()).
    void passRan(const PassRecord &record, const Program &program,
        std::optional<NumericCheck> numerics = std::nullopt);
    /// A step with what `record` says and no programs (a pass log that keeps no copies).
    static PassTimelineStep stepOf(const PassRecord &record);
    /// Records a pass that is listed but switched off: before and after are the same.
    void passSkipped(std::string_view pass);
    /// The program as of the latest step.
    std::shared_ptr<const ProgramSnapshot> current() const { return m_current; }
    std::vector<PassTimelineStep> takeSteps() { return std::exchange(m_steps, {}); }

    /// Runs the passes of `pm` in order on a copy of `input`: enabled passes run and are timed,
    /// disabled ones are listed as switched off.
    static std::shared_ptr<PassTimeline> run(
        PassManager &pm, const Program &input, const PassTimelineOptions &options = {});
    /// Like run(), but steps before `fromStep` are taken from `previous` (built by run() over
    /// the same pass list, with the same passes switched on up to there) and the passes from
    /// `fromStep` on run from that step's program before: what toggling a pass recomputes.
    static std::shared_ptr<PassTimeline> rerun(PassManager &pm, const PassTimeline &previous, size_t fromStep,
        const PassTimelineOptions &options = {});

private:
    OpKeys keysOf(const Program &program);
    bool unchangedSince(const Program &program) const;
    /// The ops of `program` that are ops of the current snapshot with other attributes, result
    /// types or operands.
    std::vector<PassOpRef> modifiedSince(const Program &program) const;
    /// Whether the live op `now` equals `then`, the op with its key in the current snapshot
    /// whose ops have the keys `keyThen`.
    bool sameOp(const Operation &now, const Operation &then,
        const std::unordered_map<const Operation *, uint64_t> &keyThen) const;
    void runFrom(PassManager &pm, Program &program, size_t firstPass, const PassTimelineOptions &options);

    std::string m_target;
    std::unordered_map<const Operation *, uint64_t> m_keyOf;
    uint64_t m_nextKey = 1;
    std::shared_ptr<const ProgramSnapshot> m_current;
    std::vector<PassTimelineStep> m_steps;
    std::unique_ptr<Program> m_live;
};

} // namespace ps
