#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `identity_op_clean_pass`, its seven patterns in Paddle's order:
/// * `scale(x, full(1))` with bias 0 is removed (its uses take x);
/// * two scales in a row become one `scale(x, full(v1*v2))` with the combined bias (float
///   arithmetic, bias after scale);
/// * a `cast` to the dtype it already has is removed;
/// * `concat` of a one-element `builtin.combine` is removed;
/// * `cast(cast(x, d1), d2)` becomes `cast(x, d2)` unless d1 is int64, int32 or bool;
/// * an inference `dropout` (is_test) with mode upscale_in_train is removed;
/// * an inference `dropout` with another mode becomes `scale(x, full(1 - p))`.
/// Inputs left without uses (the `full` of a removed scale, ...) are erased with the op.
class IdentityOpCleanPass : public PatternRewritePass
{
public:
    IdentityOpCleanPass();
};

} // namespace ps
