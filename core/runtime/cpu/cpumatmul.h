#pragma once

#include "core/runtime/tensor.h"

#include <string>

namespace ps {

/// NumPy/Paddle matmul of two host tensors: the last two dims multiply (swapped first when
/// transposeX/transposeY), leading batch dims broadcast, a 1-D x is [1, K] and a 1-D y is [K, 1]
/// with that dim dropped from the result (transpose flags are ignored for 1-D operands). float32
/// and float64 through gemm() (BLAS), float16/bfloat16 computed in float32, int32/int64 in int64
/// loops. The result is a new host tensor of x's dtype. Throws RuntimeError naming `label` and
/// both shapes when they do not fit or the dtypes differ.
Tensor cpuMatmul(
    const Tensor &x, const Tensor &y, bool transposeX, bool transposeY, const std::string &label);

} // namespace ps
