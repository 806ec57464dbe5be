#pragma once

#include "core/transform/patternrewritepass.h"

namespace ps {

/// Paddle 3.3.1's `shuffle_channel_detect_pass`: a channel shuffle written as reshape(x, [N, g,
/// C/g, H, W]) + transpose [0, 2, 1, 3, 4] + reshape back to 4-D -> onednn_op.shuffle_channel(x)
/// with group g (Paddle's checks: x 4-D, perm [0, _, _, 3, 4] swapping the two middle dims
/// unless one of them is 1, the shapes' -1 and 0 resolvable, the channels kept). Checked against
/// Paddle's IR-debug dumps (tests/fixtures/onednn_passes/conv_variants).
class OneDnnShuffleChannelDetectPass : public PatternRewritePass
{
public:
    OneDnnShuffleChannelDetectPass();
};

} // namespace ps
