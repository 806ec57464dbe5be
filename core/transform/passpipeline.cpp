#include "core/transform/passpipeline.h"

#include "core/transform/passregistry.h"

#include <algorithm>
#include <array>

namespace ps {

namespace {

// paddle_pass_builder.cc, Paddle 3.3.1.
const std::vector<std::string> kPirGpuPasses { "add_shadow_output_after_dead_parameter_pass",
    "delete_quant_dequant_linear_op_pass", "delete_weight_dequant_linear_op_pass", "map_op_to_another_pass",
    "identity_op_clean_pass", "silu_fuse_pass", "conv2d_bn_fuse_pass", "conv2d_add_act_fuse_pass",
    "conv2d_add_fuse_pass", "embedding_eltwise_layernorm_fuse_pass", "fused_rotary_position_embedding_pass",
    "fused_flash_attn_pass", "multihead_matmul_fuse_pass", "fused_weight_only_linear_pass",
    "matmul_add_act_fuse_pass", "fc_elementwise_layernorm_fuse_pass", "add_norm_fuse_pass",
    "group_norm_silu_fuse_pass", "matmul_scale_fuse_pass", "matmul_transpose_fuse_pass",
    "transpose_flatten_concat_fuse_pass", "remove_redundant_transpose_pass", "horizontal_fuse_pass" };

const std::vector<std::string> kPirCpuPasses { "add_shadow_output_after_dead_parameter_pass",
    "delete_quant_dequant_linear_op_pass", "delete_weight_dequant_linear_op_pass" };

// kPirMkldnnPasses as an x86 predictor runs them (checked against a FLAGS_print_ir log of
// Paddle 3.3.1: the log names conv_activation_mkldnn_fuse_pass and
// conv_concat_activation_mkldnn_fuse_pass where the list says onednn). self_attention_fuse_pass
// is in the list of builds with AVX512F, MKLML and oneDNN (the x86 wheel of 3.3.1 is one: its
// log on an AVX-512 CPU shows the pass, and it fuses), so the log of another build does not show it.
const std::vector<std::string> kPirOnednnPasses { "add_shadow_output_after_dead_parameter_pass",
    "delete_quant_dequant_linear_op_pass", "delete_weight_dequant_linear_op_pass",
    "depthwise_conv_onednn_pass", "squeeze_transpose_onednn_fuse_pass", "conv2d_bn_onednn_fuse_pass",
    "conv2d_bias_bn_onednn_fuse_pass", "conv2d_bias_fuse_pass", "conv2d_transpose_bn_fuse_pass",
    "conv2d_transpose_bias_bn_fuse_pass", "conv2d_transpose_bias_fuse_pass", "conv3d_bias_fuse_pass",
    "conv_elementwise_add_onednn_fuse_pass", "conv_activation_mkldnn_fuse_pass",
    "conv_concat_activation_mkldnn_fuse_pass", "matmul_scale_fuse_pass", "scale_matmul_fuse_pass",
    "reshape_transpose_matmul_fuse_pass", "matmul_transpose_reshape_fuse_pass", "matmul_add_act_fuse_pass",
    "matmul_reshape_add_fuse_pass", "fc_onednn_enable_pass", "matmul_elementwise_add_fuse_pass",
    "matmul_activation_fuse_pass", "matmul_add_act_fuse_pass", "fc_onednn_enable_pass",
    "fc_activation_fuse_pass", "self_attention_fuse_pass", "batch_norm_act_fuse_pass",
    "softplus_activation_fuse_pass", "shuffle_channel_detect_pass", "elementwise_act_onednn_fuse_pass",
    "operator_scale_onednn_fuse_pass", "operator_unsqueeze_onednn_fuse_pass",
    "operator_reshape_onednn_fuse_pass", "onednn_placement_pass" };

// OptimizeInferencePirProgram's basic_pass_pm (FLAGS_enable_auto_layout_pass_in_inference off)
// and lowered_pm (FLAGS_pir_apply_inplace_pass on).
const std::vector<std::string> kBasicPasses { "transfer_layout_pass", "common_subexpression_elimination_pass",
    "params_sync_among_devices_pass", "constant_folding_pass", "dead_code_elimination_pass",
    "replace_fetch_with_shadow_output_pass", "pd_op_to_kernel_pass", "remove_shadow_feed_pass",
    "inplace_pass" };

const std::vector<std::string> kDy2static { "common_subexpression_elimination_pass", "pd_op_to_kernel_pass",
    "inplace_pass" };

std::vector<std::string> concat(const std::vector<std::string> &a, const std::vector<std::string> &b)
{
    std::vector<std::string> out = a;
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

std::vector<std::string> mixed(const std::vector<std::string> &device)
{
    std::vector<std::string> out = device;
    out.push_back("auto_mixed_precision_pass");
    out.insert(out.end(), kBasicPasses.begin(), kBasicPasses.end());
    return out;
}

struct Named
{
    const char *name;
    const char *description;
};

constexpr std::array<Named, 6> kPipelines { {
    { "inference-gpu", "paddle.inference on a GPU (Config.enable_use_gpu), float32" },
    { "inference-gpu-fp16", "paddle.inference on a GPU with mixed precision float16 (enable_gpu_mixed)" },
    { "inference-gpu-bf16", "paddle.inference on a GPU with mixed precision bfloat16 (enable_gpu_mixed)" },
    { "inference-cpu", "paddle.inference on a CPU with oneDNN off (Config.disable_mkldnn)" },
    { "inference-onednn", "paddle.inference on an x86 CPU as configured by default (oneDNN passes)" },
    { "dy2static",
        "paddle.jit.to_static: CSE on the split programs, then run_program's lowering and inplace_pass" },
} };

} // namespace

std::vector<PassPipeline::Info> PassPipeline::pipelines()
{
    std::vector<Info> out;
    for (const Named &p : kPipelines)
        out.push_back({ p.name, p.description });
    return out;
}

Place::AllocType PassPipeline::defaultPlace(std::string_view pipeline)
{
    return pipeline == "inference-cpu" || pipeline == "inference-onednn" ? Place::AllocType::Cpu
                                                                         : Place::AllocType::Gpu;
}

std::optional<std::vector<std::string>> PassPipeline::passNames(
    std::string_view pipeline, std::optional<Place::AllocType> place)
{
    std::optional<std::vector<std::string>> names;
    if (pipeline == "inference-gpu")
        names = concat(kPirGpuPasses, kBasicPasses);
    else if (pipeline == "inference-gpu-fp16" || pipeline == "inference-gpu-bf16")
        names = mixed(kPirGpuPasses);
    else if (pipeline == "inference-cpu")
        names = concat(kPirCpuPasses, kBasicPasses);
    else if (pipeline == "inference-onednn")
        names = concat(kPirOnednnPasses, kBasicPasses);
    else if (pipeline == "dy2static")
        names = kDy2static;
    if (names && place.value_or(defaultPlace(pipeline)) == Place::AllocType::Cpu)
        std::erase(*names, std::string("params_sync_among_devices_pass"));
    return names;
}

std::optional<PassManager> PassPipeline::build(
    std::string_view pipeline, PassOptions options, std::string &error, std::optional<Place::AllocType> place)
{
    const std::optional<std::vector<std::string>> names = passNames(pipeline, place);
    if (!names) {
        error = "unknown pipeline '" + std::string(pipeline) + "'; pipelines:";
        for (const Named &p : kPipelines)
            error += std::string(" ") + p.name;
        return std::nullopt;
    }
    if (pipeline.ends_with("-bf16"))
        options.mixedPrecision = DataType::BFloat16;
    else if (pipeline.ends_with("-fp16"))
        options.mixedPrecision = DataType::Float16;
    options.place = Place { place.value_or(defaultPlace(pipeline)), 0, {} };
    PassManager pm;
    for (const std::string &name : *names)
        pm.addPass(PassRegistry::create(name, options));
    return pm;
}

bool PassPipeline::isPaddlePass(std::string_view name)
{
    for (const auto *list : { &kPirGpuPasses, &kPirCpuPasses, &kPirOnednnPasses, &kBasicPasses, &kDy2static })
        if (std::find(list->begin(), list->end(), name) != list->end())
            return true;
    return name == "auto_mixed_precision_pass";
}

std::string PassPipeline::unimplementedReason(std::string_view name)
{
    if (name == "pd_op_to_kernel_pass")
        return "lowers to Paddle's kernel dialect; PIRScope runs pd_op programs directly";
    if (name == "remove_shadow_feed_pass")
        return "works on the lowered (kernel dialect) program";
    if (name == "params_sync_among_devices_pass")
        return "copies parameter tensors to the device; it does not change the program";
    if (std::find(kPirOnednnPasses.begin(), kPirOnednnPasses.end(), name) != kPirOnednnPasses.end()
        && (name.find("onednn") != std::string_view::npos || name.find("mkldnn") != std::string_view::npos
            || std::find(kPirGpuPasses.begin(), kPirGpuPasses.end(), name) == kPirGpuPasses.end()))
        return "a oneDNN pass";
    return "not yet written";
}

} // namespace ps
