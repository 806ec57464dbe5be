#pragma once

#include "core/ir/attribute.h"
#include "core/ir/value.h"
#include "core/runtime/tensor.h"
#include "core/runtime/tensorsource.h"
#include "core/transform/passinstrumentation.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ps {

class AllocationMeter;
class Backend;
class Operation;
class ParameterStore;
class ValueImpl;

/// How one tensor differs between the program before a pass and after it.
struct ValueNumerics
{
    std::string value; ///< an output name, or the printer id in the program after the pass ("%12")
    std::string op; ///< the op that defines the value ("pd_op.gather_nd"; empty for an output)
    double maxAbs = 0;
    double maxRel = 0;
    bool ok = true;
    size_t mismatches = 0; ///< elements beyond tolerance
    /// The element furthest beyond tolerance (row-major index, -1 when none): after / before.
    int64_t worstIndex = -1;
    double worstActual = 0;
    double worstExpected = 0;
    /// Beyond tolerance only through a flipped selection (PassNumerics::OrderSensitive): reported,
    /// not a failure; `ok` stays true.
    bool orderSensitive = false;
};

/// The numeric check of one pass run: the program before and after the pass, run on the same
/// inputs and parameters, compared per output and per value that survives the pass.
struct PassNumerics
{
    std::string pass;
    std::string target;
    /// False when the check did not run; `skipped` says why ("unchanged", "not implemented",
    /// "the program after the pass failed: ...").
    bool checked = false;
    std::string skipped;
    double maxAbs = 0;
    double maxRel = 0;
    std::string worstValue; ///< the value with the largest error over its tolerance
    /// Every compared element within |a - e| <= atol + rtol * (|e| + rms(e)) (outputs and
    /// surviving values; compareToScale), order-sensitive values excepted.
    bool ok = true;
    double rtol = 0;
    double atol = 0;
    /// The pass computes in float16/bfloat16 (auto_mixed_precision_pass): its error is expected,
    /// judged with the low-precision tolerance and reported as such.
    bool lowPrecision = false;
    std::vector<ValueNumerics> outputs;
    size_t valuesCompared = 0;
    size_t valuesOutsideTolerance = 0;
    /// The most bytes this pass's check held at once (as PassNumericsCheck::peakBytes()) and the
    /// larger Interpreter::peakLiveBytes() of its two runs, each run on its own: their ratio is
    /// what checking the pass costs over running its program.
    int64_t peakBytes = 0;
    int64_t runPeakBytes = 0;
    /// Every output and value beyond tolerance, the order-sensitive ones included (outputs
    /// first, then values in program order).
    std::vector<ValueNumerics> beyondTolerance;

    /// Values that differ only because a discrete selection flipped: an op that turns float data
    /// into integers or booleans (top_k / argsort indices, argmax, a comparison, a cast, floor
    /// and what reads those: gather, where, floor_divide ...) gave a different result after the
    /// pass while every float value it read stayed within tolerance, as a near tie does when a
    /// pass legitimately reorders float math. Such values (and everything computed from them) are
    /// listed here with their errors and left out of maxAbs / maxRel / worstValue / ok. A
    /// selection whose float inputs are beyond tolerance or were not compared (rewritten by the
    /// pass) excuses nothing: what it feeds is judged as any value.
    struct OrderSensitive
    {
        size_t values = 0; ///< values beyond tolerance excused this way
        size_t mismatches = 0; ///< their elements beyond tolerance
        double maxAbs = 0;
        double maxRel = 0;
        std::string worstValue;
        /// The flipped selections: "%12 (pd_op.topk)" in program order.
        std::vector<std::string> selections;
        /// The largest error of the float values the flipped selections read.
        double inputMaxAbs = 0;
        double inputMaxRel = 0;
    };
    OrderSensitive orderSensitive;
};

