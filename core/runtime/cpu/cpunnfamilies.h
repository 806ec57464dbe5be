#pragma once

namespace ps {

class KernelRegistry;

// The parts of registerCpuNnKernels (cpukernels.h), one per cpu<topic>kernels.cpp file.

/// matmul, bmm (cpumatmulkernels.cpp).
void registerCpuMatmulKernels(KernelRegistry &registry);
/// conv2d, depthwise_conv2d, conv2d_transpose (cpuconvkernels.cpp).
void registerCpuConvKernels(KernelRegistry &registry);
/// conv3d (cpuconv3dkernels.cpp).
void registerCpuConv3dKernels(KernelRegistry &registry);
/// pool2d (cpupoolkernels.cpp).
void registerCpuPoolKernels(KernelRegistry &registry);
/// batch_norm, batch_norm_, layer_norm, group_norm, instance_norm (cpunormkernels.cpp).
void registerCpuNormKernels(KernelRegistry &registry);
/// softmax, softmax_, log_softmax, cross_entropy_with_softmax (cpusoftmaxkernels.cpp).
void registerCpuSoftmaxKernels(KernelRegistry &registry);
/// dropout (cpudropoutkernels.cpp).
void registerCpuDropoutKernels(KernelRegistry &registry);
/// nearest_interp, bilinear_interp, grid_sample (cpuimagekernels.cpp).
void registerCpuImageKernels(KernelRegistry &registry);
/// mean, sum, max, min, prod, all, any, p_norm, logsumexp (cpureducekernels.cpp).
void registerCpuReduceKernels(KernelRegistry &registry);
/// argmax, argmin, topk, cumsum (cpuindexkernels.cpp).
void registerCpuIndexKernels(KernelRegistry &registry);

} // namespace ps
