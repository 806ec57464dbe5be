#pragma once

#include "core/runtime/programrunner.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps {

class Program;
class TraceBundle;
struct PipelineResult;

/// How one of PIRScope's op results differs from Paddle's value of it.
struct IntermediateDifference
{
    size_t value = 0; ///< index into TraceBundle::intermediates()
    size_t opIndex = 0; ///< top-level op of the program
    size_t resultIndex = 0;
    std::string opName;
    std::string valueId; ///< the printer's id ("%12")
    std::string part; ///< "forward", "backward" (by the bundle's ranges) or "" (inference)
    /// The op's clone in run_program's programs ("fwd:9", "bwd:3"; PipelineResult::wholeToSplit),
    /// "" when not known or when a pass removed it.
    std::string splitOp;
    double maxAbs = 0;
    double maxRel = 0;
    /// max |PIRScope - Paddle| / (atol + rtol |Paddle|) over the elements (TensorComparison::
    /// maxToleranceRatio): above 1 diverges. Infinite with a problem.
    double error = 0;
    int64_t worstIndex = -1;
    int64_t mismatches = 0;
    /// An operand of the op already differed from Paddle's value (the error may be inherited).
    bool operandsAlreadyDiffered = false;
    std::string problem; ///< shape or dtype mismatch, an unreadable file; "" otherwise
};

/// PIRScope's run of a bundle's program compared op by op with Paddle's values of it
/// (`verify BUNDLE --intermediates [--isolate]`).
struct IntermediatesReport
{
    std::string program; ///< "train_program" or "infer_program"
    size_t values = 0; ///< Paddle's values in the bundle
    size_t compared = 0;
    size_t divergent = 0;
    size_t notComputed = 0; ///< Paddle has the value, PIRScope's run did not compute it
    std::optional<IntermediateDifference> firstDivergent; ///< in program order
    std::vector<IntermediateDifference> worst; ///< up to ten, by max_abs beyond tolerance
    /// Every compared value, in program order (mismatches 0 where it agrees).
    std::vector<IntermediateDifference> differences;
    std::string runProblem; ///< why PIRScope's run stopped early ("" when it finished)

    /// --isolate: each op rerun alone on Paddle's values of its operands.
    bool isolated = false;
    size_t isolatedCompared = 0;
    size_t isolatedDivergent = 0;
    std::optional<IntermediateDifference> firstIsolatedDivergent;
    std::map<std::string, size_t> notIsolated; ///< reason → ops
};

/// Runs the program Paddle's intermediates belong to (Paddle's train program, forward and
/// backward in one, or its infer program) on the CPU with the bundle's inputs and parameters, and
/// compares every result Paddle wrote (TensorComparison, verify's tolerances) as the op computes
/// it. With `isolate`, each kernel op also runs once more alone, its operands replaced by Paddle's
/// values (PIRScope's where Paddle wrote none: data, parameters), so an op's own error is told
/// from the error it inherited (Polygraphy's way). Memory: one Paddle value at a time, plus the
/// set of values that differed.
class IntermediatesCheck
{
public:
    struct Tolerance
    {
        double rtol = 1e-4;
        double atol = 1e-5;
    };
    /// The program Paddle's intermediates belong to, read from the bundle (its _json file, else
    /// _txt). Null with `error`.
    static std::shared_ptr<const Program> program(const TraceBundle &bundle, std::string &error);
    /// False with `error` when the bundle has no intermediates or the program cannot be loaded or
    /// prepared. `options`: the bundle's inputs and parameters (DebugSources::applyTo).
    /// `pipeline`: the bundle's train pipeline (Paddle's train program split and passed), to name
    /// each value's op in the forward/backward programs too (IntermediateDifference::splitOp).
    static bool run(const TraceBundle &bundle, const ProgramRunner::Options &options, Tolerance tolerance,
        bool isolate, IntermediatesReport &report, std::string &error,
        const PipelineResult *pipeline = nullptr);
};

} // namespace ps
