#pragma once

#include "core/transform/patternrewritepass.h"

#include <memory>
#include <string_view>

namespace ps {

/// The convolution passes of Paddle 3.3.1's oneDNN pipeline (kPirMkldnnPasses), each a
/// pattern set checked against Paddle's IR-debug dumps (tests/fixtures/onednn_passes):
/// * `depthwise_conv_onednn_pass`: depthwise_conv2d -> conv2d (same attributes);
/// * `conv2d_bn_onednn_fuse_pass`: batch_norm_(conv2d(x, w)) -> onednn_op.fused_conv2d(x, w*s,
///   b - mean*s) with s = scale / sqrt(variance + eps) computed by new ops (constant folding
///   evaluates them later); the fused op keeps conv2d's attributes, struct_name included;
/// * `conv2d_bias_bn_onednn_fuse_pass`: the same through a conv bias add (a persistable per-
///   channel bias): bias' = (reshape(bias) - mean) * s + b;
/// * `conv2d_bias_fuse_pass`: add(conv2d(x, w), bias) with bias persistable -> fused_conv2d;
/// * `conv2d_transpose_bn_fuse_pass` / `conv2d_transpose_bias_bn_fuse_pass`: batch_norm_ of a
///   conv2d_transpose (through an add of a persistable [1] tensor) ->
///   onednn_op.conv2d_transpose_bias with the batch norm folded into new filter and bias ops;
/// * `conv2d_transpose_bias_fuse_pass`: add(conv2d_transpose, bias) with bias persistable ->
///   onednn_op.conv2d_transpose_bias for a 1-D bias, a second persistable 1-D add folded into
///   the bias (a traced Conv2DTranspose's bias, reshaped to [1, C, 1, 1], is left);
/// * `conv3d_bias_fuse_pass`: add(conv3d, bias) with bias persistable -> onednn_op.fused_conv3d;
/// * `conv_elementwise_add_onednn_fuse_pass`: add(conv, r) or add(r, conv) with r of the conv
///   result's shape -> fused_conv2d with r as its residual (a oneDNN sum post-op), from conv2d or
///   from a fused_conv2d with a bias and neither activation nor residual;
/// * `conv_activation_mkldnn_fuse_pass`: an activation of a conv2d, or of a fused_conv2d without
///   one -> fused_conv2d with fuse_activation (abs, sqrt, mish, relu, sigmoid, tanh, relu6,
///   hard_swish, swish, leaky_relu with a positive slope, hard_sigmoid, gelu_erf/gelu_tanh, clip).
/// Every intermediate result must have one use (DRR's rule), padding must be explicit, same or
/// valid, groups >= 1.
class OneDnnConvFusePass : public PatternRewritePass
{
public:
    /// The pass of that Paddle name, or nullptr when it is not one of the above.
    static std::unique_ptr<OneDnnConvFusePass> create(std::string_view name);

private:
    OneDnnConvFusePass(std::string name, std::string alias, std::string description);
};

} // namespace ps
