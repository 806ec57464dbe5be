#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `conv2d_add_act_fuse_pass`, its patterns in Paddle's order:
/// * `relu(add(r, add(conv2d(x, w), b)))` becomes `fused_conv2d_add_act(x, w, b, r)` (hand-
///   written in Paddle: the fused op keeps all conv2d attributes, struct_name included);
/// * `relu(add(conv2d(x, w), b))` becomes `fused_conv2d_add_act(x, w, b)` (a DRR pattern in
///   Paddle 3.3.1: conv2d's YAML attributes plus `__force_backend__` "gpudnn");
/// with activation "relu", when b is persistable and has not as many elements as the conv
/// result, every intermediate result has one use, padding is explicit/same/valid, the layout
/// NCHW/NHWC/AnyLayout and groups >= 1. Paddle adds tanh and sigmoid only for cuDNN < 8.7;
/// its 3.3.1 wheels (CPU, and GPU with cuDNN 9) fuse relu only, and so does this pass.
class Conv2dAddActFusePass : public PatternRewritePass
{
public:
    Conv2dAddActFusePass();
};

} // namespace ps