/// An instrumentation that checks each pass that changed the program by running the program as
/// it was before the pass (a clone taken then) and after it on the CPU oracle, in lockstep
/// (ProgramRunner on each, the parameters from a shared ParameterStore so folded parameters are
/// there), and comparing the outputs by name and every value both runs computed (the same IR
/// value: it survived the pass). Differences that only a flipped near tie in a discrete selection
/// explains are reported apart (PassNumerics::OrderSensitive). Values are copied as each op
/// produces them, so an inplace op overwriting its input later does not count as a difference.
/// Values of random ops and `empty` are not compared, nor parameters and folded constants (both
/// runs read the same tensor of the store). The program also runs once before the first
/// pass (baselineError()). Cost per changed pass: two program executions with eager deletion, a
/// host copy of the values that survived the pass and their comparison. Memory: the two runs'
/// live values plus the copies one run is ahead with: the run that is behind steps until it has
/// produced what the other waits for, and each top-level value is compared and both copies
/// released as soon as both runs have it (values inside regions are kept, last iteration, to the
/// runs' end: a body runs many times).
class PassNumericsCheck : public PassInstrumentation
{
public:
    struct Options
    {
        TensorSource inputs = TensorSource::random(0);
        /// Shapes for inputs with dynamic dims (ProgramRunner::Options::inputShapes); the
        /// dynamic dims of any other input are `dynamicDim`.
        std::map<std::string, std::vector<int64_t>> inputShapes;
        int64_t dynamicDim = 1;
        double rtol = 1e-4;
        double atol = 1e-5;
        /// For auto_mixed_precision_pass (float16 / bfloat16 arithmetic).
        double lowPrecisionRtol = 1e-2;
        double lowPrecisionAtol = 1e-3;
        double bfloat16Rtol = 5e-2;
        /// Each run's Interpreter::Options::maxOps and canceled (a run they stop is reported as
        /// not run, and in boundedError()).
        uint64_t maxOps = 0;
        std::function<bool()> canceled;
    };

    PassNumericsCheck(Backend &backend, std::shared_ptr<ParameterStore> params, Options options);
    ~PassNumericsCheck() override;

    void runBeforePipeline(const Program &program, std::string_view target) override;
    void runAfterPass(const Pass &pass, const Program &program, const PassRecord &record) override;

    const std::vector<PassNumerics> &results() const { return m_results; }
    const Options &options() const { return m_options; }
    /// Why the run before the first pass failed (empty when it ran).
    const std::string &baselineError() const { return m_baselineError; }
    /// The error of the first run that was bounded (the op limit, the budget for records, a
    /// cancel) rather than failed by the program; empty when none was.
    const std::string &boundedError() const { return m_boundedError; }
    /// The most bytes the check held at once: its copies of values (both runs') plus what the
    /// running programs held, the parameters they share counted once, sampled after each op
    /// (AllocationMeter counts; a kernel's temporaries are in runPeakBytes only).
    int64_t peakBytes() const { return m_peakBytes; }
    /// The largest Interpreter::peakLiveBytes() of its runs: one run on its own, as Paddle frees.
    int64_t runPeakBytes() const { return m_runPeakBytes; }

private:
    /// The program as it was before the pass: a clone to run in lockstep with the program after
    /// the pass, and what the check needs to know of the original.
    struct Run
    {
        bool ok = false;
        std::string error;
        std::unique_ptr<Program> program;
        /// Each value of `program` -> the value of the live program it was cloned from.
        std::unordered_map<const ValueImpl *, const ValueImpl *> original;
        /// The values whose type says NHWC (transfer_layout_pass moves values into NHWC: such a
        /// value is compared with its NCHW self before the pass after a transpose back).
        std::unordered_set<const ValueImpl *> channelsLast;
        /// The selections (ops that turn float data into a discrete choice) as they were: a
        /// flipped one excuses nothing when the pass edited it (another attribute or operand).
        struct Selection
        {
            std::vector<const ValueImpl *> operands;
            std::vector<NamedAttribute> attributes;
            bool operator==(const Selection &) const = default;
        };
        std::unordered_map<const Operation *, Selection> selections;
    };
    /// Clones `program` and notes its NHWC values and selections (by the live program's ops).
    static void snapshot(const Program &program, Run &run);
    /// Runs `program` alone, keeping nothing: whether it runs.
    void execute(const Program &program, Run &run);

    Backend &m_backend;
    std::shared_ptr<ParameterStore> m_params;
    Options m_options;
    Run m_current;
    std::string m_baselineError;
    std::string m_boundedError;
    std::vector<PassNumerics> m_results;
    /// Counts the check's copies of values.
    std::shared_ptr<AllocationMeter> m_meter;
    int64_t m_peakBytes = 0;
    int64_t m_runPeakBytes = 0;
};

} // namespace ps
