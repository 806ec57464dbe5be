#pragma once

#include <string>

namespace ps {

class KernelRegistry;

// The CPU kernels that run through oneDNN (built only with PIRSCOPE_HAVE_DNNL). Each takes the
// float32 cases oneDNN computes as Paddle's oneDNN kernels do and hands every other case (other
// dtypes, attributes oneDNN has no equivalent for, shapes it rejects) to the plain kernel of the
// same op (plainCpuKernels()), so registering them over the plain ones changes speed, not
// coverage. tests/tst_onednnkernels.cpp checks each path against the plain kernel.

/// conv2d, depthwise_conv2d (grouped), conv2d_transpose, depthwise_conv2d_transpose, and
/// fused_conv2d_add_act and onednn_op.fused_conv2d as one convolution (bias, residual sum and
/// activation as post-ops; an activation oneDNN has no exact post-op for goes to the reference
/// kernel, core/runtime/onednnfusedkernels.h). fc
/// runs its parts through the backend's kernels (KernelComposer), so it reaches matmul and add.
void registerOneDnnConvKernels(KernelRegistry &registry);
/// conv3d (grouped, NCDHW or NDHWC): onednn_op.fused_conv3d reaches it through its reference
/// kernel.
void registerOneDnnConv3dKernels(KernelRegistry &registry);
/// matmul, pool2d, batch_norm (global statistics), layer_norm, softmax, transpose (a reorder).
void registerOneDnnNnKernels(KernelRegistry &registry);
/// add, subtract, multiply, divide (broadcasting one operand), the unary activations oneDNN
/// computes to float rounding (relu, relu6, sigmoid, tanh, hardswish, swish, silu, gelu,
/// leaky_relu, elu, exp, sqrt, abs, square; its log is 4e-5 off), nearest_interp where its
/// source indices are Paddle's.
void registerOneDnnElementwiseKernels(KernelRegistry &registry);

/// All of the above.
void registerOneDnnKernels(KernelRegistry &registry);

} // namespace ps
