#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `silu_fuse_pass`: `multiply(x, sigmoid(x))` becomes `pd_op.swish(x)` when the
/// sigmoid result has no other use. The operand order is part of the pattern
/// (`multiply(sigmoid(x), x)` stays).
class SiluFusePass : public PatternRewritePass
{
public:
    SiluFusePass();
};

} // namespace ps
