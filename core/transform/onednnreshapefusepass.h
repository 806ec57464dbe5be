#pragma once

#include "core/transform/patternrewritepass.h"

#include <memory>
#include <string_view>

namespace ps {

/// The passes of Paddle 3.3.1's oneDNN pipeline that fold a squeeze, unsqueeze or reshape into
/// the op next to it (the shape change becomes an attribute the fused op's kernel applies), each
/// a DRR pattern set checked against Paddle's IR-debug dumps
/// (tests/fixtures/onednn_passes/reshape_fusions):
/// * `squeeze_transpose_onednn_fuse_pass`: transpose(squeeze(x, axes)) ->
///   onednn_op.fused_transpose(x) with fused_squeeze2_axes;
/// * `operator_unsqueeze_onednn_fuse_pass`: unsqueeze after a transpose, a fused_transpose, a
///   multiply or a fused_elementwise_mul -> the oneDNN op with fused_unsqueeze2_axes (a fused op
///   that has them already is left);
/// * `operator_reshape_onednn_fuse_pass`: reshape after an onednn_op.fc, a fused_transpose or a
///   transpose -> the oneDNN op with fused_reshape2_shape; a shape with a 0 or more than one -1,
///   or an op that has a fused unsqueeze or reshape already, is left.
/// The fused op's result keeps the type Paddle's InferMeta gives it, which leaves a fused
/// squeeze, unsqueeze or reshape of a transpose or elementwise op out (an fc's reshape is in).
/// Every intermediate result must have one use (DRR's rule).
class OneDnnReshapeFusePass : public PatternRewritePass
{
public:
    /// The pass of that Paddle name, or nullptr when it is not one of the above.
    static std::unique_ptr<OneDnnReshapeFusePass> create(std::string_view name);

private:
    OneDnnReshapeFusePass(std::string name, std::string alias, std::string description);
};

} // namespace ps
