#pragma once

#include "core/transform/pass.h"
#include "core/transform/passoptions.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// Creates passes by Paddle name (or PIRScope alias). The one list of the passes PIRScope
/// implements; a pass of one of Paddle's pipelines that it does not implement comes back as an
/// UnimplementedPass saying so.
class PassRegistry
{
public:
    /// nullptr when `name` is neither implemented nor a pass of a Paddle pipeline (PassPipeline).
    static std::unique_ptr<Pass> create(std::string_view name, const PassOptions &options = {});
    /// Paddle names of the implemented passes, in registration order.
    static std::vector<std::string> implementedNames();
    /// Paddle names of the pattern-fusion passes, in the order Paddle's GPU inference pipeline
    /// runs them (kPirGpuPasses).
    static std::vector<std::string_view> fusionPassNames();
    static bool isImplemented(std::string_view name);
    /// The Paddle name for a name or alias; empty when unknown.
    static std::string canonicalName(std::string_view name);
};

} // namespace ps
