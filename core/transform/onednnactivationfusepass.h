#pragma once

#include "core/transform/patternrewritepass.h"

#include <memory>
#include <string_view>

namespace ps {

/// The activation fusions of Paddle 3.3.1's oneDNN pipeline outside convolutions, matmuls and
/// elementwise ops, each a DRR pattern set checked against Paddle's IR-debug dumps
/// (tests/fixtures/onednn_passes/norm_softplus):
/// * `batch_norm_act_fuse_pass`: relu(batch_norm(_)) in inference (is_test, statistics not
///   trainable, epsilon in [0, 0.001]) -> onednn_op.batch_norm(_) with fuse_with_relu;
/// * `softplus_activation_fuse_pass`: an activation of a softplus (abs, gelu (erf), gelu_tanh,
///   hard_sigmoid, hard_swish, leaky_relu, mish, relu, relu6, sigmoid, sqrt, swish, tanh, their
///   in-place forms, clip between two `full` values) -> onednn_op.fused_softplus with
///   fuse_activation.
/// The normalised or softplus result must be read by the activation only (DRR's rule).
class OneDnnActivationFusePass : public PatternRewritePass
{
public:
    /// The pass of that Paddle name, or nullptr when it is not one of the above.
    static std::unique_ptr<OneDnnActivationFusePass> create(std::string_view name);

private:
    OneDnnActivationFusePass(std::string name, std::string alias, std::string description);
};

} // namespace ps
