#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `self_attention_fuse_pass` (oneDNN pipeline; compiled into Paddle builds with
/// AVX512F, MKLML and oneDNN, as the x86 wheel is): ViT-style attention on a packed qkv,
/// transpose(x [B, S, 3, H, D]) sliced into q, k and v, softmax(q @ transpose(k)) @ v, transposed
/// -> pd_op.self_dp_attention(x) with alpha 1 and head_number H. As in Paddle only the shapes are
/// checked (x 5-D with 3 at dim 2, the transposed x 3 at dim 0 and H at dim 2) and no matmul
/// transposes its operands; the perms, slices and softmax axis are not. Checked against Paddle's
/// IR-debug dump (tests/fixtures/onednn_passes/self_attention).
class SelfAttentionFusePass : public PatternRewritePass
{
public:
    SelfAttentionFusePass();
};

} // namespace ps
