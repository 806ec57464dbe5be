#pragma once

#include "core/ir/value.h"

#include <optional>

namespace ps {

// Paddle keeps a value's stop_gradient flag in the `stop_gradient` array attribute of its
// defining op (one Bool per result) and in block-argument attributes (Block::valueAttributes).
// PIR JSON drops block-argument attributes and the PIR text drops the attributes of pd_op.while,
// so where they are missing they are re-derived the way WhileOp::Build sets them: from the while
// operand (an explicit flag, false when it has none).

/// Python's `value.stop_gradient`: true unless an explicit false is recorded (null values: true).
bool valueStopGradient(Value value);

/// The recorded flag, or nullopt when the value has none (Paddle's `value.attribute("stop_gradient")`).
std::optional<bool> explicitStopGradient(Value value);

/// True when the value carries an explicit stop_gradient=false (what Paddle's
/// PassStopGradientsDefaultly looks for in an op's operands).
bool hasExplicitFalseStopGradient(Value value);

/// The flag as Paddle's PassStopGradientsDefaultly reads it when it builds an op: the defining op's
/// `stop_gradient` entry for `value`; true when there is none (a block argument, no array, too
/// short an array, or not a Bool there).
bool stopGradientOf(Value value);

/// `value.stop_gradient = flag`: for an op result sets the element of the defining op's
/// stop_gradient array, growing the array with null entries as Paddle does; for a block argument
/// or kwarg its `stop_gradient` attribute. No-op for a null value.
void setValueStopGradient(Value value, bool flag);

} // namespace ps
