#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `remove_redundant_transpose_pass`: two transposes in a row (the first used
/// only by the second) become one with perm[i] = perm1[perm2[i]]; an identity transpose is
/// removed.
class RemoveRedundantTransposePass : public PatternRewritePass
{
public:
    RemoveRedundantTransposePass();
};

} // namespace ps
