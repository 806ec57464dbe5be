#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `matmul_scale_fuse_pass`: `scale(matmul(x, w), full(s))` with |bias| <= 1e-6
/// and a persistable w (computed from parameters and constants only) becomes
/// `matmul(x, scale(w, full(s)))`, so constant folding can pre-scale the weight.
class MatmulScaleFusePass : public PatternRewritePass
{
public:
    MatmulScaleFusePass();
};

} // namespace ps
