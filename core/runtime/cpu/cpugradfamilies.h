#pragma once

// Internal to the CPU grad kernels: registerCpuGradKernels() calls one function per topic file
// (cpugrad<topic>kernels.cpp).

namespace ps {

class KernelRegistry;

/// add/subtract/multiply/divide/maximum/minimum/where/elementwise_pow grads (add_n is a shared creation kernel).
void registerCpuGradBinaryKernels(KernelRegistry &registry);
/// Unary activation grads (relu, gelu, tanh, sigmoid, silu, swish, hardswish, sin, cos, exp, ...).
void registerCpuGradActivationKernels(KernelRegistry &registry);
/// matmul_grad, bmm_grad.
void registerCpuGradMatmulKernels(KernelRegistry &registry);
/// conv2d_grad, depthwise_conv2d_grad, conv2d_transpose_grad.
void registerCpuGradConvKernels(KernelRegistry &registry);
/// pool2d_grad, nearest_interp_grad, bilinear_interp_grad.
void registerCpuGradPoolKernels(KernelRegistry &registry);
/// layer_norm_grad, batch_norm_grad, instance_norm_grad, group_norm_grad.
void registerCpuGradNormKernels(KernelRegistry &registry);
/// mean/sum/mean_all/max/min/logsumexp/cumsum/softmax/log_softmax grads.
void registerCpuGradReduceKernels(KernelRegistry &registry);
/// reshape/flatten/squeeze/unsqueeze/transpose/concat/split/stack/slice/set_value/pad3d/pad/cast grads.
void registerCpuGradShapeKernels(KernelRegistry &registry);
/// gather/index_select/gather_nd/topk/embedding/tile/expand grads.
void registerCpuGradIndexKernels(KernelRegistry &registry);
/// cross_entropy_with_softmax_grad, sigmoid_cross_entropy_with_logits_grad, dropout_grad.
void registerCpuGradLossKernels(KernelRegistry &registry);

} // namespace ps
