#pragma once

namespace ps {

class KernelRegistry;

// The CUDA kernels by file; CudaBackend registers each family once. Names and semantics are
// those of the CPU kernels (cpu/cpukernels.h), which are the oracle; an op without a CUDA
// kernel is simply absent from the registry.

/// Binary arithmetic with broadcasting, comparisons, logical ops, where.
void registerCudaElementwiseKernels(KernelRegistry &registry);
/// Unary activations and math, predicates, pow, scale, clip, cast.
void registerCudaUnaryKernels(KernelRegistry &registry);
/// full, full_like, full_int_array, arange, assign, add_n.
void registerCudaTensorKernels(KernelRegistry &registry);
/// reshape/flatten/squeeze/unsqueeze (views), transpose, concat, split, stack, expand, tile, flip.
void registerCudaShapeKernels(KernelRegistry &registry);
/// slice, strided_slice, set_value, embedding, shape/shape64.
void registerCudaIndexingKernels(KernelRegistry &registry);
/// mean, sum, max, min, prod over axes.
void registerCudaReduceKernels(KernelRegistry &registry);
/// matmul and matmul_grad (cuBLAS).
void registerCudaMatmulKernels(KernelRegistry &registry);
/// conv2d, depthwise_conv2d and their grads (im2col + cuBLAS; direct depthwise).
void registerCudaConvKernels(KernelRegistry &registry);
/// pool2d and pool2d_grad.
void registerCudaPoolKernels(KernelRegistry &registry);
/// batch_norm(_), layer_norm and their grads.
void registerCudaNormKernels(KernelRegistry &registry);
/// softmax, softmax_grad, cross_entropy_with_softmax and its grad.
void registerCudaSoftmaxKernels(KernelRegistry &registry);
/// nearest_interp and bilinear_interp.
void registerCudaInterpKernels(KernelRegistry &registry);
/// Binary elementwise grads (add/subtract/multiply/divide/maximum/minimum/pow/where), reduction
/// grads (sum/mean/max/min), layout grads (reshape family, transpose, concat, split, stack, slice,
/// expand, tile, cast) and embedding_grad.
void registerCudaGradKernels(KernelRegistry &registry);
/// Activation grads (relu, tanh, sigmoid, gelu, silu, ... clip, pow).
void registerCudaActivationGradKernels(KernelRegistry &registry);

} // namespace ps
