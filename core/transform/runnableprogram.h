#pragma once

#include "core/ir/pipelineflavour.h"
#include "core/transform/gradoplink.h"
#include "core/transform/splitprogram.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ps {

class Operation;
class Program;

/// What `program_attr` hands to run_program.
struct ProgramAttributes
{
    /// Names per key. Newest: program_name_attr after unify_value_names' renames (and the
    /// renamed names removed from no_need_buffers). Seed/3.0: program_name_attr as it was.
    SplitNames names;
    /// The values of those names in the final forward (f keys, no_need_buffers) and backward
    /// (b keys) programs; null for the fake value or a name that is not found.
    SplitValues values;
    /// Renames made: newest unify_value_names (old → new), or the 3.0/seed inplace shadow-output
    /// renames, in the order they were made.
    std::vector<std::pair<std::string, std::string>> renames;
};

/// Paddle's `RunnableProgram` (PADDLE_PIR.md §4.1): a whole program with the names of its inputs,
/// parameters, outputs and their gradients, and forward/backward op ranges. It splits once
/// (split_program), lets passes run on the two programs, then computes program_attr.
///
/// Values are referred to by name, as in Paddle, and resolved with the flavour's name map:
/// newest `_get_name_value_map_from_program` (every name of every value), seed/3.0
/// `_get_value_name_map_from_program` (ValueNameMap) reversed. Problems Paddle would raise on
/// (an unknown name, a second split) are recorded in diagnostics() instead.
class RunnableProgram
{
public:
    struct Names
    {
        std::vector<std::string> x;
        std::vector<std::string> param;
        std::vector<std::string> out;
        std::vector<std::string> xGrad;
        std::vector<std::string> paramGrad;
        std::vector<std::string> outGrad;
    };
    /// (program, out_names...) → pass_fn's view: the forward and backward programs and the names.
    using PassFn = std::function<void(Program &forward, Program &backward, const SplitNames &nameAttr)>;

    /// Ranges default to [0, ops) and [ops, ops).
    RunnableProgram(std::unique_ptr<Program> program, Names names, std::optional<OpRange> forwardRange = {},
        std::optional<OpRange> backwardRange = {}, PipelineFlavour flavour = PipelineFlavour::Newest);
    /// From values (`convert_name`): each value is named with the flavour's rule.
    static RunnableProgram fromValues(std::unique_ptr<Program> program, const std::vector<Value> &x,
        const std::vector<Value> &params, const std::vector<Value> &outs,
        const std::vector<Value> &xGrads = {}, const std::vector<Value> &paramGrads = {},
        const std::vector<Value> &outGrads = {}, std::optional<OpRange> forwardRange = {},
        std::optional<OpRange> backwardRange = {}, PipelineFlavour flavour = PipelineFlavour::Newest);

    RunnableProgram(RunnableProgram &&) noexcept;
    RunnableProgram &operator=(RunnableProgram &&) noexcept;
    ~RunnableProgram();

    Program &program() { return *m_program; }
    /// Moves the program out (a backward function that works in place on its clone, as Paddle's
    /// `_append_backward` does); this object may then only be destroyed or assigned to.
    std::unique_ptr<Program> takeProgram() { return std::move(m_program); }
    const Program &program() const { return *m_program; }
    PipelineFlavour flavour() const { return m_flavour; }
    const Names &names() const { return m_names; }
    OpRange forwardRange() const { return m_forwardRange; }
    OpRange backwardRange() const { return m_backwardRange; }

    /// `convert_name` for one value; "" when the value has no name.
    std::string valueName(Value value) const;
    /// The flavour's name → value lookup in the whole program; nullopt when unknown (the fake
    /// name gives a null Value).
    std::optional<Value> valueByName(std::string_view name) const;
    std::vector<Value> xValues() const { return resolve(m_names.x); }
    std::vector<Value> paramValues() const { return resolve(m_names.param); }
    std::vector<Value> outValues() const { return resolve(m_names.out); }
    std::vector<Value> xGradValues() const { return resolve(m_names.xGrad); }
    std::vector<Value> paramGradValues() const { return resolve(m_names.paramGrad); }
    std::vector<Value> outGradValues() const { return resolve(m_names.outGrad); }
    /// xValues(), paramValues() and outValues() with one name lookup (one pass over the program
    /// instead of three).
    struct ForwardValues
    {
        std::vector<Value> x, params, outs;
    };
    ForwardValues forwardValues() const;

    /// Newest `update_op_range`: re-finds the ranges from the boundary ops remembered at
    /// construction (passes on the whole program may have moved them). No-op for seed/3.0.
    void updateOpRange();

    /// split_program on the whole program (once; later calls return the first result).
    const SplitResult &splitForwardBackward();
    bool isSplit() const { return m_split != nullptr; }
    Program &forwardProgram();
    Program &backwardProgram();
    /// The split attributes as names (cached): newest `get_value_name`, seed/3.0 the value-name
    /// maps of the forward (f keys, no_need_buffers) and backward (b keys) programs.
    const SplitNames &programNameAttr();
    /// `apply_pir_program_pass`: splits, computes programNameAttr, then runs `fn`. Refused (false)
    /// once programAttr() ran.
    bool applyPass(const PassFn &fn);
    /// `program_attr` (cached; renames the forward/backward programs the first time).
    const ProgramAttributes &programAttr();
    bool hasProgramAttr() const { return m_attr != nullptr; }

    /// Which grad ops the backward function made from which forward op (top-level op indices
    /// of program()); empty when unknown, e.g. for a train program read from a file.
    const std::vector<GradOpLink> &gradOpLinks() const { return m_gradOps; }
    void setGradOpLinks(std::vector<GradOpLink> links) { m_gradOps = std::move(links); }

    /// `clone`: a copy of the program with the same x/param/out names and ranges; like Paddle,
    /// without the gradient names (nor the grad-op links).
    RunnableProgram clone() const;

    /// Newest `_get_name_value_map_from_program`: every name of every value (kwargs and results,
    /// nested blocks included; later values overwrite) plus `fakeName` → null.
    static std::unordered_map<std::string, Value> nameValueMap(
        const Program &program, std::string_view fakeName);

    const std::vector<std::string> &diagnostics() const { return m_diagnostics; }

private:
    std::vector<Value> resolve(
        const std::vector<std::string> &names, std::vector<std::string> *missing = nullptr) const;
    void rememberBoundaryOps();
    ProgramAttributes newestProgramAttr();
    ProgramAttributes inplaceProgramAttr();

    std::unique_ptr<Program> m_program;
    Names m_names;
    OpRange m_forwardRange;
    OpRange m_backwardRange;
    PipelineFlavour m_flavour;
    const Operation *m_fwdEndNextOp = nullptr;
    const Operation *m_bwdStartPrevOp = nullptr;
    const Operation *m_bwdEndNextOp = nullptr;
    std::unique_ptr<SplitResult> m_split;
    std::unique_ptr<SplitNames> m_nameAttr;
    std::unique_ptr<ProgramAttributes> m_attr;
    std::vector<GradOpLink> m_gradOps;
    std::vector<std::string> m_diagnostics;
};

} // namespace ps
