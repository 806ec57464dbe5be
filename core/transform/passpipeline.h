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
///
/// The place (Paddle's kPlaceAttr) is each pipeline's own (a CPU for `inference-cpu` and
/// `inference-onednn`, a GPU for the others) unless the caller gives one. It changes the list:
/// params_sync_among_devices_pass never applies on a CPU (its CanApplyOn), so a CPU list leaves
/// it out; and the passes: map_op_to_another_pass maps depthwise_conv2d to conv2d only off the CPU
/// (the pattern exists in Paddle's CUDA build alone).
class PassPipeline
{
public:
    struct Info
    {
        std::string name;
        std::string description;
    };
    static std::vector<Info> pipelines();
    /// The place a pipeline is written for: Cpu or Gpu (Gpu for an unknown name).
    static Place::AllocType defaultPlace(std::string_view pipeline);
    /// The pass names of a pipeline in order on `place` (default: the pipeline's own); nullopt
    /// for an unknown name.
    static std::optional<std::vector<std::string>> passNames(
        std::string_view pipeline, std::optional<Place::AllocType> place = std::nullopt);
    /// A manager with the pipeline's passes on `place` (default: the pipeline's own, which
    /// replaces `options.place`), all enabled; `options.mixedPrecision` is set by the
    /// `-fp16`/`-bf16` variants. nullopt with `error` listing the pipelines for an unknown name.
    static std::optional<PassManager> build(std::string_view pipeline, PassOptions options,
        std::string &error, std::optional<Place::AllocType> place = std::nullopt);

    /// Whether `name` is a pass of one of the pipelines (implemented or not).
    static bool isPaddlePass(std::string_view name);
    /// Why PIRScope does not implement a Paddle pass ("a oneDNN fusion pass", ...).
    static std::string unimplementedReason(std::string_view name);
};

} // namespace ps
