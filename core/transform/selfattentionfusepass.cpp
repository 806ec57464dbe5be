#include "core/transform/selfattentionfusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <string>

namespace ps {

namespace {

DrrPattern selfAttention()
{
    DrrPattern p("SelfAttentionFusePattern", 1);
    p.source(ops::kTranspose, { "input" }, { "transpose_0_out" }, { { "perm", "perm_0" } });
    for (int i = 0; i < 3; ++i) {
        const std::string n = std::to_string(i);
        const std::string start = "int_array_" + std::to_string(2 * i),
                          end = "int_array_" + std::to_string(2 * i + 1);
        p.source(ops::kFullIntArray, {}, { start + "_out" }, { { "value", start } });
        p.source(ops::kFullIntArray, {}, { end + "_out" }, { { "value", end } });
        p.source("pd_op.slice", { "transpose_0_out", start + "_out", end + "_out" },
            { "slice_" + n + "_out" },
            { { "axes", "axes_" + n }, { "infer_flags", "infer_flags_" + n },
                { "decrease_axis", "decrease_axis_" + n } });
    }
    p.source(ops::kTranspose, { "slice_1_out" }, { "transpose_1_out" }, { { "perm", "perm_1" } });
    p.source(ops::kMatmul, { "slice_0_out", "transpose_1_out" }, { "matmul_1_out" },
        { { "transpose_x", "transpose_x_1" }, { "transpose_y", "transpose_y_1" } });
    p.source(ops::kSoftmax, { "matmul_1_out" }, { "softmax_out" }, { { "axis", "axis" } });
    p.source(ops::kMatmul, { "softmax_out", "slice_2_out" }, { "matmul_0_out" },
        { { "transpose_x", "transpose_x_0" }, { "transpose_y", "transpose_y_0" } });
    p.source(ops::kTranspose, { "matmul_0_out" }, { "transpose_2_out" }, { { "perm", "perm_2" } });
    p.constraint([](const DrrMatch &m) {
        const std::vector<int64_t> input = m.shape("input"), packed = m.shape("transpose_0_out");
        return input.size() == 5 && input[2] == 3 && packed.size() == 5 && packed[0] == 3
            && packed[2] == input[3];
    });
    p.constraint([](const DrrMatch &m) {
        return !m.boolAttr("transpose_x_0") && !m.boolAttr("transpose_y_0") && !m.boolAttr("transpose_x_1")
            && !m.boolAttr("transpose_y_1");
    });
    p.result("pd_op.self_dp_attention", { "input" }, { "transpose_2_out" },
        { drrConstAttr("alpha", Attribute::f32(1.0f)), drrComputedAttr("head_number", [](const DrrMatch &m) {
             return Attribute::int32(int32_t(m.shape("transpose_0_out")[2]));
         }) });
    return p;
}

} // namespace

SelfAttentionFusePass::SelfAttentionFusePass()
    : PatternRewritePass("self_attention_fuse_pass", "onednn_self_attention",
        "packed-qkv attention (transposes, slices, matmuls, softmax) -> pd_op.self_dp_attention")
{
    addPattern(std::make_unique<DrrRewritePattern>(selfAttention()));
}

} // namespace ps
