#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `operator_scale_onednn_fuse_pass`: a scale without bias (its factor a `full`)
/// after an onednn_op.fc, a matmul, a fused_matmul, a fused_elementwise_* or an add, subtract,
/// multiply or divide -> the fused op with `fused_output_scale` the factor (applied after the
/// activation). A fused_matmul or fused elementwise op that has one already is left; an fc's is
/// replaced, as Paddle's pattern does. Checked against Paddle's IR-debug dumps
/// (tests/fixtures/onednn_passes/scale_fusions).
class OneDnnOperatorScaleFusePass : public PatternRewritePass
{
public:
    OneDnnOperatorScaleFusePass();
};

} // namespace ps
