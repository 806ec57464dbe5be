#pragma once

#include "core/ir/diagnostic.h"
#include "core/ir/value.h"

#include <vector>

namespace ps {

class Operation;
class Program;

/// The grad ops autodiff emitted for one forward op of the top block: its VJP ops, the sums of
/// its output gradients, or the grad op of a control-flow op.
struct GradOpGroup
{
    const Operation *forward = nullptr;
    std::vector<const Operation *> grads;
};

/// The gradients `Autodiff::grad` computed, one per requested input (null: no gradient).
struct GradResult
{
    std::vector<Value> grads;
    /// Top-level forward op → its grad ops still in the program after pruning, walk order;
    /// forward ops without grad ops are absent.
    std::vector<GradOpGroup> gradOps;
    DiagnosticList diagnostics;

    bool ok() const { return !diagnostics.hasErrors(); }
};

/// Reverse-mode autodiff on a PIR program, reproducing Paddle 3.3.1's
/// `paddle.autograd.ir_backward.grad` with prim off (PADDLE_PIR.md §6): the backward ops are
/// appended to the end of the program's top block exactly as Paddle appends them (same ops, same
/// order, same attributes), so the result can be compared with a `train_program` Paddle printed.
///
/// Steps as in `calc_gradient_helper`: values with stop_gradient join the no-grad set; missing
/// seeds become `full` + `full_like(1.0)` and the other results of the outputs' ops get zero
/// gradients; forward ops not on a path inputs → outputs are pruned (not for inplace nets); ops
/// are walked in reverse topological order and their VJP rules (VjpRules) emit Paddle's grad
/// ops, several gradients of one value are summed with `builtin.combine` + `pd_op.add_n`, missing
/// output gradients are `full_like(0.0)`; `pd_op.if` / `pd_op.while` get grad ops whose blocks
/// are filled recursively (with `cf.stack_create` / `cf.tuple_push` / `cf.tuple_pop` pipes);
/// finally backward ops that lead nowhere and unused `full_like` ops are removed.
///
/// Errors (an op without a grad op: "op '<name>' has no grad op, consider enable prim to
/// decompose it.", an op whose VJP PIRScope lacks: "op '<name>' has no VJP rule in PIRScope")
/// are diagnostics; like Paddle, the ops appended before the error stay in the program.
class Autodiff
{
public:
    /// `outputs` must be op results of the top block. `gradOutputs` are the seeds, one per output
    /// (empty: create them); `noGradSet` values get no gradient.
    static GradResult grad(Program &program, const std::vector<Value> &outputs,
        const std::vector<Value> &inputs, const std::vector<Value> &gradOutputs = {},
        const std::vector<Value> &noGradSet = {});
};

} // namespace ps
