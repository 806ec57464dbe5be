#pragma once

#include "core/transform/passmanager.h"
#include "core/transform/passoptions.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// Paddle 3.3.1's pass pipelines by name, pass for pass in Paddle's order
/// (paddle/fluid/inference/api/paddle_pass_builder.cc, analysis_predictor.cc
/// OptimizeInferencePirProgram, dy2static's pir_partial_program.py and run_program):
///
/// * `inference-gpu`: kPirGpuPasses, then the basic passes (transfer_layout, CSE,
///   params_sync_among_devices, constant_folding, DCE, replace_fetch_with_shadow_output), the
///   lowering (pd_op_to_kernel_pass), remove_shadow_feed_pass and inplace_pass;
/// * `inference-gpu-fp16` / `inference-gpu-bf16`: the same with `enable_gpu_mixed`, which puts
///   auto_mixed_precision_pass first among the basic passes;
/// * `inference-cpu`: kPirCpuPasses (config.disable_mkldnn()) and the basic passes;
/// * `inference-onednn`: kPirMkldnnPasses, what an x86 CPU predictor runs by default;
/// * `dy2static`: CSE on the split programs, then what the run_program executor does: lowering
///   and inplace_pass.
///
/// Passes PIRScope does not implement stay in the list as UnimplementedPass (shown, not run).
class PassPipeline
{
public:
    struct Info
    {
        std::string name;
        std::string description;
    };
    static std::vector<Info> pipelines();
    /// The pass names of a pipeline in order; nullopt for an unknown name.
    static std::optional<std::vector<std::string>> passNames(std::string_view pipeline);
    /// A manager with the pipeline's passes, all enabled; `options.mixedPrecision` is set by the
    /// `-fp16`/`-bf16` variants. nullopt with `error` listing the pipelines for an unknown name.
    static std::optional<PassManager> build(
        std::string_view pipeline, PassOptions options, std::string &error);

    /// Whether `name` is a pass of one of the pipelines (implemented or not).
    static bool isPaddlePass(std::string_view name);
    /// Why PIRScope does not implement a Paddle pass ("a oneDNN fusion pass", ...).
    static std::string unimplementedReason(std::string_view name);
};

} // namespace ps
