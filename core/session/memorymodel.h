#pragma once

#include "core/ir/place.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ps {

class Interpreter;
class Operation;
class Program;
class ValueImpl;
struct DebugTarget;
struct PipelineResult;

/// One buffer of a memory report, described by the value that allocates it.
struct MemoryValue
{
    std::string op; ///< the op that allocates it: "fwd:9", "bwd:3" (train), "0:12" (one program)
    std::string opName;
    std::string value; ///< the printer's id in its program ("%9", "%kwarg_out_g")
    /// Its variable name in Paddle's scope where the program names it (a parameter, an input,
    /// middle_3, output_0, a gradient), else "".
    std::string name;
    std::string layer; ///< struct_name of the op ("/Linear_1/"), "" outside layers
    int64_t bytes = 0; ///< -1 in MemoryReport::unknown
};

struct MemoryTimelinePoint
{
    std::string op;
    std::string opName;
    /// Bytes allocated while the op runs: the baseline, everything alive before it and its results.
    int64_t liveBytes = 0;
    /// What a run measured there (OpRecord::liveBytes; inside a region the most of its ops), or
    /// -1 where none was attached (MemoryModel::attachMeasured) or the op did not run.
    int64_t measuredBytes = -1;
};

/// Bytes kept across the forward/backward cut by one layer (struct_name).
struct MemoryLayerBytes
{
    std::string layer;
    int64_t bytes = 0;
    size_t values = 0;
};

/// What recomputing a top-level layer in the backward would change: the kept bytes it frees and
/// the forward FLOPs it runs again.
struct MemoryRecompute
{
    std::string layer;
    int64_t savesBytes = 0;
    double flops = 0;
};

/// A run's memory as Paddle's executor allocates it (MemoryModel).
struct MemoryReport
{
    std::string mode; ///< "train" or "infer"
    /// Parameters and inputs: alive before the step and after it.
    int64_t baselineBytes = 0;
    /// The most bytes allocated at once, the baseline included, and the op where it happens.
    int64_t peakBytes = 0;
    std::string peakOp;
    std::string peakOpName;
    /// Train: what the forward leaves allocated for the backward and the caller (kept middles and
    /// outputs), above the baseline. 0 for infer.
    int64_t keptAfterForwardBytes = 0;
    /// Above the baseline once the step is over: the outputs (and the gradients in train mode).
    int64_t afterStepBytes = 0;
    /// Index into timeline of the first backward op (timeline.size() without a backward).
    size_t cut = 0;
    std::vector<MemoryTimelinePoint> timeline;
    /// Train: the buffers alive after the forward above the baseline, largest first.
    std::vector<MemoryValue> kept;
    std::vector<MemoryLayerBytes> keptByLayer; ///< largest first
    /// The largest buffers alive at the peak (ten at most; parameters and inputs left out).
    std::vector<MemoryValue> topAtPeak;
    std::vector<MemoryRecompute> recompute; ///< train: per top-level layer, largest saving first
    /// Values whose size is not static (a dynamic dim, an opaque type) and that no run sized:
    /// not counted anywhere.
    std::vector<MemoryValue> unknown;
    /// Values with a dynamic declared size that a run sized (MemoryModel's `measured`).
    size_t measuredValues = 0;
    /// A run's allocator figures beside the prediction (MemoryModel::attachMeasured), -1 without:
    /// its peak (kernels' temporaries included) and what its forward left for the backward.
    int64_t measuredPeakBytes = -1;
    int64_t measuredKeptAfterForwardBytes = -1;
};

/// Predicts the host or device bytes a run allocates, following Paddle's executor (PirInterpreter
/// with eager deletion, run_program between the two programs of a train step):
///   - a value is allocated by its defining op and freed after its last use (an op nested in a
///     region uses what it reads for its parent op); values never read are freed after their op;
///   - an inplace op's result reuses its input's buffer (OpRegistry::inplaceInfo), and so does every
///     op that run_program's inplace_pass turns into its `_` form on `place` (InplacePass: an
///     input that dies at the op); builtin.combine, builtin.split and shadow/fetch outputs
///     allocate nothing;
///   - parameters and inputs are the baseline, alive throughout;
///   - train: the values the backward reads as keyword arguments stay allocated until their last
///     use there, no-need-buffer ones keep only their meta (PADDLE_PIR.md §3.1); the output
///     gradients are allocated when the backward starts; the forward's outputs and the backward's
///     gradients stay allocated after the step.
/// Sizes are the declared types'; a value with a dynamic dim takes its size from `measured` (a
/// run's, ValueBytesRecorder) when given, else it is unknown: listed, never guessed.
/// Cost: O(ops + operands) plus a sort of the kept values.
class MemoryModel
{
public:
    /// Bytes by value, measured in a run.
    using Measured = std::unordered_map<const ValueImpl *, int64_t>;

    /// A train step: the pipeline's forward program, then its backward program.
    static MemoryReport train(
        const PipelineResult &pipeline, const Place &place = kCpu, const Measured *measured = nullptr);
    /// One run of one program (an inference program, or a pipeline's forward in infer mode).
    static MemoryReport infer(
        const Program &program, const Place &place = kCpu, const Measured *measured = nullptr);
    /// What a debug session or `run` of `target` executes: a train pipeline's step, an infer
    /// pipeline's forward, or the one program.
    static MemoryReport forTarget(
        const DebugTarget &target, const Place &place = kCpu, const Measured *measured = nullptr);
    /// "" when the target's predicted peak fits the host-memory budget (MemoryBudget::fits), else
    /// why not, naming the op of the peak: a run refused before anything is allocated. The
    /// prediction leaves out values of unknown size, so it is a lower bound.
    static std::string budgetProblem(const DebugTarget &target);
    /// Puts what `interpreter` measured (its records' liveBytes, its peak, its bytes after the
    /// forward) beside the prediction `report` made for the interpreter's target. The run should
    /// free values as Paddle does (Interpreter::Options::eagerDeletion) for the two to agree.
    static void attachMeasured(MemoryReport &report, const Interpreter &interpreter);
    /// The ops of the target's programs that Paddle's executor runs in their `_` form on `place`
    /// (run_program's inplace_pass, decided on copies): what the model reuses buffers for and
    /// what a run with eager deletion runs in place (ProgramRunner::Options::runInplace).
    static std::unordered_set<const Operation *> executorInplaceOps(
        const DebugTarget &target, const Place &place = kCpu);

    static inline const Place kCpu { Place::AllocType::Cpu, 0, {} };
};

} // namespace ps
