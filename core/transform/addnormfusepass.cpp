#include "core/transform/addnormfusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/rewritehelpers.h"

namespace ps {

namespace {

const char *const kNone = DrrPatternGraph::kSourceInputNone;
const char *const kResultNone = DrrPatternGraph::kResultInputNone;

std::vector<DrrAttribute> quantDefaults()
{
    return { drrConstAttr("quant_scale", Attribute::f32(-1.0f)),
        drrConstAttr("quant_round_type", Attribute::int32(0)),
        drrConstAttr("quant_max_bound", Attribute::f32(0.0f)),
        drrConstAttr("quant_min_bound", Attribute::f32(0.0f)) };
}

/// x's dims before `axis`, as f32: the inverse variance / mean shape of the norms.
Type rowStatistics(Type x, int64_t axis)
{
    std::vector<int64_t> dims(
        x.dims().begin(), x.dims().begin() + std::min<int64_t>(axis, int64_t(x.dims().size())));
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

DrrPattern rmsNorm(bool halfWeight)
{
    DrrPattern p("RmsNormFusePattern", 3);
    const std::string normInput = halfWeight ? "cast_1_out" : "x";
    if (halfWeight)
        p.source(ops::kCast, { "x" }, { "cast_1_out" }, { { "dtype", "cast_type_1" } });
    p.source(ops::kPow, { normInput }, { "pow_out" });
    p.source(ops::kFullIntArray, {}, { "axis_out" }, { { "value", "axis" } });
    p.source(ops::kMean, { "pow_out", "axis_out" }, { "mean_out" });
    p.source(ops::kFull, {}, { "full_out" });
    p.source(ops::kScale, { "mean_out", "full_out" }, { "scale_out" }, { { "bias", "bias" } });
    p.source(ops::kRsqrt, { "scale_out" }, { "rsqrt_out" });
    p.source(ops::kMultiply, { "rsqrt_out", normInput }, { "multiply_out1" });
    if (halfWeight) {
        p.source(ops::kCast, { "multiply_out1" }, { "cast_2_out" }, { { "dtype", "cast_type_2" } });
        p.source(ops::kMultiply, { "cast_2_out", "w" }, { "multiply_out2" });
    } else {
        p.source(ops::kMultiply, { "multiply_out1", "w" }, { "multiply_out2" });
    }
    p.constraint([halfWeight](const DrrMatch &m) {
        if (m.intsAttr("axis").size() > 1)
            return false;
        if (!halfWeight)
            return true;
        const DataType w = m.dtype("w");
        if (w != DataType::Float16 && w != DataType::BFloat16)
            return false;
        return m.dtypeAttr("cast_type_1") == DataType::Float32 && m.dtypeAttr("cast_type_2") == w;
    });
    auto beginNormAxis = [](const DrrMatch &m) {
        const std::vector<int64_t> axis = m.intsAttr("axis");
        const int64_t first = axis.empty() ? -1 : axis[0];
        return first == -1 ? int64_t(m.shape("pow_out").size()) - 1 : first;
    };
    std::vector<DrrAttribute> attrs { drrSourceAttr("epsilon", "bias"),
        drrComputedAttr("begin_norm_axis",
            [beginNormAxis](const DrrMatch &m) { return Attribute::int32(int32_t(beginNormAxis(m))); }) };
    for (DrrAttribute &a : quantDefaults())
        attrs.push_back(std::move(a));
    p.result(ops::kFusedRmsNormQuant, { "x", kResultNone, kResultNone, "w", kResultNone },
        { "multiply_out2", "residual_out", "inv_var" }, attrs,
        [beginNormAxis](const DrrMatch &m, const std::vector<Value> &) {
            const Type x = m.tensor("x").type();
            // Paddle leaves residual_out without a residual as an f32 tensor of undefined dims
            // (printed tensor<0xf32>, saved as 0-d).
            return std::vector<Type> { m.tensor("multiply_out2").type(),
                Type::denseTensor(DataType::Float32, {}), rowStatistics(x, beginNormAxis(m)) };
        });
    return p;
}

/// The optional extra add that also consumes the residual sum.
void extraAdd(DrrPattern &p, bool extra, bool transposed)
{
    if (!extra)
        return;
    if (transposed)
        p.source(ops::kAdd, { "any_tensor", "add_out" }, { "add_out1" });
    else
        p.source(ops::kAdd, { "add_out", "any_tensor" }, { "add_out1" });
}

DrrPattern addRmsNorm(bool extra, bool transposed)
{
    DrrPattern p("AddRmsNormFusePattern", extra ? 4 : 3);
    const auto names = { "epsilon", "begin_norm_axis", "quant_scale", "quant_round_type", "quant_max_bound",
        "quant_min_bound" };
    const auto attrs = drrSameNames(names);
    const auto resultAttrs = drrSourceAttrs(names);
    p.source(ops::kAdd, { "x", "residual" }, { "add_out" });
    p.source(ops::kFusedRmsNormQuant, { "add_out", "bias", kNone, "w", kNone },
        { "rms_norm_out", "residual_out_0", "inv_var_0" }, attrs);
    extraAdd(p, extra, transposed);
    p.result(ops::kFusedRmsNormQuant, { "x", "bias", "residual", "w", kResultNone },
        { "rms_norm_out", "add_out", "inv_var" }, resultAttrs,
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("rms_norm_out").type(), m.tensor("add_out").type(),
                m.tensor("inv_var_0").type() };
        });
    return p;
}

DrrPattern addLayerNorm(bool extra, bool transposed)
{
    DrrPattern p("AddLayerNormFusePattern", extra ? 4 : 3);
    p.source(ops::kAdd, { "x", "residual" }, { "add_out" });
    p.source(ops::kLayerNorm, { "add_out", "w", "bias" },
        { "layer_norm_out", "mean_out_0", "variance_out_0" },
        { { "epsilon", "epsilon" }, { "begin_norm_axis", "begin_norm_axis" } });
    extraAdd(p, extra, transposed);
    // Paddle 3.3.1 fuses only a residual of x's shape (seen in its output: a broadcast bias or a
    // lower-rank residual stays), and would build casts of a missing weight or bias and fail.
    p.constraint([](const DrrMatch &m) {
        return m.shape("x") == m.shape("residual") && !m.tensor("w").isNull() && !m.tensor("bias").isNull();
    });
    auto castF32 = [](const char *input) {
        return [input](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { withDtype(m.tensor(input).type(), DataType::Float32) };
        };
    };
    p.result(ops::kCast, { "w" }, { "w_cast" },
        { drrConstAttr("dtype", Attribute::dataType(DataType::Float32)) }, castF32("w"));
    p.result(ops::kCast, { "bias" }, { "bias_cast" },
        { drrConstAttr("dtype", Attribute::dataType(DataType::Float32)) }, castF32("bias"));
    std::vector<DrrAttribute> attrs { drrSourceAttr("epsilon", "epsilon"),
        drrConstAttr("residual_alpha", Attribute::f32(1.0f)),
        drrSourceAttr("begin_norm_axis", "begin_norm_axis") };
    for (DrrAttribute &a : quantDefaults())
        attrs.push_back(std::move(a));
    p.result(ops::kFusedBiasResidualLayernorm, { "x", kResultNone, "residual", "w_cast", "bias_cast" },
        { "layer_norm_out", "add_out", "mean_out", "variance_out" }, attrs,
        [](const DrrMatch &m, const std::vector<Value> &) {
            const std::vector<int64_t> x = m.shape("x");
            const int64_t axis = std::min<int64_t>(m.intAttr("begin_norm_axis"), int64_t(x.size()));
            int64_t rows = 1;
            for (int64_t i = 0; i < axis; ++i)
                rows *= x[size_t(i)];
            const Type stats = Type::denseTensor(DataType::Float32, { rows });
            return std::vector<Type> { m.tensor("layer_norm_out").type(), m.tensor("add_out").type(), stats,
                stats };
        });
    return p;
}

bool halfInput(const DrrMatch &m)
{
    const DataType x = m.dtype("x");
    return x == DataType::Float16 || x == DataType::BFloat16;
}

DrrPattern addGroupNorm(bool extra, bool transposed)
{
    DrrPattern p("AddGroupNormFusePattern", extra ? 4 : 3);
    p.source(ops::kAdd, { "x", "residual" }, { "add_out" });
    p.source(ops::kGroupNorm, { "add_out", "scale", "bias" }, { "group_out", "mean_out_0", "variance_out_0" },
        { { "epsilon", "epsilon" }, { "groups", "groups" }, { "data_format", "data_format" } });
    extraAdd(p, extra, transposed);
    p.constraint(halfInput);
    p.result(ops::kAddGroupNormSilu, { "x", "residual", "scale", "bias" },
        { "group_out", "add_out", "mean_out", "variance_out" },
        { drrSourceAttr("epsilon", "epsilon"), drrSourceAttr("groups", "groups"),
            drrSourceAttr("data_format", "data_format"), drrConstAttr("activation", Attribute::string("")) },
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("group_out").type(), m.tensor("add_out").type(),
                m.tensor("mean_out_0").type(), m.tensor("variance_out_0").type() };
        });
    return p;
}

