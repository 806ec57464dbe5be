#pragma once

// The shapes of one matmul as both backends read them (host code): Paddle's 1-D promotion (x [K]
// is a row [1, K], y [K] a column [K, 1], their transpose flags dropped) and NumPy broadcasting
// of the batch dims. The CPU loops over the batch with a BLAS; CUDA maps it onto cuBLAS
// (strided-batched when the batch reduces to one stride).

#include <cstdint>
#include <string>
#include <vector>

namespace ps {

struct MatmulSpec
{
    std::vector<int64_t> xs, ys; ///< operand shapes after 1-D promotion
    bool tx = false, ty = false; ///< transpose flags that apply (false for a promoted vector)
    int64_t m = 1, n = 1, k = 1;
    std::vector<int64_t> outBatch; ///< the broadcast batch dims
    std::vector<int64_t> xDims, yDims; ///< x's and y's batch dims aligned to outBatch (1: broadcast)
    std::vector<int64_t> outShape; ///< outBatch + [m] + [n], without the dims a vector dropped

    /// Matrices in the output (the product of outBatch).
    int64_t batches() const;
};

/// The spec of x @ y; RuntimeError "LABEL: x [2, 3] and y [4, 5] do not fit: WHY" on a 0-d
/// operand, different contracted dims or batch dims that do not broadcast.
MatmulSpec matmulSpec(
    const std::vector<int64_t> &x, const std::vector<int64_t> &y, bool tx, bool ty, const std::string &label);

/// Matrix offset of output batch entry `b` in an operand with aligned batch `dims`.
int64_t matmulBatchOffset(int64_t b, const std::vector<int64_t> &dims, const std::vector<int64_t> &outBatch);

/// The stride (in elements, `matrix` per matrix) between an operand's consecutive batch entries
/// when one stride serves the whole output batch: 0 for a single matrix shared by every entry,
/// `matrix` when the operand holds the whole batch; -1 otherwise (a partial broadcast).
int64_t matmulUniformStride(
    const std::vector<int64_t> &dims, const std::vector<int64_t> &outBatch, int64_t matrix);

} // namespace ps
