#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `matmul_transpose_fuse_pass`: a transpose that swaps the last two axes (and
/// keeps the others) is folded into a matmul's transpose flags, in Paddle's pattern order:
/// * `transpose(matmul(x, y))` becomes `matmul(y, x)` with transpose_x = !transpose_y and
///   transpose_y = !transpose_x;
/// * `matmul(transpose(x), y)` becomes `matmul(x, y)` with transpose_x flipped;
/// * `matmul(x, transpose(y))` becomes `matmul(x, y)` with transpose_y flipped.
/// Both matmul operands must have rank >= 2. (Paddle's perm test accepts a permutation when
/// either of the last two entries is swapped, as here.)
class MatmulTransposeFusePass : public PatternRewritePass
{
public:
    MatmulTransposeFusePass();
};

} // namespace ps
