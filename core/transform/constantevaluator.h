#pragma once

#include <string>
#include <vector>

namespace ps {

class Operation;

/// The values behind constant_folding_pass (Paddle runs the op in its parameter scope): computes
/// `op`, whose operands are all `builtin.parameter` / `builtin.constant` values (or a
/// `builtin.combine` of them), and keeps each result under `resultNames[i]` so later folds and
/// the folded program can read it by that name. Paddle also erases an operand's tensor from its
/// scope when the folded op was its only reader; an evaluator keeps it, because the parameter op
/// stays in the program until dead_code_elimination_pass. Implemented by core/session
/// (ParameterStoreEvaluator); transform only sees this interface.
class ConstantEvaluator
{
public:
    virtual ~ConstantEvaluator() = default;
    /// False with `error` set when an operand has no value or the op cannot run.
    virtual bool fold(const Operation &op, const std::vector<std::string> &resultNames, std::string &error)
        = 0;
};

} // namespace ps
