#pragma once

#include "core/ir/type.h"
#include "core/ir/value.h"

#include <string_view>
#include <vector>

namespace ps {

class Operation;

/// What Paddle 3.3.1's transfer_layout_pass asks of each op (its LayoutTransformationInterface
/// and the ImmutableLayoutTrait), as PIRScope's TransferLayoutPass needs it. Facts from
/// paddle/fluid/pir/dialect/operator/interface/layout_transformation.{hpp,cc} and the op list of
/// Paddle 3.3.1's generated pd_op.h, corrected where Paddle 3.3.1 was measured to behave
/// otherwise (tools/make_layout_pass_fixtures.py):
/// * only these ops ever join an NHWC region: pd_op.fused_conv2d_add_act,
///   pd_op.add_group_norm_silu, pd_op.conv2d_transpose and pd_op.pool2d (when they prefer NHWC
///   and are not NHWC yet), pd_op.add (operands of equal rank), pd_op.multiply, pd_op.silu,
///   pd_op.swish and pd_op.assign. Measured: relu, sigmoid, tanh, hardswish, hardsigmoid, gelu,
///   exp, scale, subtract, divide, maximum, cast and concat stay NCHW between two NHWC convs,
///   although Paddle's generic CanBeModified would let them move. pd_op.conv2d never moves.
/// * pd_op.pool2d prefers NHWC per its kernel size, pooling type, channels and spatial size
///   (PreferLayoutImpl<Pool2dOp>), except that a 2x2 kernel was measured to prefer NCHW.
namespace layoutrules {

/// The op has Paddle's LayoutTransformationInterface (its relevant inputs and outputs skip null
/// values and empty vectors; other ops count every operand and result).
bool hasInterface(std::string_view opName);

/// pd_op.fetch, pd_op.feed, builtin.shadow_output: their layout never changes.
bool hasImmutableLayout(std::string_view opName);

/// The operands whose layout matters (RelevantInputs), in Paddle's order; may hold null values
/// for ops without the interface.
std::vector<Value> relevantInputs(const Operation &op);
/// The results whose layout matters (RelevantOutputs).
std::vector<Value> relevantOutputs(const Operation &op);

/// PreferLayout(op) == NHWC.
bool prefersNhwc(const Operation &op);

/// CanBeModified(op) as measured on Paddle 3.3.1 (see above).
bool canBeModified(const Operation &op);

/// RewriteByLayout(op, NHWC): `data_format` becomes "NHWC" where the op has one, and every
/// relevant 4-D result gets NHWC dims and layout (the results' InferMeta on NHWC operands).
/// Concat and argmax (an axis from a pd_op.full) are not among the ops that move, so no operand
/// producer is edited.
void rewriteToNhwc(Operation &op);

/// The permutation Paddle's layout_to_perm(from, to) gives for two of "NCHW"/"NHWC".
std::vector<int64_t> permutation(std::string_view from, std::string_view to);

/// `type` with its dims permuted by `perm` and layout `layout` (other fields kept).
Type permuted(Type type, const std::vector<int64_t> &perm, std::string layout);

} // namespace layoutrules

} // namespace ps
