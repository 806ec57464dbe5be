#pragma once

#include "core/ir/diagnostic.h"
#include "core/transform/vjprules.h"

namespace ps {

class Block;
class GradOpBuilder;
class Operation;
class Program;

/// Adds the VJP rules of the control-flow ops: `pd_op.if` (an empty grad `pd_op.if` on the same
/// condition, one result per differentiable input; the walker fills its blocks), `pd_op.while`
/// (`cf.has_elements` on the stack of the body's last `cf.tuple_push`, then a grad `pd_op.while`
/// carrying the gradients of the differentiable loop variables) and `cf.tuple_push` (the
/// matching `cf.tuple_pop`).
void addControlFlowVjpRules(std::unordered_map<std::string_view, VjpRule> &rules);

/// Paddle's `build_pipe_for_block`: a `cf.stack_create` at the start of the program's top block,
/// and before the block's `cf.yield` a `cf.tuple_push` of the block arguments and of every
/// result of the block's ops.
void buildPipeForBlock(Program &program, Block &block);

/// Paddle's `cf_has_elements(while_op)`: `cf.has_elements` on the stack fed by the last
/// `cf.tuple_push` of the while body. Null (with an error) when there is none.
Value buildHasElements(GradOpBuilder &builder, Operation &whileOp, DiagnosticList &diagnostics);

} // namespace ps
