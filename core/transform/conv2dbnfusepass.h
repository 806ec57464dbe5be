#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `conv2d_bn_fuse_pass` (hand-written patterns, in Paddle's order):
/// * `pd_op.batch_norm` becomes `pd_op.batch_norm_` with the same operands and attributes
///   (only when its other results are unused: Paddle would fail erasing it otherwise);
/// * `batch_norm_(conv2d(x, w))` with inference statistics folds into the convolution. The
///   folding is written as ops for constant folding to evaluate later:
///   `s = scale / sqrt(variance + full(eps))`, `conv2d(x, w * reshape(s, [C,1,1,1]))
///   + reshape(bias - mean * s, [1,C,1,1])` (an f16 filter is scaled in f32 between two casts).
///   Conditions: explicit/same/valid padding, NCHW/NHWC/AnyLayout, groups >= 1, the conv
///   result used only by the batch norm, the batch norm's other results unused,
///   0 <= epsilon <= 0.001.
class Conv2dBnFusePass : public PatternRewritePass
{
public:
    Conv2dBnFusePass();
};

} // namespace ps
