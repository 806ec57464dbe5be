#pragma once

#include "core/runtime/programrunner.h"
#include "core/session/runlogcomparison.h"

#include <optional>
#include <string>

namespace ps {

struct DebugTarget;

/// What a float64 recomputation says about one disagreeing record.
struct RunLogVerdict
{
    std::string stat; ///< the statistic judged (the record's RunLogDifference::stat)
    double f64 = 0; ///< its value in the op recomputed in double
    double paddle = 0;
    double pirscope = 0;
    /// |side - f64| / (atol + rtol * scale): how far each side is from the double result.
    double paddleError = 0;
    double pirscopeError = 0;
    /// "pirscope" or "paddle": the side nearer to float64 (by more than 2x), else "tie".
    std::string closer;
};

/// The float64 referee (`verify --paddle-log LOG --referee f64`): reruns the target on the CPU up
/// to the op of a disagreeing record, takes PIRScope's operand values there, recomputes that op
/// alone with its floating-point operands widened to float64, and says whether Paddle's or
/// PIRScope's statistic is nearer to the double result, so that one side's float32 rounding is not
/// blamed on the other. The op's own computation is judged (its operands are PIRScope's). Costs a
/// run up to the op plus one kernel.
class RunLogReferee
{
public:
    /// Nullopt with `problem` set when the op cannot be recomputed in double (no CPU kernel for
    /// it, a kernel that keeps float32, the run stopping before it).
    static std::optional<RunLogVerdict> judge(const DebugTarget &target,
        const ProgramRunner::Options &options, const RunLogMatch &match, const RunLogDifference &difference,
        RunLogComparison::Tolerance tolerance, std::string &problem);
};

} // namespace ps
