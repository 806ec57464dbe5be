#pragma once

#include "core/ir/datatype.h"
#include "core/runtime/programposition.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ps {

class Operation;

/// What the interpreter recorded about one executed op.
struct OpRecord
{
    /// How the op was executed.
    enum class Kind : unsigned char {
        Kernel, ///< a backend kernel
        Builtin, ///< by the interpreter (data, parameter, shadow_output, combine, stacks, ...)
        ControlFlow, ///< a whole `pd_op.if`/`pd_op.while` (times: the sum of its region's ops', pauses left
                     ///< out)
        Provided, ///< outputs supplied by the user (provideOutputs)
    };

    /// Executions since the (re)start, from 0.
    size_t sequence = 0;
    ProgramPosition position;
    const Operation *op = nullptr;
    Kind kind = Kind::Kernel;
    /// Iteration of the innermost enclosing `pd_op.while` body (0 outside loops).
    size_t iteration = 0;
    /// A device backend had no kernel for the op: it ran on the CPU with its operands copied to
    /// the host and its results copied back (Interpreter::Options::cpuFallback).
    bool fallback = false;
    /// Wall time until the op returned (kernel launch on a device).
    double hostSeconds = 0;
    /// Wall time until Backend::synchronize() returned after it (== hostSeconds on the CPU or
    /// when per-op synchronisation is off).
    double deviceSeconds = 0;
    /// Interpreter::liveBytes() right after the op: its results allocated, nothing released yet
    /// (MemoryModel's timeline point).
    int64_t liveBytes = 0;
    /// One entry per result; empty shape and Undefined dtype for non-tensor results.
    std::vector<std::vector<int64_t>> outputShapes;
    std::vector<DataType> outputDtypes;
    /// Set when the NaN/Inf check ran on the outputs.
    bool checkedFinite = false;
    bool hasNanInf = false;
    /// Differential mode: the op also ran on the reference backend.
    bool compared = false;
    bool diverged = false;
    double maxAbsDiff = 0;
    double maxRelDiff = 0;
    /// Why the comparison failed or was skipped ("no reference kernel", "result 1: 3 of 24 ...").
    std::string comparison;

    /// What a kept copy holds, in itself and on the heap: what keeping it costs the MemoryBudget.
    uint64_t bytes() const
    {
        uint64_t n = sizeof(OpRecord) + position.path.capacity() * sizeof(size_t)
            + outputShapes.capacity() * sizeof(std::vector<int64_t>) + outputDtypes.capacity()
            + comparison.capacity();
        for (const std::vector<int64_t> &shape : outputShapes)
            n += shape.capacity() * sizeof(int64_t);
        return n;
    }
};

/// An op that could not run: which op, where, what it read and why it failed. The interpreter
/// stays paused at that op; nothing is thrown out of it.
struct OpError
{
    ProgramPosition position;
    const Operation *op = nullptr;
    std::string opName;
    /// The kernel's or the interpreter's message.
    std::string message;
    /// The backend has no kernel for the op (provideOutputs() can step past it).
    bool missingKernel = false;
    /// Not the op's fault: the run was bounded before it (Interpreter::Options::maxOps, the
    /// budget for records, a cancel request).
    bool bounded = false;
    /// "%3 float32[4, 6]", "%kwarg_x <no value>", "<null>" per operand.
    std::vector<std::string> operands;
    /// "%5" or "%5 (middle_0)" per result.
    std::vector<std::string> results;

    /// "pd_op.foo at 0:12 (results %5): message; operands: %3 float32[4, 6], ...".
    std::string toString() const;
};

} // namespace ps