DrrPattern addGroupNormSilu()
{
    DrrPattern p("AddGroupNormWithActPattern", 2);
    p.source(ops::kAddGroupNormSilu, { "x", "residual", "scale", "bias" },
        { "group_out", "add_out", "mean_out_0", "variance_out_0" },
        { { "epsilon", "epsilon" }, { "groups", "groups" }, { "data_format", "data_format" },
            { "activation", "activation" } });
    p.source(ops::kSilu, { "group_out" }, { "silu_out" });
    p.constraint([](const DrrMatch &m) { return halfInput(m) && m.stringAttr("activation").empty(); });
    p.result(ops::kAddGroupNormSilu, { "x", "residual", "scale", "bias" },
        { "silu_out", "add_out", "mean_out", "variance_out" },
        { drrSourceAttr("epsilon", "epsilon"), drrSourceAttr("groups", "groups"),
            drrSourceAttr("data_format", "data_format"),
            drrConstAttr("activation", Attribute::string("silu")) },
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("silu_out").type(), m.tensor("add_out").type(),
                m.tensor("mean_out_0").type(), m.tensor("variance_out_0").type() };
        });
    return p;
}

} // namespace

AddNormFusePass::AddNormFusePass()
    : PatternRewritePass(
        "add_norm_fuse_pass", "add_norm", "residual add + rms/layer/group norm -> fused norm")
{
    for (DrrPattern p : { rmsNorm(false), rmsNorm(true), addRmsNorm(false, false), addRmsNorm(true, true),
             addRmsNorm(true, false), addLayerNorm(false, false), addLayerNorm(true, true),
             addLayerNorm(true, false), addGroupNorm(false, true), addGroupNorm(true, true),
             addGroupNorm(true, false), addGroupNormSilu() })
        addPattern(std::make_unique<DrrRewritePattern>(std::move(p)));
}

} // namespace ps
