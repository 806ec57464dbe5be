#pragma once

#include "core/runtime/cuda/cudanamespace.h"

namespace ps {
class KernelRegistry;
}

PS_CUDA_NAMESPACE_BEGIN

// The CUDA kernels by file; CudaBackend registers each family once. Names and semantics are
// those of the CPU kernels (cpu/cpukernels.h), which are the oracle; many are the very same
// shared kernels (core/runtime/kernels) run on CUDA grids. An op without a CUDA kernel is absent
// from the registry (the interpreter then runs it on the CPU, marked as a fallback).

/// Unary and binary elementwise ops, cast, where, tensor creation (full, arange, assign, add_n,
/// ...) and the activation grads: all shared kernels (cudaelementwisekernels.cu).
void registerCudaElementwiseKernels(KernelRegistry &registry);
/// cudaunarykernels.cu: the unary functors of kernels/unaryfunctors.h (one file each, so the
/// template-heavy instantiations compile in parallel and in bounded memory).
void registerCudaUnaryKernels(KernelRegistry &registry);
/// cudaactivationgradkernels.cu: the activation grads of kernels/activationgradfunctors.h.
void registerCudaActivationGradKernels(KernelRegistry &registry);
/// Layout (reshape family, transpose, concat, split, stack, tile, expand, flip) and indexing
/// (slice, set_value, gather, index_select, gather_nd, embedding, one_hot, shape): shared kernels.
void registerCudaShapeKernels(KernelRegistry &registry);
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
/// argmax, argmin, cumsum, topk (a thread per lane), dropout and dropout_grad: shared kernels.
void registerCudaLaneKernels(KernelRegistry &registry);
/// nearest_interp, bilinear_interp and grid_sample: shared kernels.
void registerCudaImageKernels(KernelRegistry &registry);
/// Binary elementwise grads (add/subtract/multiply/divide/maximum/minimum/pow/where), reduction
/// grads (sum/mean/max/min), layout grads (reshape family, transpose, concat, split, stack, slice,
/// expand, tile, cast) and embedding_grad.
void registerCudaGradKernels(KernelRegistry &registry);

PS_CUDA_NAMESPACE_END
