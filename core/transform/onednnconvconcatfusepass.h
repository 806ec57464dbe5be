#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `conv_concat_activation_mkldnn_fuse_pass`: an activation of a concat of 1 to 6
/// convolutions, each read by the concat only -> the activation fused into every convolution
/// (onednn_op.fused_conv2d with fuse_activation: abs, sqrt, mish, relu, sigmoid, tanh, relu6,
/// hard_swish, swish, leaky_relu with a positive slope, hard_sigmoid, gelu_erf/gelu_tanh, clip
/// between two `full` values) and a new concat of their results. The convolutions are conv2d
/// ops, or all fused_conv2d ops without an activation; for the latter Paddle 3.3.1's pass fails
/// (its constraint reads an attribute `fuse_activation` the pattern never binds, so the
/// predictor cannot be created) and PIRScope fuses as the pass means to. Checked against
/// Paddle's IR-debug dumps (tests/fixtures/onednn_passes/conv_variants).
class OneDnnConvConcatFusePass : public PatternRewritePass
{
public:
    OneDnnConvConcatFusePass();
};

} // namespace ps
