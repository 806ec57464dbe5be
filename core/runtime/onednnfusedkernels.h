#pragma once

#include <string>

namespace ps {

class KernelComposer;
class KernelRegistry;
class Tensor;

/// Reference kernels of the ops Paddle's oneDNN fusion passes make (onednn_op.fused_conv2d, ...),
/// composed from the unfused ops' kernels of the same backend (KernelComposer) in the unfused
/// order, so on the plain CPU device they give the unfused program's numbers: the oracle the
/// oneDNN kernels (core/runtime/onednn) are checked against. Called by registerFusedKernels().
void registerOneDnnFusedKernels(KernelRegistry &registry);

/// `fuse_activation` of a oneDNN fused op applied to `x` through the activation's own kernel:
/// "" (none), abs, sqrt, mish, relu, sigmoid, tanh, relu6, hard_swish, swish, leaky_relu (slope
/// alpha), hard_sigmoid (slope alpha, offset beta), gelu/gelu_erf, gelu_tanh, clip (alpha to beta).
/// Throws RuntimeError naming any other.
Tensor applyFusedActivation(
    KernelComposer &k, const Tensor &x, const std::string &name, double alpha, double beta);

} // namespace ps
