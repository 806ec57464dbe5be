#pragma once

#include "core/transform/patternrewritepass.h"

#include <memory>
#include <string_view>

namespace ps {

/// The passes of Paddle 3.3.1's oneDNN pipeline that fold the reshapes and transposes around a
/// matmul into it, each a DRR pattern set checked against Paddle's IR-debug dumps
/// (tests/fixtures/onednn_passes/attention_fusions):
/// * `reshape_transpose_matmul_fuse_pass`: transpose(reshape(t)) as an operand of a matmul or a
///   fused_matmul (2- to 4-D shape of as many dims as the perm, at most one -1) ->
///   onednn_op.fused_matmul with fused_reshape_x/fused_transpose_x (or _y) reading t;
/// * `matmul_transpose_reshape_fuse_pass`: reshape(transpose(matmul), perm [0, 2, 1, 3], 3-D
///   shape) -> fused_matmul with fused_transpose_out/fused_reshape_out;
/// * `matmul_reshape_add_fuse_pass`: add(reshape(matmul(reshape(x), reshape(w))), bias) with a
///   2-D weight and a bias of its columns -> pd_op.fc on the reshaped x and w. As in Paddle, the
///   fc's result keeps the 2-D shape of the matmul (the reshape back is dropped), so what read the
///   add gets another shape than it was declared with.
/// Every intermediate result must have one use (DRR's rule).
class OneDnnMatmulReshapeFusePass : public PatternRewritePass
{
public:
    /// The pass of that Paddle name, or nullptr when it is not one of the above.
    static std::unique_ptr<OneDnnMatmulReshapeFusePass> create(std::string_view name);

private:
    OneDnnMatmulReshapeFusePass(std::string name, std::string alias, std::string description);
};

} // namespace ps
