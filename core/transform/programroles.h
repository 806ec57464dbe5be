#pragma once

#include "core/ir/program.h" // runnableprogram.h needs Program complete
#include "core/ir/value.h"
#include "core/transform/nestsequence.h"
#include "core/transform/runnableprogram.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps {

class PartialProgramLayer;
class Program;

/// What each value of a program is to the dy2static pipeline (DESIGN.md, "Trace bundle"). For
/// a plain program: inputs are its `pd_op.data` results, parameters its `builtin.parameter`
/// results sorted by `parameter_name` (as dy2static's ParametersRecorder lists them), outputs
/// the operands of `builtin.shadow_output` / `pd_op.fetch`. A program already in the train
/// layout of `_append_backward` (`grad_input_<k>` / `grad_output_<k>` shadow outputs) also gets
/// its seeds, gradients and forward end; its outputs are the shadow outputs before the first
/// seed. A trace bundle fills the same fields from its manifest (BundlePrograms::roles), with a
/// nested output structure.
struct ProgramRoles
{
    /// Where a plain program without `shadow_output` / `fetch` ops finds its outputs.
    enum class OutputFallback {
        None, ///< no outputs
        UnusedResults, ///< results of top-level ops that nothing uses (data/parameter ops aside)
    };

    /// A list of value leaves (a layer's positional arguments).
    NestNode inputs = NestNode::list({});
    /// The layer's return value: a list of value leaves for a plain program.
    NestNode outputs = NestNode::list({});
    std::vector<Value> parameters;
    /// How the roles were found, for the UI ("outputs: results nothing uses").
    std::vector<std::string> notes;

    /// Train layout only.
    bool trainLayout = false;
    std::vector<Value> seeds; ///< `grad_input_<k>` operands
    std::vector<Value> grads; ///< `grad_output_<k>` operands
    std::optional<size_t> forwardEnd; ///< one past the last forward output's shadow_output
    std::optional<size_t> lastSeed; ///< index of the last `grad_input_<k>` shadow_output
    std::optional<size_t> firstGrad; ///< index of the first `grad_output_<k>` after the seeds

    /// The roles of a plain program. O(ops).
    static ProgramRoles ofProgram(const Program &program, OutputFallback fallback = OutputFallback::None);

    /// The flat list of input values, of output values (NestSequence order, no duplicates).
    std::vector<Value> inputValues() const;
    std::vector<Value> outputValues() const;
    /// Whether any input or parameter can get a gradient (a dense value whose defining op has
    /// no `stop_gradient:[true]`): false means the train pipeline has nothing to differentiate.
    bool hasDifferentiable() const;

    /// A PartialProgramLayer over a clone of `origin` (the roles' values belong to `origin`,
    /// which stays untouched, so one origin can feed any number of layers). For a program in
    /// the train layout the layer's train program is the program itself (runnable()).
    std::unique_ptr<PartialProgramLayer> makeLayer(const Program &origin, PipelineFlavour flavour) const;

    /// What `pirscope-cli split` runs on for a plain program: with the train layout, the program
    /// with its ranges and with the gradients matched in order to the inputs, then to the
    /// parameters (sorted by name, dy2static's order), skipping values with `stop_gradient:[true]`
    /// and values of another type; otherwise the forward program with `output_<k>` shadow outputs
    /// appended for unnamed outputs, as PartialProgramLayer adds them. `train` tells which.
    static RunnableProgram runnable(
        std::unique_ptr<Program> program, PipelineFlavour flavour, bool *train = nullptr);
};

} // namespace ps
