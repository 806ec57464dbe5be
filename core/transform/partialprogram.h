#pragma once

#include "core/transform/nestsequence.h"
#include "core/transform/passmanager.h"
#include "core/transform/pipelineresult.h"
#include "core/transform/runnableprogram.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps {

class Operation;
class Program;

/// Paddle's dy2static `PartialProgramLayer` (PADDLE_PIR.md §4.2) without the run: the origin
/// runnable program (`output_<k>` shadow outputs appended with append_shadow_outputs), the train
/// program (clone + a pluggable `_append_backward_desc`, by default ps::BackwardAppender), the
/// infer program, the passes on the
/// split programs (CSE for the newest flavour) and a PipelineResult snapshot.
///
/// Unused-parameter pruning follows the flavour: seed and 3.0 `_verify_program` call
/// `_prune_unused_params` (erase the `builtin.parameter` op of a parameter without uses and drop
/// it); Paddle 3.3.1 no longer does (its `pruned_param` bundle keeps both unused parameters).
class PartialProgramLayer
{
public:
    /// `_append_backward_desc`: receives the cloned origin program, returns the whole train
    /// program with its gradient names and ranges, or nullopt with `error` set.
    using BackwardFn
        = std::function<std::optional<RunnableProgram>(RunnableProgram &&origin, std::string &error)>;

    /// `inputs`/`outputs` are the nested structures of values of `mainProgram`; `parameters` are
    /// the parameter values in the layer's order.
    PartialProgramLayer(std::unique_ptr<Program> mainProgram, NestSequence inputs, NestSequence outputs,
        std::vector<Value> parameters, PipelineFlavour flavour = PipelineFlavour::Newest);
    ~PartialProgramLayer();

    PipelineFlavour flavour() const { return m_flavour; }
    const NestSequence &inputs() const { return m_inputs; }
    const NestSequence &outputs() const { return m_outputs; }
    const std::vector<Value> &parameters() const { return m_parameters; }
    const std::vector<std::string> &prunedParameters() const { return m_pruned; }

    /// The passes run on the split programs (`apply_pir_program_pass`'s pass_fn): newest runs
    /// CSE on the forward then the backward program; seed and 3.0 run none (their pass_fn only
    /// runs CINN). Configure before the first trainProgram()/inferProgram().
    PassManager &passManager() { return m_passes; }
    /// Whether the pass log keeps a copy of each program before and after every pass (on by
    /// default; a copy costs about a clone per changed program). Off: the log has the records
    /// only (PassTimelineStep::before/after null).
    void setRecordPassSteps(bool on) { m_recordPassSteps = on; }

    /// Cached; appends the `output_<k>` shadow outputs to the main program the first time.
    RunnableProgram &originRunnableProgram();

    /// Replaces the default backward function (ps::BackwardAppender, Paddle 3.3.1's
    /// `_append_backward`); an empty function leaves the layer without one.
    void setBackwardFn(BackwardFn fn) { m_backwardFn = std::move(fn); }
    bool hasBackwardFn() const { return static_cast<bool>(m_backwardFn); }
    /// The default backward function: ps::BackwardAppender on the origin clone.
    static BackwardFn defaultBackwardFn(PipelineFlavour flavour);
    /// Cached train program (split, passes applied); nullptr when there is no backward function
    /// and no train program was given, or it failed (see diagnostics()).
    RunnableProgram *trainProgram();
    /// Uses `train` (e.g. a bundle's train_program.txt) as the train program; splits it and runs
    /// the passes. Replaces an earlier one.
    RunnableProgram &useTrainProgram(RunnableProgram train);
    /// Cached infer program: origin clone, split (forward only), passes on the forward program.
    RunnableProgram &inferProgram();

    /// `apply_pir_program_pass` on the train (or infer) program; false once its program_attr ran
    /// or when there is no train program.
    bool applyPass(const RunnableProgram::PassFn &fn, bool training = true);

    /// program_attr (once) and a private copy of every stage.
    PipelineResult snapshot(bool training = true);

    const std::vector<std::string> &diagnostics() const { return m_diagnostics; }

private:
    struct Stage
    {
        std::unique_ptr<RunnableProgram> program;
        std::shared_ptr<const Program> splitForward;
        std::shared_ptr<const Program> splitBackward;
        SplitNames splitNames;
        std::vector<PassTimelineStep> passLog;
        /// Top-level op index of the whole program → its clone in the split forward/backward
        /// program (null for ops split_program does not clone), to follow grad-op links.
        std::vector<const Operation *> forwardClones;
        std::vector<const Operation *> backwardClones;
    };
    void prepare(Stage &stage, bool training);
    void pruneUnusedParameters();

    std::unique_ptr<Program> m_main;
    NestSequence m_inputs;
    NestSequence m_outputs;
    std::vector<Value> m_parameters;
    PipelineFlavour m_flavour;
    std::vector<std::string> m_pruned;
    PassManager m_passes;
    BackwardFn m_backwardFn;
    std::unique_ptr<RunnableProgram> m_origin;
    Stage m_train;
    Stage m_infer;
    bool m_trainTried = false;
    bool m_recordPassSteps = true;
    std::vector<std::string> m_diagnostics;
};

} // namespace ps
