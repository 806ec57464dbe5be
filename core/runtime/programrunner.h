#pragma once

#include "core/runtime/interpreter.h"
#include "core/runtime/scope.h"
#include "core/runtime/tensorsource.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace ps {

class Backend;
class Program;

/// Paddle's `pir_run_program` on a dy2static pipeline's split programs (PADDLE_PIR.md §5; a
/// PipelineResult becomes a Split through core/session's runProgramSplit): inputs go into
/// the Scope under the `fx` names and parameters under the `fp` names (fake names skipped), the
/// forward program runs, outputs are read by `fo` names; then run_program's garbage collection
/// frees what the backward does not read (`no_need_buffers` keep their meta only), the output
/// gradients go in under the `bo_g` names (from `<k>.npy` files, else ones like the output, as
/// paddle.grad seeds them), the backward program runs, and the gradients are read by the
/// `bx_g`/`bp_g` names. A plain program (no split) runs as one segment: inputs are its
/// `pd_op.data` names, parameters its `builtin.parameter` names (and the tensors its tensor-name
/// `builtin.constant` ops name), outputs its shadow_output and fetch names.
///
/// Execution is an Interpreter over the [forward, backward] timeline, so a debugger can step
/// through both with the same object.
class ProgramRunner
{
public:
    struct Options
    {
        TensorSource inputs = TensorSource::random(0);
        TensorSource params = TensorSource::random(0);
        /// Output index (fo order) → `.npy` file of its gradient (a trace bundle's
        /// output_grads/); outputs without a file get ones.
        std::map<size_t, std::string> outputGradFiles;
        /// Input name → the concrete shape its declared type takes for this run (what the
        /// session resolved: InputShapes). Generated inputs get that shape, an image input is
        /// resized to it, files must match it.
        std::map<std::string, std::vector<int64_t>> inputShapes;
        /// Size given to dynamic (-1) dims of generated inputs not in inputShapes; the session
        /// never relies on it (it resolves every dynamic input or asks for a shape).
        int64_t dynamicDim = 1;
        Interpreter::Options interpreter;
        /// Ops to run in their `_` form under eager deletion (Interpreter::Segment::runInplace).
        std::unordered_set<const Operation *> runInplace;
    };

    /// One named result: the Paddle name (input, parameter or output) and the scope variable it
    /// was read from; `tensor` is a host tensor, undefined when there is none (fake gradient,
    /// freed or never written).
    struct NamedTensor
    {
        std::string name;
        std::string scopeName;
        Tensor tensor;
    };

    /// What run_program receives of a split pipeline: its programs and program_attr's names.
    struct Split
    {
        std::shared_ptr<const Program> forward;
        /// Null or empty: forward only.
        std::shared_ptr<const Program> backward;
        std::vector<std::string> inputs; ///< fx
        std::vector<std::string> parameters; ///< fp
        std::vector<std::string> outputs; ///< fo
        std::vector<std::string> outputGrads; ///< bo_g
        std::vector<std::string> inputGrads; ///< bx_g
        std::vector<std::string> parameterGrads; ///< bp_g
        std::vector<std::string> noNeedBuffers; ///< no_need_buffers
        std::string fakeName; ///< the flavour's fake value name ("" when it has none)
    };

    /// Forward + backward (a training pipeline) or forward only (`split.backward` empty).
    ProgramRunner(Split split, Backend &backend);
    /// A plain program as one segment.
    ProgramRunner(std::shared_ptr<const Program> program, Backend &backend);
    ~ProgramRunner();
    ProgramRunner(const ProgramRunner &) = delete;
    ProgramRunner &operator=(const ProgramRunner &) = delete;

    /// Fills the scope and builds the interpreter (positioned at the first op). False with
    /// `error` naming the missing or mismatching tensor.
    bool prepare(const Options &options, std::string &error);
    bool prepared() const { return m_interpreter != nullptr; }
    /// Valid after prepare().
    Interpreter &interpreter() { return *m_interpreter; }
    Scope &scope() { return m_scope; }
    Backend &backend() { return m_backend; }
    bool hasBackward() const { return m_backward != nullptr; }

    /// Interpreter::continueRun(): to the end, a breakpoint, an error or a stop request.
    StopInfo run() { return m_interpreter->continueRun(); }

    /// The sources as prepare() used them (an image source knows its input then).
    const TensorSource &inputSource() const { return m_inputSource; }
    const TensorSource &parameterSource() const { return m_paramSource; }

    const std::vector<std::string> &inputNames() const { return m_inputNames; }
    const std::vector<std::string> &parameterNames() const { return m_paramNames; }
    const std::vector<std::string> &outputNames() const { return m_outputNames; }
    /// Scope variables freed after the forward program, with their reasons.
    const std::vector<std::pair<std::string, FreeReason>> &forwardFrees() const { return m_forwardFrees; }

    std::vector<NamedTensor> outputs() const;
    /// One per input (fx order) / parameter (fp order).
    std::vector<NamedTensor> inputGrads() const;
    std::vector<NamedTensor> parameterGrads() const;
    /// The parameters' current values as the forward program read them (inplace updates such as
    /// batch_norm_'s running statistics included); undefined before the forward reads them.
    std::vector<NamedTensor> parameterValues() const;

private:
    bool isFake(const std::string &name) const;
    std::vector<NamedTensor> read(
        const std::vector<std::string> &names, const std::vector<std::string> &scopeNames) const;
    void putOutputGrads(Scope &scope);

    Backend &m_backend;
    Scope m_scope;
    std::shared_ptr<const Program> m_forward;
    std::shared_ptr<const Program> m_backward;
    std::string m_fakeName;
    std::vector<std::string> m_inputNames;
    std::vector<std::string> m_paramNames;
    std::vector<std::string> m_outputNames;
    std::vector<std::string> m_outputGradNames;
    std::vector<std::string> m_inputGradNames;
    std::vector<std::string> m_paramGradNames;
    std::vector<std::string> m_noNeedBuffers;
    std::vector<std::pair<std::string, FreeReason>> m_forwardFrees;
    std::vector<Tensor> m_outputGradFiles;
    TensorSource m_inputSource;
    TensorSource m_paramSource;
    std::unique_ptr<Interpreter> m_interpreter;
};

} // namespace ps
