#include "core/transform/onednnactivationfusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <array>
#include <string>

namespace ps {

namespace {

// --- batch_norm_act_fuse_pass -------------------------------------------------------------------

DrrPattern batchNormRelu(const char *bn, const char *fused)
{
    DrrPattern p("BatchNormActFusePattern", 2);
    p.source(bn, { "x", "mean", "variance", "scale", "bias" },
        { "bn_out", "mean_out", "variance_out", "saved_mean", "saved_variance", "reserve_space" },
        drrSameNames(
            { "momentum", "epsilon", "data_format", "use_global_stats", "trainable_statistics", "is_test" }));
    p.source(ops::kRelu, { "bn_out" }, { "relu_out" });
    p.constraint([](const DrrMatch &m) {
        const float epsilon = m.floatAttr("epsilon");
        return epsilon >= 0.0f && epsilon <= 0.001f && !m.boolAttr("trainable_statistics")
            && m.boolAttr("is_test");
    });
    p.result(fused, { "x", "mean", "variance", "scale", "bias" },
        { "relu_out", "mean_out", "variance_out", "saved_mean", "saved_variance", "reserve_space" },
        { drrConstAttr("is_test", Attribute::boolean(true)), drrSourceAttr("momentum", "momentum"),
            drrSourceAttr("epsilon", "epsilon"), drrSourceAttr("data_format", "data_format"),
            drrSourceAttr("use_global_stats", "use_global_stats"),
            drrConstAttr("trainable_statistics", Attribute::boolean(false)),
            drrConstAttr("fuse_with_relu", Attribute::boolean(true)) });
    return p;
}

// --- softplus_activation_fuse_pass --------------------------------------------------------------

struct Activation
{
    const char *op;
    const char *fused; ///< fuse_activation
};

// Paddle's std::set of activation ops, in its (name) order: the benefits follow it.
constexpr std::array<Activation, 18> kActivations { { { "pd_op.abs", "abs" }, { "pd_op.abs_", "abs" },
    { "pd_op.gelu", "gelu" }, { "pd_op.hardsigmoid", "hard_sigmoid" }, { "pd_op.hardswish", "hard_swish" },
    { "pd_op.leaky_relu", "leaky_relu" }, { "pd_op.leaky_relu_", "leaky_relu" }, { "pd_op.mish", "mish" },
    { "pd_op.relu", "relu" }, { "pd_op.relu6", "relu6" }, { "pd_op.relu_", "relu" },
    { "pd_op.sigmoid", "sigmoid" }, { "pd_op.sigmoid_", "sigmoid" }, { "pd_op.sqrt", "sqrt" },
    { "pd_op.sqrt_", "sqrt" }, { "pd_op.swish", "swish" }, { "pd_op.tanh", "tanh" },
    { "pd_op.tanh_", "tanh" } } };

constexpr char kSoftplus[] = "pd_op.softplus";

DrrAttribute doubleOf(const char *name, const char *source)
{
    return drrComputedAttr(name, [source = std::string(source)](const DrrMatch &m) {
        return Attribute::f64(double(m.floatAttr(source)));
    });
}

DrrPattern softplusActivation(const Activation &a, unsigned benefit)
{
    const std::string_view op = a.op;
    const bool hardSigmoid = op == "pd_op.hardsigmoid";
    const bool leakyRelu = op.starts_with("pd_op.leaky_relu");
    const bool gelu = op == "pd_op.gelu";
    DrrPattern p("SoftplusActivationFusePattern", benefit);
    p.source(kSoftplus, { "x" }, { "Out" }, drrSameNames({ "beta", "threshold" }));
    std::vector<std::pair<std::string, std::string>> attrs;
    if (hardSigmoid)
        attrs = { { "slope", "fuse_alpha" }, { "offset", "fuse_beta" } };
    else if (leakyRelu)
        attrs = { { "negative_slope", "fuse_alpha" } };
    else if (gelu)
        attrs = { { "approximate", "approximate" } };
    p.source(a.op, { "Out" }, { "act_out" }, std::move(attrs));
    if (gelu)
        p.constraint([](const DrrMatch &m) { return !m.boolAttr("approximate"); });
    DrrAttribute alpha = drrConstAttr("fuse_alpha", Attribute::f64(0.0));
    DrrAttribute beta = drrConstAttr("fuse_beta", Attribute::f64(0.0));
    if (op == "pd_op.hardswish") {
        alpha = drrConstAttr("fuse_alpha", Attribute::f64(1.0 / 6.0));
        beta = drrConstAttr("fuse_beta", Attribute::f64(0.5));
    } else if (hardSigmoid) {
        alpha = doubleOf("fuse_alpha", "fuse_alpha");
        beta = doubleOf("fuse_beta", "fuse_beta");
    } else if (leakyRelu) {
        alpha = doubleOf("fuse_alpha", "fuse_alpha");
    } else if (op == "pd_op.swish") {
        alpha = drrConstAttr("fuse_alpha", Attribute::f64(1.0));
    } else if (op == "pd_op.relu6") {
        beta = drrConstAttr("fuse_beta", Attribute::f64(6.0));
    }
    p.result(ops::kOneDnnFusedSoftplus, { "x" }, { "act_out" },
        { drrSourceAttr("beta", "beta"), drrSourceAttr("threshold", "threshold"),
            drrConstAttr("fuse_activation", Attribute::string(a.fused)), std::move(alpha), std::move(beta) });
    return p;
}

DrrPattern softplusGeluTanh(unsigned benefit)
{
    DrrPattern p("SoftplusActivationFusePattern", benefit);
    p.source(kSoftplus, { "x" }, { "Out" }, drrSameNames({ "beta", "threshold" }));
    p.source("pd_op.gelu", { "Out" }, { "act_out" }, { { "approximate", "approximate" } });
    p.constraint([](const DrrMatch &m) { return m.boolAttr("approximate"); });
    p.result(ops::kOneDnnFusedSoftplus, { "x" }, { "act_out" },
        { drrSourceAttr("beta", "beta"), drrSourceAttr("threshold", "threshold"),
            drrConstAttr("fuse_activation", Attribute::string("gelu_tanh")),
            drrConstAttr("fuse_alpha", Attribute::f64(0.0)),
            drrConstAttr("fuse_beta", Attribute::f64(0.0)) });
    return p;
}

DrrPattern softplusClip(const char *clip, unsigned benefit)
{
    DrrPattern p("SoftplusActivationFusePattern", benefit);
    p.source(kSoftplus, { "x" }, { "Out" }, drrSameNames({ "beta", "threshold" }));
    p.source(ops::kFull, {}, { "min" }, { { "shape", "shape1" }, { "value", "value1" } });
    p.source(ops::kFull, {}, { "max" }, { { "shape", "shape2" }, { "value", "value2" } });
    p.source(clip, { "Out", "min", "max" }, { "act_out" });
    p.result(ops::kOneDnnFusedSoftplus, { "x" }, { "act_out" },
        { drrSourceAttr("beta", "beta"), drrSourceAttr("threshold", "threshold"),
            drrConstAttr("fuse_activation", Attribute::string("clip")),
            drrComputedAttr(
                "fuse_alpha", [](const DrrMatch &m) { return Attribute::f64(m.doubleAttr("value1")); }),
            drrComputedAttr(
                "fuse_beta", [](const DrrMatch &m) { return Attribute::f64(m.doubleAttr("value2")); }) });
    return p;
}

} // namespace

OneDnnActivationFusePass::OneDnnActivationFusePass(
    std::string name, std::string alias, std::string description)
    : PatternRewritePass(std::move(name), std::move(alias), std::move(description))
{
}

std::unique_ptr<OneDnnActivationFusePass> OneDnnActivationFusePass::create(std::string_view name)
{
    std::unique_ptr<OneDnnActivationFusePass> pass;
    if (name == "batch_norm_act_fuse_pass") {
        pass.reset(new OneDnnActivationFusePass("batch_norm_act_fuse_pass", "onednn_batch_norm_act",
            "batch_norm + relu -> onednn_op.batch_norm with fuse_with_relu"));
        pass->addPattern(
            std::make_unique<DrrRewritePattern>(batchNormRelu(ops::kBatchNorm, ops::kOneDnnBatchNorm)));
        pass->addPattern(
            std::make_unique<DrrRewritePattern>(batchNormRelu(ops::kBatchNorm_, ops::kOneDnnBatchNorm_)));
    } else if (name == "softplus_activation_fuse_pass") {
        pass.reset(new OneDnnActivationFusePass("softplus_activation_fuse_pass", "onednn_softplus_act",
            "softplus + activation -> onednn_op.fused_softplus"));
        unsigned benefit = 1;
        for (const Activation &a : kActivations)
            pass->addPattern(std::make_unique<DrrRewritePattern>(softplusActivation(a, benefit++)));
        pass->addPattern(std::make_unique<DrrRewritePattern>(softplusGeluTanh(benefit++)));
        pass->addPattern(std::make_unique<DrrRewritePattern>(softplusClip("pd_op.clip", benefit++)));
        pass->addPattern(std::make_unique<DrrRewritePattern>(softplusClip("pd_op.clip_", benefit++)));
    }
    return pass;
}

} // namespace ps
