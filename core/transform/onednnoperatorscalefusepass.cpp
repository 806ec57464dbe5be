#include "core/transform/onednnoperatorscalefusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <array>
#include <string>
#include <string_view>

namespace ps {

namespace {

struct Fusable
{
    const char *op;
    const char *fused;
};

// Paddle's list, in its order.
constexpr std::array<Fusable, 11> kFusable { { { "onednn_op.fc", "onednn_op.fc" },
    { "pd_op.matmul", "onednn_op.fused_matmul" }, { "onednn_op.fused_matmul", "onednn_op.fused_matmul" },
    { "onednn_op.fused_elementwise_add", "onednn_op.fused_elementwise_add" },
    { "onednn_op.fused_elementwise_sub", "onednn_op.fused_elementwise_sub" },
    { "onednn_op.fused_elementwise_mul", "onednn_op.fused_elementwise_mul" },
    { "onednn_op.fused_elementwise_div", "onednn_op.fused_elementwise_div" },
    { "pd_op.add", "onednn_op.fused_elementwise_add" },
    { "pd_op.subtract", "onednn_op.fused_elementwise_sub" },
    { "pd_op.multiply", "onednn_op.fused_elementwise_mul" },
    { "pd_op.divide", "onednn_op.fused_elementwise_div" } } };

constexpr std::initializer_list<const char *> kFcAttributes
    = { "in_num_col_dims", "activation_type", "padding_weights", "use_quantizer", "mkldnn_data_type",
          "scale_in", "scale_weights", "scale_out", "force_fp32_output", "fuse_activation", "fuse_alpha",
          "fuse_beta", "fused_output_scale", "fused_reshape2_shape" };
constexpr std::initializer_list<const char *> kFusedMatmulAttributes = { "trans_x", "trans_y", "matmul_alpha",
    "fuse_activation", "fuse_alpha", "fuse_beta", "fused_output_scale", "fused_reshape_x",
    "fused_transpose_x", "fused_reshape_y", "fused_transpose_y", "fused_reshape_out", "fused_transpose_out",
    "mkldnn_data_type", "scale_x", "scale_y", "scale_in_eltwise", "scale_out", "force_fp32_output" };
constexpr std::initializer_list<const char *> kFusedElementwiseAttributes
    = { "axis", "fuse_activation", "fuse_alpha", "fuse_beta", "fused_output_scale", "fused_unsqueeze2_axes",
          "scale_x", "scale_y", "scale_out" };

std::vector<std::pair<std::string, std::string>> sameNames(std::initializer_list<const char *> names)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const char *n : names)
        out.emplace_back(n, n);
    return out;
}

