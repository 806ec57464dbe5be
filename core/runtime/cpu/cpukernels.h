#pragma once

namespace ps {

class KernelRegistry;

// The CPU kernels, by family; createCpuBackend() calls each once. Every kernel handles the
// dtypes Paddle's CPU kernel registers for it (at least float32 and float64; int types where
// the op is defined on them) and throws RuntimeError for the others.

/// Unary/binary elementwise ops with NumPy broadcasting, activations, comparisons, logical ops,
/// cast, scale, clip, full/full_like/full_int_array/arange/assign_value_, where.
void registerCpuElementwiseKernels(KernelRegistry &registry);
/// reshape, flatten, squeeze, unsqueeze, transpose, concat, split, split_with_num, slice, stack,
/// tile, flip, gather_nd, shape64, assign, set_value_, embedding, expand.
void registerCpuShapeKernels(KernelRegistry &registry);
/// matmul (BLAS), conv2d, depthwise_conv2d, conv2d_transpose (im2col + BLAS), pool2d, batch_norm_,
/// layer_norm, softmax, dropout, nearest/bilinear interp, grid_sample, topk,
/// cross_entropy_with_softmax; reductions mean, sum, max, min, prod.
void registerCpuNnKernels(KernelRegistry &registry);
/// The `*_grad` ops the autodiff emits (add_n, which sums gradients, is an elementwise kernel).
void registerCpuGradKernels(KernelRegistry &registry);

/// Every plain CPU kernel (the families above and the fused ops), built once: the registry of
/// the cpu-plain backend, and where a oneDNN kernel hands the cases it does not take.
const KernelRegistry &plainCpuKernels();

} // namespace ps
