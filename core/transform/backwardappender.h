#pragma once

#include "core/ir/diagnostic.h"
#include "core/ir/value.h"
#include "core/transform/gradoplink.h"

#include <memory>
#include <utility>
#include <vector>

namespace ps {

class Program;

/// The whole (train) program dy2static builds: forward + backward, with the values and op
/// ranges `split_program` takes. Grad lists hold null where Paddle has its fake value.
struct TrainProgram
{
    std::unique_ptr<Program> program; ///< set by BackwardAppender::fromOrigin
    std::vector<Value> inputs, params, outputs;
    std::vector<Value> inputGrads, paramGrads, outputGrads;
    /// Half-open op index ranges into the top block.
    std::pair<size_t, size_t> forwardRange { 0, 0 };
    std::pair<size_t, size_t> backwardRange { 0, 0 };
    /// For each forward op with grad ops: top-level op indices into `program`.
    std::vector<GradOpLink> gradOps;
    DiagnosticList diagnostics;

    bool ok() const { return !diagnostics.hasErrors(); }
};

/// `PartialProgramLayer._append_backward` of Paddle 3.3.1 (PADDLE_PIR.md §4.2): seeds
/// (`full` + `full_like(1.0, dtype=out.dtype)`, a fake value for stop_gradient outputs) with
/// `grad_input_<k>` shadow outputs, `ir_backward.grad` over inputs + params, `grad_output_<k>`
/// shadow outputs for the gradients that exist, and the forward / backward ranges (the forward
/// end is found again after grad, since `cf.stack_create` ops are inserted at the top).
///
/// The full-graph pre-process pass that follows in Paddle (FusedBnAddActPass, wrapped in
/// index/value preserving markers that it removes again) changes none of the golden programs
/// exported from Paddle 3.3.1 on CPU, so it is not reproduced.
class BackwardAppender
{
public:
    /// Appends the backward in place; `program` is the origin runnable program (forward +
    /// `output_<k>` shadow outputs) and the value lists belong to it.
    static TrainProgram append(Program &program, const std::vector<Value> &inputs,
        const std::vector<Value> &params, const std::vector<Value> &outputs);
    /// Same on a clone of `origin` (the values are mapped into the clone); `TrainProgram::program`
    /// owns it.
    static TrainProgram fromOrigin(const Program &origin, const std::vector<Value> &inputs,
        const std::vector<Value> &params, const std::vector<Value> &outputs);
};

} // namespace ps
