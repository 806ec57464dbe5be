#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `add_norm_fuse_pass`, its patterns in Paddle's order:
/// * a hand-written RMS norm, `multiply(multiply(rsqrt(scale(mean(pow(x), axis), full)), x), w)`
///   (optionally between an f32 cast of x and a cast back to w's f16/bf16 dtype), becomes
///   `pd_op.fused_rms_norm_quant(x, -, -, w, -)` with epsilon = the scale's bias and
///   begin_norm_axis = the one mean axis (-1: the last). As in Paddle 3.3.1 the pow exponent and
///   the scale factor are not checked;
/// * `fused_rms_norm_quant(add(x, r), ...)` takes the add in as its residual (residual_out
///   replaces the add's result), also when that result feeds one more add;
/// * `layer_norm(add(x, r), w, b)` becomes `fused_bias_residual_layernorm(x, -, r, cast(w),
///   cast(b))` (f32 casts; mean and variance become [rows] with rows the product of the dims
///   before begin_norm_axis, -1 dims included, as Paddle computes them) when r has x's shape,
///   also when the add's result feeds one more add;
/// * f16/bf16 only: `group_norm(add(x, r))` becomes `add_group_norm_silu(x, r, ...)`, and a
///   silu after it is folded in. Paddle 3.3.1's CPU build cannot trace these (f16 add), so they
///   follow Paddle's current source without a golden check.
/// Extra-add patterns come before the plain ones (benefit 4 vs 3).
class AddNormFusePass : public PatternRewritePass
{
public:
    AddNormFusePass();
};

} // namespace ps
