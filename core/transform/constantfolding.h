#pragma once

#include "core/transform/pass.h"

#include <memory>
#include <string>
#include <vector>

namespace ps {

class ConstantEvaluator;
class Operation;

/// Paddle 3.3.1's `constant_folding_pass`: an op whose inputs are all parameters or constants
/// (or a `builtin.combine` of them used once) is computed ahead of time and replaced by what
/// Paddle makes of its results, inserted at the start of the top block:
///
/// * `builtin.parameter {parameter_name: "constant_folding@_N", persistable: [true],
///   stop_gradient: [false]}` when every user may read a tensor (inference mode);
/// * `builtin.constant {value: "constant_folding@_N", persistable: [true]}` when a user takes it as
///   an IntArray or Scalar input (`reshape`'s shape, `scale`'s scale), through a combine/stack
///   whose users do, or in train mode (`train_mode`: only ops whose operands are all constants
///   fold, ops without operands such as `full` included).
///
/// Not folded: ops with side effects, data/feed/parameter/constant/assign_value, control flow
/// (Paddle would run an `if` on constant operands; PIRScope leaves it), non-dense-tensor
/// inputs or results, results read by `pd_op.while`, a `full` read by `full_with_tensor` or
/// `linspace`. Ops are visited in program order (nested blocks included, as Paddle's top-down
/// greedy driver does), repeated until nothing folds (at most 10 rounds). The folded ops are
/// erased; parameters that lose their last user stay for dead_code_elimination_pass, as in Paddle.
///
/// Names: Paddle writes `constant_folding@_<clock reading><N>`; PIRScope writes
/// `constant_folding@_<N>` (N counts from 0 per run) so a pipeline gives the same names every
/// time. The values come from the ConstantEvaluator; without one the program is rewritten and
/// the folded parameters have no values (description() says so).
class ConstantFolding : public Pass
{
public:
    explicit ConstantFolding(std::shared_ptr<ConstantEvaluator> evaluator = nullptr, bool trainMode = false);
    ~ConstantFolding() override;

    std::string_view name() const override { return "constant_folding_pass"; }
    std::string_view alias() const override { return "fold"; }
    std::string_view description() const override;
    size_t run(Program &program) override;

    /// Whether Paddle's pattern matches `op` (inference mode unless `trainMode`).
    static bool matches(const Operation &op, bool trainMode = false);
    /// Names of the parameters/constants the last run created, in creation order.
    const std::vector<std::string> &createdNames() const { return m_created; }
    /// Ops the evaluator could not compute in the last run ("pd_op.foo: message"); they stay.
    const std::vector<std::string> &failures() const { return m_failures; }
    /// The failures, as "pd_op.foo not folded: message".
    std::vector<std::string> takeNotes() override;

private:
    bool fold(Operation &op, Program &program);

    std::shared_ptr<ConstantEvaluator> m_evaluator;
    bool m_trainMode;
    size_t m_suffix = 0;
    std::vector<std::string> m_created;
    std::vector<std::string> m_failures;
};

} // namespace ps