DrrPattern operatorScale(const Fusable &f, unsigned benefit)
{
    const std::string_view op = f.op;
    const bool fc = op == "onednn_op.fc";
    const bool matmul = op == "pd_op.matmul";
    const bool fusedMatmul = op == "onednn_op.fused_matmul";
    const bool fusedElementwise = op.starts_with("onednn_op.fused_elementwise");
    DrrPattern p(std::string(op) + "ScaleFusePattern", benefit);
    std::vector<std::pair<std::string, std::string>> attrs;
    if (fc)
        attrs = sameNames(kFcAttributes);
    else if (matmul)
        attrs = { { "transpose_x", "transpose_x" }, { "transpose_y", "transpose_y" } };
    else if (fusedMatmul)
        attrs = sameNames(kFusedMatmulAttributes);
    else if (fusedElementwise)
        attrs = sameNames(kFusedElementwiseAttributes);
    if (fc || fusedMatmul)
        p.source(f.op, { "X", "Y", "Input3" }, { "Out" }, attrs);
    else
        p.source(f.op, { "X", "Y" }, { "Out" }, attrs);
    p.source(ops::kFull, {}, { "Scale" }, { { "value", "full_1_value" } });
    p.source(ops::kScale, { "Out", "Scale" }, { "Scale_out" },
        { { "bias", "bias" }, { "bias_after_scale", "bias_after_scale" } });
    p.constraint([](const DrrMatch &m) { return m.floatAttr("bias") == 0.0f; });
    if (fusedMatmul || fusedElementwise)
        p.constraint([](const DrrMatch &m) { return m.floatAttr("fused_output_scale") == 1.0f; });

    const DrrAttribute scale = drrComputedAttr(
        "fused_output_scale", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("full_1_value")); });
    std::vector<DrrAttribute> result;
    const auto passThrough = [&result](std::initializer_list<const char *> names) {
        for (const char *n : names)
            if (std::string_view(n) != "fused_output_scale")
                result.push_back(drrSourceAttr(n, n));
    };
    if (fc || fusedMatmul || fusedElementwise) {
        passThrough(fc ? kFcAttributes : fusedMatmul ? kFusedMatmulAttributes : kFusedElementwiseAttributes);
        if (!fusedElementwise)
            result.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
    } else if (matmul) {
        result = { drrSourceAttr("trans_x", "transpose_x"), drrSourceAttr("trans_y", "transpose_y") };
        for (auto &[name, value] :
            std::vector<std::pair<const char *, Attribute>> { { "matmul_alpha", Attribute::f32(1.0f) },
                { "fuse_activation", Attribute::string("") }, { "fuse_alpha", Attribute::f32(0.0f) },
                { "fuse_beta", Attribute::f32(0.0f) }, { "fused_reshape_x", Attribute::array({}) },
                { "fused_transpose_x", Attribute::array({}) }, { "fused_reshape_y", Attribute::array({}) },
                { "fused_transpose_y", Attribute::array({}) }, { "fused_reshape_out", Attribute::array({}) },
                { "fused_transpose_out", Attribute::array({}) },
                { "mkldnn_data_type", Attribute::string("float32") }, { "scale_x", Attribute::f32(1.0f) },
                { "scale_y", Attribute::f32(1.0f) }, { "scale_in_eltwise", Attribute::f32(0.0f) },
                { "scale_out", Attribute::f32(1.0f) }, { "force_fp32_output", Attribute::boolean(false) },
                { "onednn_data_type", Attribute::string("") } })
            result.push_back(drrConstAttr(name, value));
    } else {
        for (auto &[name, value] : std::vector<std::pair<const char *, Attribute>> {
                 { "axis", Attribute::int32(-1) }, { "fuse_activation", Attribute::string("") },
                 { "fuse_alpha", Attribute::f32(0.0f) }, { "fuse_beta", Attribute::f32(0.0f) },
                 { "fused_unsqueeze2_axes", Attribute::array({}) }, { "scale_x", Attribute::f32(1.0f) },
                 { "scale_y", Attribute::f32(1.0f) }, { "scale_out", Attribute::f32(1.0f) } })
            result.push_back(drrConstAttr(name, value));
    }
    result.push_back(scale);
    if (fc || fusedMatmul)
        p.result(f.fused, { "X", "Y", "Input3" }, { "Scale_out" }, std::move(result));
    else if (matmul)
        p.result(
            f.fused, { "X", "Y", DrrPatternGraph::kResultInputNone }, { "Scale_out" }, std::move(result));
    else
        p.result(f.fused, { "X", "Y" }, { "Scale_out" }, std::move(result));
    return p;
}

} // namespace

OneDnnOperatorScaleFusePass::OneDnnOperatorScaleFusePass()
    : PatternRewritePass("operator_scale_onednn_fuse_pass", "onednn_operator_scale",
        "fc/matmul/elementwise + scale -> the oneDNN op with fused_output_scale")
{
    unsigned benefit = 1;
    for (const Fusable &f : kFusable)
        addPattern(std::make_unique<DrrRewritePattern>(operatorScale(f, benefit++)));
}

} // namespace ps
