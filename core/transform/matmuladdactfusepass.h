#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `matmul_add_act_fuse_pass` without `use_cutlass` (its GemmEpilogue patterns
/// need CUTLASS):
/// * `add(matmul(x, w), y)` becomes `pd_op.fc(x, w, y)` with in_num_col_dims = rank(x) - 1 when
///   w is a 2-D f16/f32/f64 tensor, rank(x) >= 2, neither operand is transposed, x's last dim is
///   w's first, and y is [N] or [1, N] with N = w's second dim;
/// * `relu(fc(...))` of an fc without activation becomes that fc with activation_type "relu".
class MatmulAddActFusePass : public PatternRewritePass
{
public:
    MatmulAddActFusePass();
};

} // namespace ps
