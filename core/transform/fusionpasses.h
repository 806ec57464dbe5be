#pragma once

#include "core/transform/pass.h"

#include <memory>
#include <string_view>
#include <vector>

namespace ps {

/// Which of Paddle's builds a pass follows where the two differ (only map_op_to_another_pass's
/// depthwise_conv2d -> conv2d pattern, compiled into CUDA builds only).
struct FusionOptions
{
    bool cudaBuild = true;
};

/// Paddle names of the pattern-fusion passes, in the order Paddle's GPU inference pipeline runs
/// them (kPirGpuPasses).
std::vector<std::string_view> fusionPassNames();

/// The fusion pass named `name` (Paddle name or alias), or nullptr.
std::unique_ptr<Pass> createFusionPass(std::string_view name, const FusionOptions &options = {});

} // namespace ps
