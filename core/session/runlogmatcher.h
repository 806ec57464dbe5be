#pragma once

#include "core/ir/value.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ps {

class Operation;
class PaddleRunLog;
class Program;
struct PaddleRunLogRecord;

/// Which op result of the programs that ran a run-log record shows.
struct RunLogMatch
{
    enum class How : unsigned char {
        None, ///< unmatched (see RunLogMatcher::Result::unmatchedReasons)
        Name, ///< by the variable's name (middle_0, param_grad_1, a parameter, a kwarg)
        InnerIndex, ///< by `<prefix>_inner_var_N`: the N-th variable Paddle's scope created
        Position, ///< by op kind and element count near the last match (names did not resolve)
    };
    How how = How::None;
    int program = -1; ///< index into the matcher's programs
    const Operation *op = nullptr; ///< the op that computed the record's tensor
    Value value; ///< the op result whose statistics the record shows
};

/// Maps the records of a Paddle run log (PaddleRunLog) to the op results of the programs that
/// ran: run_program's forward then backward program (or one inference program), as Paddle's
/// PirInterpreter names their variables.
///
/// Names: a variable is named by its value's name (parameter_name, data name, shadow-output
/// names, kwarg keys: ValueNames) or `<interpreter prefix>_inner_var_N`, N counting the
/// variables BuildScope created before it in that program's top block (kwargs and arguments
/// first, then every op result except builtin.split/slice results, which alias the combine's, and
/// results of null type).
/// Each interpreter has its own prefix; the first record of a prefix that resolves binds it to a
/// program. An inplace op prints its result twice, under its own name and under the name of the
/// operand it overwrote: both map to the result. The kernel name must agree with the op's name
/// up to the inplace `_` (Paddle's inplace_pass turns `add` into `add_`).
///
/// Records whose names do not resolve (ops inside control-flow regions, a program lowered with
/// extra transfer ops) fall back to the next op of the same kind and element count after the
/// last match in the same program (within a window), marked How::Position. Records that match
/// nothing (eager ops outside the programs such as the `full_like` of the output gradient, a log
/// of another program) stay unmatched with a reason: nothing is guessed beyond the window.
/// O(records + values).
class RunLogMatcher
{
public:
    struct Input
    {
        std::string label; ///< "fwd", "bwd"
        const Program *program = nullptr;
    };
    struct Result
    {
        std::vector<RunLogMatch> matches; ///< one per log record
        size_t matched = 0;
        size_t byName = 0;
        size_t byInnerIndex = 0;
        size_t byPosition = 0;
        /// Why records stayed unmatched, with how many and the first record's index.
        struct Unmatched
        {
            size_t count = 0;
            size_t firstRecord = 0;
        };
        std::map<std::string, Unmatched> unmatchedReasons;
        /// Per record: 1 + the index of its reason in `reasonTexts`, 0 when it matched (4 bytes
        /// a record; the texts are kept once).
        std::vector<uint32_t> reasonOf;
        std::vector<std::string> reasonTexts;

        /// Why record `record` stayed unmatched; "" when it matched.
        const std::string &reason(size_t record) const;
    };

    explicit RunLogMatcher(std::vector<Input> programs);
    ~RunLogMatcher();
    RunLogMatcher(const RunLogMatcher &) = delete;
    RunLogMatcher &operator=(const RunLogMatcher &) = delete;

    Result match(const PaddleRunLog &log) const;

    const std::vector<Input> &programs() const { return m_inputs; }
    /// "fwd:12" (top-level op index), "fwd:12/0:3" inside regions.
    std::string opLabel(const RunLogMatch &match) const;
    /// The printer's id of the matched value ("%30", "%kwarg_x").
    std::string valueLabel(const RunLogMatch &match) const;
    /// The variables Paddle's BuildScope creates for `program`'s top block, in creation order:
    /// `<prefix>_inner_var_N` names element N (see the class comment).
    static std::vector<Value> scopeVariables(const Program &program);
    /// Whether kernel `kernel` (a record's op) can be the op `opName` ("pd_op.add" for "add_").
    static bool sameKernel(std::string_view kernel, std::string_view opName);

private:
    struct Indexed;
    std::vector<Input> m_inputs;
    std::vector<std::unique_ptr<Indexed>> m_indexed;
};

} // namespace ps
