#pragma once

#include "core/transform/pass.h"

namespace ps {

class Block;
class Operation;

/// Dead-code elimination, after Paddle's `dead_code_elimination_pass`: repeatedly erases ops whose
/// results are all unused, top block first, then nested blocks, until nothing changes. Kept:
/// ops with side effects (hasSideEffect), ops without results, `pd_op.data`/`pd_op.feed`,
/// inplace ops (the `_` variants), custom ops, and control flow (any op with regions; Paddle
/// keeps only `pd_op.while`, so it may erase an unused `pd_op.if`). An unused
/// `builtin.parameter` is erased, as in Paddle. O(ops × rounds).
class DeadCodeElimination : public Pass
{
public:
    std::string_view name() const override { return "dead_code_elimination_pass"; }
    std::string_view alias() const override { return "dce"; }
    std::string_view description() const override { return "erase ops whose results are unused"; }
    size_t run(Program &program) override;

    /// Ops with Paddle's SideEffectTrait (shadow_output, set_parameter, fetch, print, yield,
    /// tuple_push, random ops, optimizer updates, ...), by name.
    static bool hasSideEffect(const Operation &op);
    /// Inplace `_` variants (registry InplaceTrait, also through an `op_name` attribute).
    static bool isInplace(const Operation &op);
    /// Whether this pass may erase `op` once its results are unused.
    static bool isRemovable(const Operation &op);

private:
    size_t eraseIn(Block &block);
};

} // namespace ps
