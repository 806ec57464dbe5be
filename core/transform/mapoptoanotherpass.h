#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `map_op_to_another_pass`:
/// * `depthwise_conv2d` with groups > 1 becomes `conv2d` with the same attributes. Paddle
///   compiles this pattern only into CUDA builds (CUDA >= 8.1); `cudaBuild` chooses which build
///   to follow (true: Paddle's GPU wheels, what its GPU inference pipeline runs).
/// * `flatten(x)` with start 1, stop 3 over [N, C, 1, 1] (or start 2, stop 3 over [N, C, 1, W])
///   becomes `reshape(x, [0, -1])` (`[0, 0, -1]`). The pattern wants flatten's old second
///   result (`xshape`); Paddle 3.3.1's flatten has one result, so it only fires on programs saved
///   by older Paddle versions that still have it.
class MapOpToAnotherPass : public PatternRewritePass
{
public:
    explicit MapOpToAnotherPass(bool cudaBuild = true);
    bool cudaBuild() const { return m_cudaBuild; }

private:
    bool m_cudaBuild;
};

} // namespace ps
