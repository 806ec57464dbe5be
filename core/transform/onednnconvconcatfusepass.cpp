#include "core/transform/onednnconvconcatfusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <array>
#include <string>

namespace ps {

namespace {

constexpr std::array<const char *, 6> kConvAttributes { "strides", "paddings", "padding_algorithm",
    "dilations", "groups", "data_format" };
constexpr std::array<const char *, 10> kFusedAttributes { "mkldnn_data_type", "fuse_activation",
    "fuse_residual_connection", "force_fp32_output", "fuse_alpha", "fuse_beta", "scale_in", "scale_out",
    "scale_in_eltwise", "scale_weights" };

/// What the activation after the concat is; `name` is fuse_activation's.
enum class Kind { Plain, HardSigmoid, Gelu, Clip };

std::string indexed(const char *name, size_t i)
{
    return std::string(name) + std::to_string(i);
}

Attribute f32Array1()
{
    return Attribute::array({ Attribute::f32(1.0f) });
}

/// The source: `count` convs (conv2d, or fused_conv2d at `fused` level) into combine, concat
/// (axis a `full`) and the activation.
void addSource(DrrPattern &p, size_t count, bool fused, Kind kind, const std::string &activationOp)
{
    std::vector<std::string> combineIn;
    for (size_t i = 1; i <= count; ++i) {
        std::vector<std::pair<std::string, std::string>> attrs;
        for (const char *a : kConvAttributes)
            attrs.emplace_back(a, indexed(a, i));
        if (fused) {
            for (const char *a : kFusedAttributes)
                attrs.emplace_back(a, indexed(a, i));
            p.source(ops::kOneDnnFusedConv2d,
                { indexed("input", i), indexed("filter", i), "__@bias" + std::to_string(i) + "@__",
                    "__@residual" + std::to_string(i) + "@__" },
                { "conv2d_out_" + std::to_string(i) }, std::move(attrs));
        } else {
            p.source(ops::kConv2d, { indexed("input", i), indexed("filter", i) },
                { "conv2d_out_" + std::to_string(i) }, std::move(attrs));
        }
        combineIn.push_back("conv2d_out_" + std::to_string(i));
    }
    p.source("builtin.combine", combineIn, { "combine_out" });
    p.source(ops::kFull, {}, { "axis" },
        { { "shape", "shape" }, { "value", "value" }, { "dtype", "dtype" }, { "place", "place" } });
    p.source("pd_op.concat", { "combine_out", "axis" }, { "concat_out" });
    std::vector<std::pair<std::string, std::string>> actAttrs;
    if (kind == Kind::HardSigmoid)
        actAttrs = { { "slope", "slope" }, { "offset", "offset" } };
    else if (kind == Kind::Gelu)
        actAttrs = { { "approximate", "approximate" } };
    else if (activationOp == "pd_op.leaky_relu")
        actAttrs = { { "negative_slope", "negative_slope" } };
    if (kind == Kind::Clip) {
        p.source(ops::kFull, {}, { "min" }, { { "value", "full_1_value" } });
        p.source(ops::kFull, {}, { "max" }, { { "value", "full_2_value" } });
        p.source(activationOp, { "concat_out", "min", "max" }, { "activation_out" });
    } else {
        p.source(activationOp, { "concat_out" }, { "activation_out" }, std::move(actAttrs));
    }
    if (fused)
        p.constraint([count](const DrrMatch &m) {
            for (size_t i = 1; i <= count; ++i)
                if (!m.stringAttr(indexed("fuse_activation", i)).empty())
                    return false;
            return true;
        });
}

DrrPattern convConcat(size_t count, bool fused, Kind kind, const std::string &activation, unsigned benefit)
{
    const std::string op = kind == Kind::HardSigmoid ? "pd_op.hardsigmoid"
        : kind == Kind::Gelu                         ? "pd_op.gelu"
        : kind == Kind::Clip                         ? "pd_op.clip"
        : activation == "hard_swish"                 ? "pd_op.hardswish"
                                                     : "pd_op." + activation;
    DrrPattern p(
        "Conv" + std::to_string(count) + "ConcatLevel" + (fused ? "1" : "0") + activation + "Pattern",
        benefit);
    addSource(p, count, fused, kind, op);
    if (activation == "leaky_relu")
        p.constraint([](const DrrMatch &m) { return m.floatAttr("negative_slope") > 0.0f; });

    DrrAttribute fuseActivation = drrConstAttr("fuse_activation", Attribute::string(activation));
    DrrAttribute alpha = drrConstAttr("fuse_alpha", Attribute::f32(0.0f));
    DrrAttribute beta = drrConstAttr("fuse_beta", Attribute::f32(0.0f));
    if (activation == "relu6") {
        beta = drrConstAttr("fuse_beta", Attribute::f32(6.0f));
    } else if (activation == "hard_swish") {
        alpha = drrConstAttr("fuse_alpha", Attribute::f32(1.0f / 6.0f));
        beta = drrConstAttr("fuse_beta", Attribute::f32(0.5f));
    } else if (activation == "swish") {
        alpha = drrConstAttr("fuse_alpha", Attribute::f32(1.0f));
    } else if (activation == "leaky_relu") {
        alpha = drrSourceAttr("fuse_alpha", "negative_slope");
    } else if (kind == Kind::HardSigmoid) {
        alpha = drrSourceAttr("fuse_alpha", "slope");
        beta = drrSourceAttr("fuse_beta", "offset");
    } else if (kind == Kind::Gelu) {
        fuseActivation = drrComputedAttr("fuse_activation", [](const DrrMatch &m) {
            return Attribute::string(m.boolAttr("approximate") ? "gelu_tanh" : "gelu_erf");
        });
    } else if (kind == Kind::Clip) {
        alpha = drrComputedAttr("fuse_alpha",
            [](const DrrMatch &m) { return Attribute::f32(float(m.doubleAttr("full_1_value"))); });
        beta = drrComputedAttr("fuse_beta",
            [](const DrrMatch &m) { return Attribute::f32(float(m.doubleAttr("full_2_value"))); });
    }

    std::vector<std::string> combineIn;
    for (size_t i = 1; i <= count; ++i) {
        std::vector<DrrAttribute> attrs;
        for (const char *a : kConvAttributes)
            attrs.push_back(drrSourceAttr(a, indexed(a, i)));
        const auto fromSource = [&](const char *name, Attribute fallback) {
            return fused ? drrSourceAttr(name, indexed(name, i)) : drrConstAttr(name, std::move(fallback));
        };
        attrs.push_back(fromSource("mkldnn_data_type", Attribute::string("float32")));
        attrs.push_back(fuseActivation);
        attrs.push_back(fromSource("fuse_residual_connection", Attribute::boolean(false)));
        attrs.push_back(fromSource("force_fp32_output", Attribute::boolean(false)));
        attrs.push_back(alpha);
        attrs.push_back(beta);
        attrs.push_back(fromSource("scale_in", Attribute::f32(1.0f)));
        attrs.push_back(fromSource("scale_out", Attribute::f32(1.0f)));
        attrs.push_back(fromSource("scale_in_eltwise", Attribute::f32(1.0f)));
        attrs.push_back(fromSource("scale_weights", f32Array1()));
        attrs.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
        const std::string out = "act_out_" + std::to_string(i);
        const auto type = [i](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("conv2d_out_" + std::to_string(i)).type() };
        };
        if (fused)
            p.result(ops::kOneDnnFusedConv2d,
                { indexed("input", i), indexed("filter", i), "__@bias" + std::to_string(i) + "@__",
                    "__@residual" + std::to_string(i) + "@__" },
                { out }, std::move(attrs), type);
        else
            p.result(ops::kOneDnnFusedConv2d,
                { indexed("input", i), indexed("filter", i), DrrPatternGraph::kResultInputNone,
                    DrrPatternGraph::kResultInputNone },
                { out }, std::move(attrs), type);
        combineIn.push_back(out);
    }
    p.result("builtin.combine", combineIn, { "combine_result_out" }, {},
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("combine_out").type() };
        });
    p.result(ops::kFull, {}, { "axis_result" }, drrSourceAttrs({ "shape", "value", "dtype", "place" }),
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("axis").type() };
        });
    p.result("pd_op.concat", { "combine_result_out", "axis_result" }, { "activation_out" });
    return p;
}

} // namespace

OneDnnConvConcatFusePass::OneDnnConvConcatFusePass()
    : PatternRewritePass("conv_concat_activation_mkldnn_fuse_pass", "onednn_conv_concat_act",
        "convs + concat + activation -> fused_conv2d ops with the activation + concat")
{
    unsigned benefit = 1;
    for (size_t count = 1; count <= 6; ++count)
        for (const char *activation : { "abs", "sqrt", "mish", "relu", "sigmoid", "tanh", "relu6",
                 "hard_swish", "swish", "leaky_relu" })
            for (bool fused : { false, true })
                addPattern(std::make_unique<DrrRewritePattern>(
                    convConcat(count, fused, Kind::Plain, activation, benefit++)));
    for (const auto &[kind, name] : std::array<std::pair<Kind, const char *>, 3> {
             { { Kind::HardSigmoid, "hard_sigmoid" }, { Kind::Gelu, "gelu" }, { Kind::Clip, "clip" } } })
        for (size_t count = 1; count <= 6; ++count)
            for (bool fused : { false, true })
                addPattern(std::make_unique<DrrRewritePattern>(
                    convConcat(count, fused, kind, name, unsigned(count))));
}

} // namespace ps
