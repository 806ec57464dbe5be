#pragma once

#include "core/transform/patternrewritepass.h"

#include <memory>
#include <string_view>

namespace ps {

/// The matmul and fc passes of Paddle 3.3.1's oneDNN pipeline, checked against its IR-debug
/// dumps (tests/fixtures/onednn_passes):
/// * `fc_onednn_enable_pass`: pd_op.fc (activation_type "" or relu, input of rank 2-4, a 4-D
///   one [N, C, 1, 1]) -> onednn_op.fc with the oneDNN attributes (activation_type kept);
/// * `scale_matmul_fuse_pass`: matmul of a scale (a positive `full` factor, no bias) -> fused_matmul
///   with matmul_alpha the factor;
/// * `matmul_elementwise_add_fuse_pass`: add(matmul(x, y), r) or add(r, matmul(x, y)), also from
///   a fused_matmul without a residual -> onednn_op.fused_matmul(x, y, r);
/// * `matmul_activation_fuse_pass`: an activation of a matmul, or of a fused_matmul without one
///   -> fused_matmul with fuse_activation;
/// * `fc_activation_fuse_pass`: an activation of an onednn_op.fc -> its fuse_activation.
/// The activations: abs, gelu (exact; gelu_tanh for the approximation), hard_sigmoid, hard_swish,
/// leaky_relu, mish, relu, relu6, sigmoid, sqrt, swish, tanh (and their `_` forms), clip between
/// two `full` values. Every intermediate result must have one use (DRR's rule).
class OneDnnMatmulFusePass : public PatternRewritePass
{
public:
    /// The pass of that Paddle name, or nullptr when it is not one of the above.
    static std::unique_ptr<OneDnnMatmulFusePass> create(std::string_view name);

private:
    OneDnnMatmulFusePass(std::string name, std::string alias, std::string description);
};

} // namespace ps
