#include "core/transform/onednnelementwisefusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <array>
#include <string>

namespace ps {

namespace {

struct Elementwise
{
    const char *op;
    const char *fused;
};

constexpr std::array<Elementwise, 3> kElementwise { { { "pd_op.add", "onednn_op.fused_elementwise_add" },
    { "pd_op.subtract", "onednn_op.fused_elementwise_sub" },
    { "pd_op.multiply", "onednn_op.fused_elementwise_mul" } } };

// The pass's list, in its order: fuse_activation names (the op is pd_op.<name>, but hardswish
// and hardsigmoid).
constexpr std::array<const char *, 11> kActivations { "abs", "sqrt", "mish", "relu", "sigmoid", "tanh",
    "relu6", "hard_swish", "swish", "leaky_relu", "hard_sigmoid" };

std::vector<DrrAttribute> fusedAttrs(DrrAttribute activation, DrrAttribute alpha, DrrAttribute beta)
{
    return { drrConstAttr("axis", Attribute::int32(-1)), std::move(activation), std::move(alpha),
        std::move(beta), drrConstAttr("fused_output_scale", Attribute::f32(1.0f)),
        drrConstAttr("fused_unsqueeze2_axes", Attribute::array({})),
        drrConstAttr("scale_x", Attribute::f32(1.0f)), drrConstAttr("scale_y", Attribute::f32(1.0f)),
        drrConstAttr("scale_out", Attribute::f32(1.0f)) };
}

DrrPattern elementwiseActivation(const Elementwise &e, const std::string &act, unsigned benefit)
{
    DrrPattern p(std::string(e.op) + act + "FusePattern", benefit);
    p.source(e.op, { "x", "y" }, { "elementwise_out" });
    const std::string op = act == "hard_swish" ? "pd_op.hardswish"
        : act == "hard_sigmoid"                ? "pd_op.hardsigmoid"
                                               : "pd_op." + act;
    std::vector<std::pair<std::string, std::string>> attrs;
    if (act == "hard_sigmoid")
        attrs = { { "slope", "slope" }, { "offset", "offset" } };
    else if (act == "leaky_relu")
        attrs = { { "negative_slope", "negative_slope" } };
    p.source(op, { "elementwise_out" }, { "act_out" }, attrs);
    if (act == "leaky_relu")
        p.constraint([](const DrrMatch &m) { return m.floatAttr("negative_slope") > 0.0f; });
    DrrAttribute alpha = drrConstAttr("fuse_alpha", Attribute::f32(0.0f));
    DrrAttribute beta = drrConstAttr("fuse_beta", Attribute::f32(0.0f));
    if (act == "relu6") {
        beta = drrConstAttr("fuse_beta", Attribute::f32(6.0f));
    } else if (act == "hard_swish") {
        alpha = drrConstAttr("fuse_alpha", Attribute::f32(1.0f / 6.0f));
        beta = drrConstAttr("fuse_beta", Attribute::f32(0.5f));
    } else if (act == "swish") {
        alpha = drrConstAttr("fuse_alpha", Attribute::f32(1.0f));
    } else if (act == "leaky_relu") {
        alpha = drrComputedAttr(
            "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("negative_slope")); });
    } else if (act == "hard_sigmoid") {
        alpha = drrComputedAttr(
            "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("slope")); });
        beta = drrComputedAttr(
            "fuse_beta", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("offset")); });
    }
    p.result(e.fused, { "x", "y" }, { "act_out" },
        fusedAttrs(
            drrConstAttr("fuse_activation", Attribute::string(act)), std::move(alpha), std::move(beta)));
    return p;
}

DrrPattern elementwiseGelu(const Elementwise &e, unsigned benefit)
{
    DrrPattern p(std::string(e.op) + "GeluFusePattern", benefit);
    p.source(e.op, { "x", "y" }, { "elementwise_out" });
    p.source("pd_op.gelu", { "elementwise_out" }, { "act_out" }, { { "approximate", "approximate" } });
    p.result(e.fused, { "x", "y" }, { "act_out" },
        fusedAttrs(drrComputedAttr("fuse_activation",
                       [](const DrrMatch &m) {
                           return Attribute::string(m.boolAttr("approximate") ? "gelu_tanh" : "gelu_erf");
                       }),
            drrConstAttr("fuse_alpha", Attribute::f32(0.0f)),
            drrConstAttr("fuse_beta", Attribute::f32(0.0f))));
    return p;
}

DrrPattern elementwiseClip(const Elementwise &e, unsigned benefit)
{
    DrrPattern p(std::string(e.op) + "ClipFusePattern", benefit);
    p.source(e.op, { "x", "y" }, { "elementwise_out" });
    p.source(ops::kFull, {}, { "min" }, { { "value", "full_1_value" } });
    p.source(ops::kFull, {}, { "max" }, { { "value", "full_2_value" } });
    p.source("pd_op.clip", { "elementwise_out", "min", "max" }, { "act_out" });
    p.result(e.fused, { "x", "y" }, { "act_out" },
        fusedAttrs(drrConstAttr("fuse_activation", Attribute::string("clip")),
            drrComputedAttr(
                "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("full_1_value")); }),
            drrComputedAttr(
                "fuse_beta", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("full_2_value")); })));
    return p;
}

} // namespace

OneDnnElementwiseFusePass::OneDnnElementwiseFusePass()
    : PatternRewritePass("elementwise_act_onednn_fuse_pass", "onednn_elementwise_act",
        "add/subtract/multiply + activation -> onednn_op.fused_elementwise_*")
{
    unsigned benefit = 1;
    for (const Elementwise &e : kElementwise)
        for (const char *act : kActivations)
            addPattern(std::make_unique<DrrRewritePattern>(elementwiseActivation(e, act, benefit++)));
    unsigned level = 1;
    for (const Elementwise &e : kElementwise)
        addPattern(std::make_unique<DrrRewritePattern>(elementwiseGelu(e, level++)));
    level = 1;
    for (const Elementwise &e : kElementwise)
        addPattern(std::make_unique<DrrRewritePattern>(elementwiseClip(e, level++)));
}

} // namespace ps
