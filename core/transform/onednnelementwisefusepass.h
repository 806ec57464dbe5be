#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `elementwise_act_onednn_fuse_pass`: an activation of an add, subtract or
/// multiply -> onednn_op.fused_elementwise_add/sub/mul with fuse_activation (abs, sqrt, mish,
/// relu, sigmoid, tanh, relu6, hard_swish, swish, leaky_relu with a positive slope,
/// hard_sigmoid, gelu_erf/gelu_tanh, clip between two `full` values), the elementwise result
/// read by the activation only. Checked against Paddle's IR-debug dumps
/// (tests/fixtures/onednn_passes): it also fuses the add + sqrt of the batch-norm folding.
class OneDnnElementwiseFusePass : public PatternRewritePass
{
public:
    OneDnnElementwiseFusePass();
};

} // namespace ps
