#pragma once

#include "core/ir/value.h"

#include <vector>

namespace ps {

class Operation;

/// The arguments of one `call_vjp(op, inputs, outputs, out_grads, stop_gradients)`, as
/// ir_backward.py prepares them. A `Tensor[]` input made by `builtin.combine` appears as the
/// list of the combine's operands; values are already mapped to their control-flow copies.
struct VjpCall
{
    Operation *op = nullptr;
    /// One entry per real input of `op` (operands, or the used external values of control flow).
    std::vector<std::vector<Value>> inputs;
    /// One entry per result of `op` (the results of its `builtin.split` for vector results).
    std::vector<std::vector<Value>> outputs;
    /// Gradient of each entry of `outputs`, same shape (null where there is none).
    std::vector<std::vector<Value>> outGrads;
    /// One entry per input with grad semantics, in input order: true where no gradient is wanted.
    std::vector<std::vector<bool>> stopGradients;
};

/// One entry per input with grad semantics: the gradient values (null where stopped).
using VjpResult = std::vector<std::vector<Value>>;

} // namespace ps
