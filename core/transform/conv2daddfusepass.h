#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `conv2d_add_fuse_pass` (its cuDNN pattern; the CUTLASS one needs
/// `use_cutlass` and an sm75-86 GPU): `add(conv2d(x, w), b)` becomes
/// `fused_conv2d_add_act(x, w, b)` with activation "identity" and `__force_backend__` "gpudnn"
/// when b is persistable (computed from parameters and constants only) and does not have as
/// many elements as the conv result (-1 dims count as -1), the filter is f16/f32/f64, padding
/// explicit/same/valid, groups >= 1 and the layout NCHW or AnyLayout.
class Conv2dAddFusePass : public PatternRewritePass
{
public:
    Conv2dAddFusePass();
};

} // namespace ps
