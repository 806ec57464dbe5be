#include "core/transform/onednnmatmulfusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <array>

namespace ps {

namespace {

Attribute f32Array(std::initializer_list<float> values)
{
    std::vector<Attribute> out;
    for (float v : values)
        out.push_back(Attribute::f32(v));
    return Attribute::array(std::move(out));
}

// --- the activations (fc_activation_fuse_pass's and matmul_activation_fuse_pass's list) -------

struct Activation
{
    const char *op;
    const char *fused; ///< fuse_activation
};

// In Paddle's order (a std::set of the op names).
constexpr std::array<Activation, 18> kActivations { { { "pd_op.abs", "abs" }, { "pd_op.abs_", "abs" },
    { "pd_op.gelu", "gelu" }, { "pd_op.hardsigmoid", "hard_sigmoid" }, { "pd_op.hardswish", "hard_swish" },
    { "pd_op.leaky_relu", "leaky_relu" }, { "pd_op.leaky_relu_", "leaky_relu" }, { "pd_op.mish", "mish" },
    { "pd_op.relu", "relu" }, { "pd_op.relu_", "relu" }, { "pd_op.relu6", "relu6" },
    { "pd_op.sigmoid", "sigmoid" }, { "pd_op.sigmoid_", "sigmoid" }, { "pd_op.sqrt", "sqrt" },
    { "pd_op.sqrt_", "sqrt" }, { "pd_op.swish", "swish" }, { "pd_op.tanh", "tanh" },
    { "pd_op.tanh_", "tanh" } } };

/// The activation op of `act` reading `in` and writing `out`, its attributes bound, and the
/// fuse_activation / fuse_alpha / fuse_beta of the fused op.
void activationSource(DrrPattern &p, const Activation &act, const std::string &in)
{
    const std::string op = act.op;
    std::vector<std::pair<std::string, std::string>> attrs;
    if (op == "pd_op.hardsigmoid")
        attrs = { { "slope", "act_slope" }, { "offset", "act_offset" } };
    else if (op.starts_with("pd_op.leaky_relu"))
        attrs = { { "negative_slope", "act_slope" } };
    else if (op == "pd_op.gelu")
        attrs = { { "approximate", "approximate" } };
    p.source(op, { in }, { "act_out" }, attrs);
    if (op == "pd_op.gelu")
        p.constraint([](const DrrMatch &m) { return !m.boolAttr("approximate"); });
}

std::vector<DrrAttribute> activationResult(const Activation &act)
{
    const std::string op = act.op;
    DrrAttribute alpha = drrConstAttr("fuse_alpha", Attribute::f32(0.0f));
    DrrAttribute beta = drrConstAttr("fuse_beta", Attribute::f32(0.0f));
    if (op == "pd_op.hardswish") {
        alpha = drrConstAttr("fuse_alpha", Attribute::f32(1.0f / 6.0f));
        beta = drrConstAttr("fuse_beta", Attribute::f32(0.5f));
    } else if (op == "pd_op.hardsigmoid") {
        alpha = drrComputedAttr(
            "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("act_slope")); });
        beta = drrComputedAttr(
            "fuse_beta", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("act_offset")); });
    } else if (op.starts_with("pd_op.leaky_relu")) {
        alpha = drrComputedAttr(
            "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("act_slope")); });
    } else if (op == "pd_op.swish") {
        alpha = drrConstAttr("fuse_alpha", Attribute::f32(1.0f));
    } else if (op == "pd_op.relu6") {
        beta = drrConstAttr("fuse_beta", Attribute::f32(6.0f));
    }
    return { drrConstAttr("fuse_activation", Attribute::string(act.fused)), std::move(alpha),
        std::move(beta) };
}

/// gelu with the tanh approximation (its own pattern in Paddle).
void geluTanhSource(DrrPattern &p, const std::string &in)
{
    p.source("pd_op.gelu", { in }, { "act_out" }, { { "approximate", "approximate" } });
    p.constraint([](const DrrMatch &m) { return m.boolAttr("approximate"); });
}

void clipSource(DrrPattern &p, const char *clipOp, const std::string &in)
{
    p.source(ops::kFull, {}, { "min" }, { { "shape", "shape1" }, { "value", "value1" } });
    p.source(ops::kFull, {}, { "max" }, { { "shape", "shape2" }, { "value", "value2" } });
    p.source(clipOp, { in, "min", "max" }, { "act_out" });
}

std::vector<DrrAttribute> clipResult()
{
    return { drrConstAttr("fuse_activation", Attribute::string("clip")),
        drrComputedAttr(
            "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("value1")); }),
        drrComputedAttr(
            "fuse_beta", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("value2")); }) };
}

// --- fc ---------------------------------------------------------------------------------------

constexpr std::initializer_list<const char *> kOneDnnFcAttributes = { "in_num_col_dims", "activation_type",
    "padding_weights", "use_quantizer", "mkldnn_data_type", "scale_in", "scale_weights", "scale_out",
    "force_fp32_output", "fused_output_scale", "fused_reshape2_shape" };

bool fcActivationTypeAccepted(const DrrMatch &m)
{
    const std::string &t = m.stringAttr("activation_type");
    return t.empty() || t == "relu";
}

DrrPattern fcEnable()
{
    DrrPattern p("FcOneDNNEnablePattern");
    p.source(ops::kFc, { "input", "weight", "bias" }, { "Out" },
        drrSameNames({ "in_num_col_dims", "activation_type", "padding_weights" }));
    // Paddle's rank check is `rank >= 2 || rank <= 4` (always true); a 4-D input must be
    // [N, C, 1, 1].
    p.constraint([](const DrrMatch &m) {
        const std::vector<int64_t> shape = m.shape("input");
        return (shape.size() != 4 || (shape[2] == 1 && shape[3] == 1)) && fcActivationTypeAccepted(m);
    });
    std::vector<DrrAttribute> attrs
        = drrSourceAttrs({ "in_num_col_dims", "activation_type", "padding_weights" });
    for (auto &[name, value] :
        std::vector<std::pair<const char *, Attribute>> { { "use_quantizer", Attribute::boolean(false) },
            { "mkldnn_data_type", Attribute::string("float32") }, { "scale_in", Attribute::f32(1.0f) },
            { "scale_weights", f32Array({ 1.0f }) }, { "scale_out", Attribute::f32(1.0f) },
            { "force_fp32_output", Attribute::boolean(false) }, { "fuse_activation", Attribute::string("") },
            { "fuse_alpha", Attribute::f32(0.0f) }, { "fuse_beta", Attribute::f32(0.0f) },
            { "fused_output_scale", Attribute::f32(1.0f) }, { "fused_reshape2_shape", Attribute::array({}) },
            { "onednn_data_type", Attribute::string("") } })
        attrs.push_back(drrConstAttr(name, value));
    p.result(ops::kOneDnnFc, { "input", "weight", "bias" }, { "Out" }, std::move(attrs));
    return p;
}

void fcSource(DrrPattern &p)
{
    p.source(ops::kOneDnnFc, { "input", "weight", "bias" }, { "Out" }, drrSameNames(kOneDnnFcAttributes));
    p.constraint(fcActivationTypeAccepted);
}

void fcResult(DrrPattern &p, std::vector<DrrAttribute> activation)
{
    std::vector<DrrAttribute> attrs = drrSourceAttrs(kOneDnnFcAttributes);
    for (DrrAttribute &a : activation)
        attrs.push_back(std::move(a));
    attrs.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
    p.result(ops::kOneDnnFc, { "input", "weight", "bias" }, { "act_out" }, std::move(attrs));
}

DrrPattern fcActivation(const Activation &act, unsigned benefit)
{
    DrrPattern p("FusedFcActivationFusePattern", benefit);
    fcSource(p);
    activationSource(p, act, "Out");
    fcResult(p, activationResult(act));
    return p;
}

DrrPattern fcGeluTanh(unsigned benefit)
{
    DrrPattern p("FusedFcGeluTanhFusePattern", benefit);
    fcSource(p);
    geluTanhSource(p, "Out");
    fcResult(p,
        { drrConstAttr("fuse_activation", Attribute::string("gelu_tanh")),
            drrConstAttr("fuse_alpha", Attribute::f32(0.0f)),
            drrConstAttr("fuse_beta", Attribute::f32(0.0f)) });
    return p;
}

DrrPattern fcClip(const char *clipOp, unsigned benefit)
{
    DrrPattern p("FusedFcClipFusePattern", benefit);
    fcSource(p);
    clipSource(p, clipOp, "Out");
    fcResult(p, clipResult());
    return p;
}

// --- matmul -----------------------------------------------------------------------------------

/// fused_matmul's attributes other than trans_x/trans_y and the activation's.
constexpr std::initializer_list<const char *> kFusedMatmulPassThrough
    = { "matmul_alpha", "fused_output_scale", "fused_reshape_x", "fused_transpose_x", "fused_reshape_y",
          "fused_transpose_y", "fused_reshape_out", "fused_transpose_out", "mkldnn_data_type", "scale_x",
          "scale_y", "scale_in_eltwise", "scale_out", "force_fp32_output" };

/// What a matmul made a fused_matmul gets besides trans_x/trans_y and the activation.
std::vector<DrrAttribute> fusedMatmulDefaults()
{
    std::vector<DrrAttribute> attrs;
    for (auto &[name, value] : std::vector<std::pair<const char *, Attribute>> {
             { "matmul_alpha", Attribute::f32(1.0f) }, { "fused_output_scale", Attribute::f32(1.0f) },
             { "fused_reshape_x", Attribute::array({}) }, { "fused_transpose_x", Attribute::array({}) },
             { "fused_reshape_y", Attribute::array({}) }, { "fused_transpose_y", Attribute::array({}) },
             { "fused_reshape_out", Attribute::array({}) }, { "fused_transpose_out", Attribute::array({}) },
             { "mkldnn_data_type", Attribute::string("float32") }, { "scale_x", Attribute::f32(1.0f) },
             { "scale_y", Attribute::f32(1.0f) }, { "scale_in_eltwise", Attribute::f32(0.0f) },
             { "scale_out", Attribute::f32(1.0f) }, { "force_fp32_output", Attribute::boolean(false) },
             { "onednn_data_type", Attribute::string("") } })
        attrs.push_back(drrConstAttr(name, value));
    return attrs;
}

/// The matmul of a pattern: pd_op.matmul (level 0) or a fused_matmul without an activation
/// (level 1, its residual kept).
void matmulSource(DrrPattern &p, bool fused)
{
    if (fused) {
        std::vector<std::pair<std::string, std::string>> attrs { { "trans_x", "transpose_x" },
            { "trans_y", "transpose_y" }, { "fuse_activation", "fuse_activation" } };
        for (const char *name : kFusedMatmulPassThrough)
            attrs.emplace_back(name, name);
        p.source(ops::kOneDnnFusedMatmul, { "X", "Y", "residual_data" }, { "Out" }, attrs);
        p.constraint([](const DrrMatch &m) { return m.stringAttr("fuse_activation").empty(); });
    } else {
        p.source(ops::kMatmul, { "X", "Y" }, { "Out" },
            { { "transpose_x", "transpose_x" }, { "transpose_y", "transpose_y" } });
    }
}

void matmulResult(DrrPattern &p, bool fused, std::vector<DrrAttribute> activation)
{
    std::vector<DrrAttribute> attrs { drrSourceAttr("trans_x", "transpose_x"),
        drrSourceAttr("trans_y", "transpose_y") };
    if (fused) {
        for (const char *name : kFusedMatmulPassThrough)
            attrs.push_back(drrSourceAttr(name, name));
        attrs.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
    } else {
        for (DrrAttribute &a : fusedMatmulDefaults())
            attrs.push_back(std::move(a));
    }
    for (DrrAttribute &a : activation)
        attrs.push_back(std::move(a));
    p.result(ops::kOneDnnFusedMatmul,
        { "X", "Y", fused ? "residual_data" : DrrPatternGraph::kResultInputNone }, { "act_out" },
        std::move(attrs));
}

DrrPattern matmulActivation(const Activation &act, bool fused, unsigned benefit)
{
    DrrPattern p(fused ? "FusedMatmulActivationFusePattern" : "MatmulActivationFusePattern", benefit);
    matmulSource(p, fused);
    activationSource(p, act, "Out");
    matmulResult(p, fused, activationResult(act));
    return p;
}

DrrPattern matmulGeluTanh(bool fused, unsigned benefit)
{
    DrrPattern p("MatmulGeluTanhFusePattern", benefit);
    matmulSource(p, fused);
    geluTanhSource(p, "Out");
    matmulResult(p, fused,
        { drrConstAttr("fuse_activation", Attribute::string("gelu_tanh")),
            drrConstAttr("fuse_alpha", Attribute::f32(0.0f)),
            drrConstAttr("fuse_beta", Attribute::f32(0.0f)) });
    return p;
}

DrrPattern matmulClip(const char *clipOp, bool fused, unsigned benefit)
{
    DrrPattern p("MatmulClipFusePattern", benefit);
    matmulSource(p, fused);
    clipSource(p, clipOp, "Out");
    matmulResult(p, fused, clipResult());
    return p;
}

/// add(matmul, residual) (`asX`) or add(residual, matmul), from a matmul or (`fused`) from a
/// fused_matmul without a residual.
DrrPattern matmulElementwiseAdd(bool fused, bool asX, unsigned benefit)
{
    DrrPattern p(fused ? "FusedMatmulElementwiseAddFusePattern" : "MatmulElementwiseAddFusePattern", benefit);
    if (fused) {
        std::vector<std::pair<std::string, std::string>> attrs { { "trans_x", "transpose_x" },
            { "trans_y", "transpose_y" }, { "fuse_activation", "fuse_activation" },
            { "fuse_alpha", "fuse_alpha" }, { "fuse_beta", "fuse_beta" } };
        for (const char *name : kFusedMatmulPassThrough)
            attrs.emplace_back(name, name);
        p.source(ops::kOneDnnFusedMatmul, { "X", "Y", DrrPatternGraph::kSourceInputNone }, { "Out" }, attrs);
    } else {
        p.source(ops::kMatmul, { "X", "Y" }, { "Out" },
            { { "transpose_x", "transpose_x" }, { "transpose_y", "transpose_y" } });
    }
    if (asX)
        p.source(ops::kAdd, { "Out", "residual" }, { "add_out" });
    else
        p.source(ops::kAdd, { "residual", "Out" }, { "add_out" });
    std::vector<DrrAttribute> attrs { drrSourceAttr("trans_x", "transpose_x"),
        drrSourceAttr("trans_y", "transpose_y") };
    if (fused) {
        for (const char *name : { "fuse_activation", "fuse_alpha", "fuse_beta" })
            attrs.push_back(drrSourceAttr(name, name));
        for (const char *name : kFusedMatmulPassThrough)
            attrs.push_back(drrSourceAttr(name, name));
        attrs.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
    } else {
        attrs.push_back(drrConstAttr("fuse_activation", Attribute::string("")));
        attrs.push_back(drrConstAttr("fuse_alpha", Attribute::f32(0.0f)));
        attrs.push_back(drrConstAttr("fuse_beta", Attribute::f32(0.0f)));
        for (DrrAttribute &a : fusedMatmulDefaults())
            attrs.push_back(std::move(a));
    }
    p.result(ops::kOneDnnFusedMatmul, { "X", "Y", "residual" }, { "add_out" }, std::move(attrs));
    return p;
}

/// matmul(scale(a), b) (`asX`) or matmul(b, scale(a)) with the scale a positive `full` and no
/// bias -> fused_matmul with matmul_alpha the scale (times a fused_matmul's own alpha).
DrrPattern scaleMatmul(bool fused, bool asX, unsigned benefit)
{
    DrrPattern p(fused ? "ScaleFusedMatmulFusePattern" : "ScaleMatmulFusePattern", benefit);
    p.source(ops::kFull, {}, { "scale" }, { { "value", "scale_" } });
    p.source(ops::kScale, { "scale_in", "scale" }, { "scale_out" },
        { { "bias", "bias" }, { "bias_after_scale", "bias_after_scale" } });
    const std::vector<std::string> operands = asX ? std::vector<std::string> { "scale_out", "other" }
                                                  : std::vector<std::string> { "other", "scale_out" };
    if (fused) {
        std::vector<std::pair<std::string, std::string>> attrs { { "trans_x", "transpose_x" },
            { "trans_y", "transpose_y" }, { "fuse_activation", "fuse_activation" },
            { "fuse_alpha", "fuse_alpha" }, { "fuse_beta", "fuse_beta" } };
        for (const char *name : kFusedMatmulPassThrough)
            attrs.emplace_back(name, name);
        p.source(ops::kOneDnnFusedMatmul, { operands[0], operands[1], "residual" }, { "Out" }, attrs);
    } else {
        p.source(ops::kMatmul, operands, { "Out" },
            { { "transpose_x", "transpose_x" }, { "transpose_y", "transpose_y" } });
    }
    p.constraint([fused](const DrrMatch &m) {
        if (fused && m.floatAttr("matmul_alpha") == 0.0f)
            return false;
        return m.floatAttr("bias") == 0.0f && m.floatAttr("scale_") > 0.0f;
    });
    std::vector<DrrAttribute> attrs { drrSourceAttr("trans_x", "transpose_x"),
        drrSourceAttr("trans_y", "transpose_y") };
    if (fused) {
        for (const char *name : { "fuse_activation", "fuse_alpha", "fuse_beta" })
            attrs.push_back(drrSourceAttr(name, name));
        for (const char *name : kFusedMatmulPassThrough)
            if (std::string_view(name) != "matmul_alpha")
                attrs.push_back(drrSourceAttr(name, name));
        attrs.push_back(drrComputedAttr("matmul_alpha", [](const DrrMatch &m) {
            return Attribute::f32(m.floatAttr("scale_") * m.floatAttr("matmul_alpha"));
        }));
        attrs.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
    } else {
        attrs.push_back(drrConstAttr("fuse_activation", Attribute::string("")));
        attrs.push_back(drrConstAttr("fuse_alpha", Attribute::f32(0.0f)));
        attrs.push_back(drrConstAttr("fuse_beta", Attribute::f32(0.0f)));
        for (DrrAttribute &a : fusedMatmulDefaults())
            if (a.name != "matmul_alpha")
                attrs.push_back(std::move(a));
        attrs.push_back(drrComputedAttr(
            "matmul_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("scale_")); }));
    }
    const std::string x = asX ? "scale_in" : "other", y = asX ? "other" : "scale_in";
    p.result(ops::kOneDnnFusedMatmul, { x, y, fused ? "residual" : DrrPatternGraph::kResultInputNone },
        { "Out" }, std::move(attrs));
    return p;
}

} // namespace

OneDnnMatmulFusePass::OneDnnMatmulFusePass(std::string name, std::string alias, std::string description)
    : PatternRewritePass(std::move(name), std::move(alias), std::move(description))
{
}

std::unique_ptr<OneDnnMatmulFusePass> OneDnnMatmulFusePass::create(std::string_view name)
{
    std::unique_ptr<OneDnnMatmulFusePass> pass;
    auto make = [&pass](const char *n, const char *alias, const char *description) {
        pass.reset(new OneDnnMatmulFusePass(n, alias, description));
    };
    auto add = [&pass](DrrPattern p) { pass->addPattern(std::make_unique<DrrRewritePattern>(std::move(p))); };
    if (name == "fc_onednn_enable_pass") {
        make("fc_onednn_enable_pass", "onednn_fc", "pd_op.fc -> onednn_op.fc");
        add(fcEnable());
    } else if (name == "fc_activation_fuse_pass") {
        make("fc_activation_fuse_pass", "onednn_fc_act", "onednn_op.fc + activation -> onednn_op.fc");
        unsigned benefit = 1;
        for (const Activation &a : kActivations)
            add(fcActivation(a, benefit++));
        add(fcGeluTanh(benefit++));
        add(fcClip("pd_op.clip", benefit++));
        add(fcClip("pd_op.clip_", benefit++));
    } else if (name == "matmul_activation_fuse_pass") {
        make("matmul_activation_fuse_pass", "onednn_matmul_act",
            "matmul + activation -> onednn_op.fused_matmul");
        unsigned benefit = 1;
        for (bool fused : { false, true }) {
            for (const Activation &a : kActivations)
                add(matmulActivation(a, fused, benefit++));
            add(matmulGeluTanh(fused, benefit++));
            add(matmulClip("pd_op.clip", fused, benefit++));
            add(matmulClip("pd_op.clip_", fused, benefit++));
        }
    } else if (name == "scale_matmul_fuse_pass") {
        make("scale_matmul_fuse_pass", "onednn_scale_matmul",
            "scale + matmul -> onednn_op.fused_matmul (matmul_alpha)");
        unsigned benefit = 5;
        for (bool fused : { false, true })
            for (bool asX : { false, true })
                add(scaleMatmul(fused, asX, benefit--));
    } else if (name == "matmul_elementwise_add_fuse_pass") {
        make("matmul_elementwise_add_fuse_pass", "onednn_matmul_add",
            "matmul + add -> onednn_op.fused_matmul");
        unsigned benefit = 1;
        for (bool fused : { false, true })
            for (bool asX : { false, true })
                add(matmulElementwiseAdd(fused, asX, benefit++));
    }
    return pass;
}

} // namespace ps
