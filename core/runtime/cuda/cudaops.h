#pragma once

// Tensor-level building blocks that several CUDA kernel files share (grads reuse forward
// pieces). Inputs must be device tensors of the runtime's device; results are new device
// tensors unless the name says "Into".

#include "core/runtime/cuda/cudanamespace.h"
#include "core/runtime/kernels/reducespec.h"
#include "core/runtime/tensor.h"

#include <cstdint>
#include <vector>

PS_CUDA_NAMESPACE_BEGIN

struct CudaRuntime;

namespace cuda {

enum class BinaryOp { Add, Subtract, Multiply, Divide, Maximum, Minimum, Pow, FloorDivide, Remainder };
using kernels::ReduceOp;

/// x <op> y with NumPy broadcasting; both operands must have the same dtype.
Tensor binary(CudaRuntime &rt, BinaryOp op, const Tensor &x, const Tensor &y);

/// A copy of `x` converted to `dtype` (the same handle when it already has that dtype).
Tensor cast(CudaRuntime &rt, const Tensor &x, DataType dtype);
/// x converted into `out` (same element count, any dtypes).
void castInto(CudaRuntime &rt, const Tensor &x, Tensor &out);
/// Every element of `t` set to `value` converted to its dtype.
void fill(CudaRuntime &rt, Tensor &t, double value);
/// A contiguous copy of `x` on the same device.
Tensor copy(CudaRuntime &rt, const Tensor &x);

/// out[i] = x[offset(i)] over the index space `sizes` (out is contiguous, row-major over
/// `sizes`) with x read at `base + sum coord_d * strides[d]` (elements; strides may be 0 or
/// negative). Transpose, slice, expand, tile and flip are all this.
void gatherInto(CudaRuntime &rt, const Tensor &x, Tensor &out, const std::vector<int64_t> &sizes,
    const std::vector<int64_t> &strides, int64_t base);
/// The converse: out[base + sum coord_d * strides[d]] = x[i] (out is not cleared).
void scatterInto(CudaRuntime &rt, const Tensor &x, Tensor &out, const std::vector<int64_t> &sizes,
    const std::vector<int64_t> &strides, int64_t base);
/// `x` with its dims permuted: out.shape[d] = x.shape[perm[d]].
Tensor permute(CudaRuntime &rt, const Tensor &x, const std::vector<int64_t> &perm);

/// Reduces `x` over the dims flagged in `reduce` (same rank as x) into `out`, which holds the
/// kept dims in order (any shape with that element count). `out` may have another dtype
/// (int64 for integer sums). Mean divides by the reduced element count.
void reduceInto(CudaRuntime &rt, const Tensor &x, const std::vector<bool> &reduce, ReduceOp op, Tensor &out);
/// Sums `x` down to `shape` (the gradient of a NumPy broadcast from `shape` to x's shape);
/// the same handle when the shapes already match.
Tensor sumToShape(CudaRuntime &rt, const Tensor &x, const std::vector<int64_t> &shape);

/// Row-major batched GEMM: C_b[M,N] = alpha * op(A_b) op(B_b) + beta * C_b for b < batch,
/// where op(A) is A^T when transA (A_b then stored K x M) and each operand's batch stride is in
/// elements (0 broadcasts it). Float32 computes in float32 (TF32 only if rt.allowTf32),
/// float16/bfloat16 in float32, float64 in float64. `cDtype` Float32 with half operands stores
/// C in float32 (accumulating across calls without rounding to the half type).
void gemm(CudaRuntime &rt, DataType dtype, bool transA, bool transB, int64_t M, int64_t N, int64_t K,
    const void *A, int64_t strideA, const void *B, int64_t strideB, void *C, int64_t strideC, int64_t batch,
    double alpha = 1.0, double beta = 0.0, DataType cDtype = DataType::Undefined);
/// Paddle matmul on operands of rank >= 2: batch dims broadcast, result [batch..., M, N].
Tensor matmul(CudaRuntime &rt, const Tensor &x, const Tensor &y, bool transX, bool transY);

} // namespace cuda
PS_CUDA_NAMESPACE_END
