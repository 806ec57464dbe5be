#include "core/transform/onednnconvfusepass.h"

#include "core/dialect/ops.h"
#include "core/ir/operation.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/functionrewritepattern.h"
#include "core/transform/fusedconvattributes.h"
#include "core/transform/patternrewriter.h"
#include "core/transform/rewritehelpers.h"

#include <array>

namespace ps {

namespace {

/// The attributes fused_conv2d has beyond conv2d's (Paddle 3.3.1's onednn_op YAML).
constexpr std::initializer_list<const char *> kFusedConvPassThrough
    = { "mkldnn_data_type", "fuse_residual_connection", "force_fp32_output", "scale_in", "scale_out",
          "scale_in_eltwise", "scale_weights" };

constexpr std::initializer_list<const char *> kFusedConvSourceAttributes
    = { "strides", "paddings", "padding_algorithm", "dilations", "groups", "data_format", "mkldnn_data_type",
          "fuse_activation", "fuse_residual_connection", "force_fp32_output", "fuse_alpha", "fuse_beta",
          "scale_in", "scale_out", "scale_in_eltwise", "scale_weights" };

Attribute f32Array(std::initializer_list<float> values)
{
    std::vector<Attribute> out;
    for (float v : values)
        out.push_back(Attribute::f32(v));
    return Attribute::array(std::move(out));
}

/// What a conv2d turned into a fused_conv2d gets: its own attributes, then the defaults below
/// (`onednn_data_type` is filled by the op's builder in Paddle, the others by the passes).
std::vector<NamedAttribute> fusedConvDefaults(
    const std::string &activation, float alpha, float beta, bool residual)
{
    return { { "mkldnn_data_type", Attribute::string("float32") },
        { "fuse_activation", Attribute::string(activation) },
        { "fuse_residual_connection", Attribute::boolean(residual) },
        { "force_fp32_output", Attribute::boolean(false) }, { "fuse_alpha", Attribute::f32(alpha) },
        { "fuse_beta", Attribute::f32(beta) }, { "scale_in", Attribute::f32(1.0f) },
        { "scale_out", Attribute::f32(1.0f) }, { "scale_in_eltwise", Attribute::f32(1.0f) },
        { "scale_weights", f32Array({ 1.0f }) }, { "onednn_data_type", Attribute::string("") } };
}

/// DRR result attributes of a fused_conv2d made from a conv2d.
std::vector<DrrAttribute> fromConvAttrs(const std::string &activation, bool residual)
{
    std::vector<DrrAttribute> attrs = drrSourceAttrs(kConv2dAttributes);
    for (NamedAttribute &a : fusedConvDefaults(activation, 0.0f, 0.0f, residual))
        attrs.push_back(drrConstAttr(a.name, a.value));
    return attrs;
}

bool acceptedConv(const DrrMatch &m, std::initializer_list<std::string_view> formats)
{
    return fusableConv2dAttributes(
        &m.attr("padding_algorithm"), &m.attr("data_format"), &m.attr("groups"), formats);
}

// --- depthwise_conv_onednn_pass ---------------------------------------------------------------

DrrPattern depthwiseToConv()
{
    DrrPattern p("DepthwiseConvPattern", 2);
    p.source(ops::kDepthwiseConv2d, { "input", "filter" }, { "conv_out" }, drrSameNames(kConv2dAttributes));
    p.constraint([](const DrrMatch &m) { return acceptedConv(m, { "NCHW", "NHWC", "AnyLayout" }); });
    p.result(ops::kConv2d, { "input", "filter" }, { "conv_out" }, drrSourceAttrs(kConv2dAttributes));
    return p;
}

// --- conv2d_bn_onednn_fuse_pass, conv2d_bias_bn_onednn_fuse_pass ------------------------------

bool bnStatisticsUnused(const Operation &bn)
{
    for (unsigned i = 1; i < 5 && i < bn.numResults(); ++i)
        if (bn.result(i).hasUses())
            return false;
    return true;
}

/// `bias` of the fused conv from batch_norm_ `bn` over conv `conv` (with `convBias`, the per-
/// channel bias of the add between them, reshaped to [C], or null). Builds Paddle's ops in its
/// order and replaces the batch norm; false (and nothing built) when a check fails.
bool foldBatchNorm(Operation &bn, Operation &conv, Value convBias, Operation *add, PatternRewriter &rewriter)
{
    const Value filter = conv.operand(1);
    const Value mean = bn.operand(1), variance = bn.operand(2), scale = bn.operand(3), bias = bn.operand(4);
    if (scale.isNull() || bias.isNull() || !filter.type().isTensorLike() || !variance.type().isTensorLike()
        || filter.type().dtype() == DataType::Float16 || scale.type().dims().empty())
        return false;
    const std::optional<float> foldable = foldableBatchNormEpsilon(bn);
    if (!foldable)
        return false;
    const float epsilon = *foldable;
    Value reshapedConvBias;
    if (add) {
        const std::vector<int64_t> addShape = convBias.type().dims();
        const std::vector<int64_t> biasShape = bias.type().dims();
        if (addShape.empty() || biasShape.empty())
            return false;
        int64_t channels = addShape[0];
        if (addShape.size() != 1) {
            const bool nhwc = conv.attribute("data_format")->asString() == "NHWC";
            const size_t idx = nhwc ? addShape.size() - 1 : 1;
            if (addShape[idx] != biasShape[0])
                return false;
            for (size_t i = 0; i < addShape.size(); ++i)
                if (i != idx && addShape[i] != 1)
                    return false;
            channels = addShape[idx];
        } else if (addShape[0] != 1) {
            return false;
        }
        reshapedConvBias = buildReshape(rewriter, convBias, { channels });
    }
    const std::vector<int64_t> varianceShape = variance.type().dims();
    const Value eps = buildOp(rewriter, ops::kFull, {},
        { Type::denseTensor(DataType::Float32, varianceShape) },
        { { "shape", Attribute::intArray(varianceShape) }, { "value", Attribute::f64(epsilon) },
            { "dtype", Attribute::dataType(DataType::Float32) }, { "place", Attribute::place(cpuPlace()) } })
                          ->result(0);
    const Value sum = buildOp(rewriter, ops::kAdd, { variance, eps }, { variance.type() })->result(0);
    const Value root = buildOp(rewriter, "pd_op.sqrt", { sum }, { sum.type() })->result(0);
    const Value factor = buildOp(rewriter, "pd_op.divide", { scale, root }, { scale.type() })->result(0);
    std::vector<int64_t> factorShape(filter.type().dims().size(), 1);
    factorShape[0] = scale.type().dims()[0];
    const Value factorReshaped = buildReshape(rewriter, factor, factorShape);
    const Value newFilter
        = buildOp(rewriter, ops::kMultiply, { filter, factorReshaped }, { filter.type() })->result(0);
    Value newBias;
    if (add) {
        const Value centered
            = buildOp(rewriter, "pd_op.subtract", { reshapedConvBias, mean }, { mean.type() })->result(0);
        const Value scaled
            = buildOp(rewriter, ops::kMultiply, { centered, factor }, { mean.type() })->result(0);
        newBias = buildOp(rewriter, ops::kAdd, { bias, scaled }, { bias.type() })->result(0);
    } else {
        const Value shift = buildOp(rewriter, ops::kMultiply, { mean, factor }, { mean.type() })->result(0);
        newBias = buildOp(rewriter, "pd_op.subtract", { bias, shift }, { bias.type() })->result(0);
    }
    std::vector<NamedAttribute> attrs(conv.attributes().begin(), conv.attributes().end());
    for (NamedAttribute &a : fusedConvDefaults("", 0.0f, 0.0f, false)) {
        std::erase_if(attrs, [&a](const NamedAttribute &b) { return b.name == a.name; });
        attrs.push_back(std::move(a));
    }
    const std::array<Value, 4> operands { conv.operand(0), newFilter, newBias, Value() };
    const std::array<Type, 1> types { bn.result(0).type() };
    Operation *fused = buildOp(rewriter, ops::kOneDnnFusedConv2d, operands, types, std::move(attrs));
    rewriter.replaceAllUsesWith(bn.result(0), fused->result(0));
    rewriter.eraseOp(&bn);
    if (add)
        rewriter.eraseOp(add);
    rewriter.eraseOp(&conv);
    return true;
}

bool acceptedConvOp(const Operation &conv)
{
    return fusableConv2dAttributes(
        conv.attribute("padding_algorithm"), conv.attribute("data_format"), conv.attribute("groups"));
}

bool convBn(Operation &bn, PatternRewriter &rewriter)
{
    Operation *conv = definingOpOfOperand(bn, 0);
    if (!conv || conv->name() != ops::kConv2d || bn.numOperands() < 5 || !acceptedConvOp(*conv)
        || !conv->result(0).hasOneUse() || !bnStatisticsUnused(bn))
        return false;
    return foldBatchNorm(bn, *conv, Value(), nullptr, rewriter);
}

bool convBiasBn(Operation &bn, PatternRewriter &rewriter)
{
    Operation *add = definingOpOfOperand(bn, 0);
    if (!add || add->name() != ops::kAdd || bn.numOperands() < 5)
        return false;
    Operation *conv = definingOpOfOperand(*add, 0);
    if (!conv || conv->name() != ops::kConv2d || !acceptedConvOp(*conv) || !conv->result(0).hasOneUse()
        || !add->result(0).hasOneUse() || !bnStatisticsUnused(bn) || !valueIsPersistable(add->operand(1)))
        return false;
    return foldBatchNorm(bn, *conv, add->operand(1), add, rewriter);
}

// --- conv2d_bias_fuse_pass -------------------------------------------------------------------

DrrPattern convBias()
{
    DrrPattern p("ConvBiasFusePattern", 2);
    p.source(ops::kConv2d, { "input", "filter" }, { "conv_out" }, drrSameNames(kConv2dAttributes));
    p.source(ops::kAdd, { "conv_out", "bias" }, { "add_out" });
    p.constraint([](const DrrMatch &m) {
        return valueIsPersistable(m.tensor("bias")) && acceptedConv(m, { "NCHW", "NHWC", "AnyLayout" });
    });
    p.result(ops::kOneDnnFusedConv2d, { "input", "filter", "bias", DrrPatternGraph::kResultInputNone },
        { "add_out" }, fromConvAttrs("", false));
    return p;
}

// --- conv3d_bias_fuse_pass, conv2d_transpose_bias_fuse_pass ---------------------------------

/// add(conv3d(x, w), bias) with bias persistable -> onednn_op.fused_conv3d (Paddle's
/// ConvBiasFusePattern over conv3d: NCDHW or NDHWC).
DrrPattern conv3dBias()
{
    DrrPattern p("ConvBiasFusePattern", 2);
    p.source("pd_op.conv3d", { "input", "filter" }, { "conv_out" }, drrSameNames(kConv2dAttributes));
    p.source(ops::kAdd, { "conv_out", "bias" }, { "add_out" });
    p.constraint([](const DrrMatch &m) {
        return valueIsPersistable(m.tensor("bias")) && acceptedConv(m, { "NCDHW", "NDHWC" });
    });
    p.result("onednn_op.fused_conv3d", { "input", "filter", "bias", DrrPatternGraph::kResultInputNone },
        { "add_out" }, fromConvAttrs("", false));
    return p;
}

constexpr std::initializer_list<const char *> kConvTransposeAttributes
    = { "strides", "paddings", "output_padding", "padding_algorithm", "dilations", "groups", "data_format" };

std::vector<DrrAttribute> convTransposeBiasAttrs()
{
    std::vector<DrrAttribute> attrs = drrSourceAttrs(kConvTransposeAttributes);
    for (auto &[name, value] :
        std::vector<std::pair<const char *, Attribute>> { { "force_fp32_output", Attribute::boolean(false) },
            { "mkldnn_data_type", Attribute::string("float32") }, { "fuse_relu", Attribute::boolean(false) },
            { "fuse_activation", Attribute::string("") }, { "fuse_alpha", Attribute::f32(0.0f) },
            { "fuse_beta", Attribute::f32(0.0f) }, { "is_test", Attribute::boolean(true) },
            { "onednn_data_type", Attribute::string("") } })
        attrs.push_back(drrConstAttr(name, value));
    return attrs;
}

/// add(conv2d_transpose(x, w, output_size), bias) with bias persistable ->
/// onednn_op.conv2d_transpose_bias; with `second`, a further add of a persistable `other` folds
/// into the bias (bias + other, a new add).
DrrPattern convTransposeBias(bool second)
{
    DrrPattern p(
        second ? "FusedConvTransposeAddFusePattern" : "ConvTransposeBiasFusePattern", second ? 3 : 2);
    p.source("pd_op.conv2d_transpose", { "input", "filter", "output_size" }, { "conv_out" },
        drrSameNames(kConvTransposeAttributes));
    p.source(ops::kAdd, { "conv_out", "bias" }, { "add_out" });
    if (second)
        p.source(ops::kAdd, { "add_out", "other_param" }, { "result" });
    p.constraint([second](const DrrMatch &m) {
        return valueIsPersistable(m.tensor("bias"))
            && (!second || valueIsPersistable(m.tensor("other_param")))
            && acceptedConv(m, { "NCHW", "NHWC", "AnyLayout" });
    });
    // Unlike conv2d_bias_fuse_pass's, these patterns take a 1-D bias only (Paddle 3.3.1 leaves a
    // Conv2DTranspose's bias, reshaped to [1, C, 1, 1]).
    p.constraint([second](const DrrMatch &m) {
        return m.shape("bias").size() == 1 && (!second || m.shape("other_param").size() == 1);
    });
    if (second) {
        p.result(ops::kAdd, { "bias", "other_param" }, { "bias2" }, {},
            [](const DrrMatch &m, const std::vector<Value> &) {
                return std::vector<Type> { m.tensor("bias").type() };
            });
        p.result("onednn_op.conv2d_transpose_bias", { "input", "filter", "bias2", "output_size" },
            { "result" }, convTransposeBiasAttrs());
    } else {
        p.result("onednn_op.conv2d_transpose_bias", { "input", "filter", "bias", "output_size" },
            { "add_out" }, convTransposeBiasAttrs());
    }
    return p;
}

// --- conv2d_transpose_bn_fuse_pass, conv2d_transpose_bias_bn_fuse_pass -------------------------

/// batch_norm_(conv2d_transpose(x, w, output_size)) (`withBias`: through an add of a persistable
/// [1] tensor r) -> onednn_op.conv2d_transpose_bias(x, w', b') with s = scale / sqrt(variance +
/// eps) applied to w's output channels (w transposed to OIHW and back) and b' = bias - mean * s
/// (or (r - mean) * s + bias), the ops built in the order Paddle's DRR result leaves them.
/// Paddle's epsilon check reads `!epsilon`, so it takes any epsilon but 0.
bool convTransposeBn(Operation &bn, PatternRewriter &rewriter, bool withBias)
{
    Operation *add = withBias ? definingOpOfOperand(bn, 0) : nullptr;
    if (withBias && (!add || add->name() != ops::kAdd || !add->result(0).hasOneUse()))
        return false;
    Operation *conv = definingOpOfOperand(withBias ? *add : bn, 0);
    if (!conv || conv->name() != "pd_op.conv2d_transpose" || !conv->result(0).hasOneUse()
        || bn.numOperands() < 5 || conv->numOperands() < 3 || !bnStatisticsUnused(bn))
        return false;
    const Value input = conv->operand(0), filter = conv->operand(1);
    const Value mean = bn.operand(1), variance = bn.operand(2), scale = bn.operand(3), bias = bn.operand(4);
    const Value residual = withBias ? add->operand(1) : Value();
    if (scale.isNull() || bias.isNull() || !filter.type().isTensorLike() || !variance.type().isTensorLike()
        || filter.type().dtype() == DataType::Float16 || input.type().dims().size() != 4
        || scale.type().dims().empty())
        return false;
    const Attribute *groupsAttr = conv->attribute("groups");
    const Attribute *epsilonAttr = bn.attribute("epsilon");
    if (!groupsAttr || groupsAttr->asInt() < 1 || !epsilonAttr || epsilonAttr->asDouble() == 0.0)
        return false;
    if (withBias && (!valueIsPersistable(residual) || residual.type().dims() != std::vector<int64_t> { 1 }))
        return false;
    const float epsilon = float(epsilonAttr->asDouble());
    std::vector<int64_t> perm(filter.type().dims().size());
    for (size_t i = 0; i < perm.size(); ++i)
        perm[i] = int64_t(i);
    const size_t g = groupsAttr->asInt() > 1 ? 1 : 0;
    if (g + 1 < perm.size())
        std::swap(perm[g], perm[g + 1]);
    std::vector<int64_t> permutedDims = filter.type().dims();
    for (size_t i = 0; i < perm.size(); ++i)
        permutedDims[i] = filter.type().dims()[size_t(perm[i])];
    const Type permutedType = withDims(filter.type(), permutedDims);

    rewriter.setInsertionPoint(conv);
    const std::vector<int64_t> varianceShape = variance.type().dims();
    const Value eps = buildOp(rewriter, ops::kFull, {},
        { Type::denseTensor(DataType::Float32, varianceShape) },
        { { "shape", Attribute::intArray(varianceShape) }, { "value", Attribute::f64(epsilon) },
            { "dtype", Attribute::dataType(DataType::Float32) }, { "place", Attribute::place(cpuPlace()) } })
                          ->result(0);
    Value centered;
    if (withBias)
        centered = buildOp(rewriter, "pd_op.subtract", { residual, mean }, { mean.type() })->result(0);
    const Value transposedFilter = buildOp(rewriter, ops::kTranspose, { filter }, { permutedType },
        { { "perm",
            int32ArrayAttr(perm) } })->result(0);
    const Value sum = buildOp(rewriter, ops::kAdd, { variance, eps }, { variance.type() })->result(0);
    const Value root = buildOp(rewriter, "pd_op.sqrt", { sum }, { sum.type() })->result(0);
    const Value factor = buildOp(rewriter, "pd_op.divide", { scale, root }, { scale.type() })->result(0);
    const Value shifted
        = buildOp(rewriter, ops::kMultiply, { withBias ? centered : mean, factor }, { mean.type() })
              ->result(0);
    const Value factorReshaped = buildReshape(rewriter, factor, { scale.type().dims()[0], 1, 1, 1 });
    const Value newBias = withBias
        ? buildOp(rewriter, ops::kAdd, { shifted, bias }, { bias.type() })->result(0)
        : buildOp(rewriter, "pd_op.subtract", { bias, shifted }, { bias.type() })->result(0);
    const Value scaledFilter
        = buildOp(rewriter, ops::kMultiply, { transposedFilter, factorReshaped }, { permutedType })
              ->result(0);
    const Value newFilter = buildOp(
        rewriter, ops::kTranspose, { scaledFilter }, { filter.type() }, { { "perm", int32ArrayAttr(perm) } })
                                ->result(0);
    std::vector<NamedAttribute> attrs;
    for (const char *name : { "strides", "paddings", "output_padding", "padding_algorithm", "dilations",
             "groups", "data_format" })
        if (const Attribute *a = conv->attribute(name))
            attrs.push_back({ name, *a });
    for (auto &[name, value] :
        std::vector<std::pair<const char *, Attribute>> { { "force_fp32_output", Attribute::boolean(false) },
            { "mkldnn_data_type", Attribute::string("float32") },
            { "onednn_data_type", Attribute::string("") }, { "fuse_relu", Attribute::boolean(false) },
            { "fuse_activation", Attribute::string("") }, { "fuse_alpha", Attribute::f32(0.0f) },
            { "fuse_beta", Attribute::f32(0.0f) }, { "is_test", Attribute::boolean(true) } })
        attrs.push_back({ name, value });
    const std::array<Value, 4> operands { input, newFilter, newBias, conv->operand(2) };
    const std::array<Type, 1> types { bn.result(0).type() };
    Operation *fused
        = buildOp(rewriter, "onednn_op.conv2d_transpose_bias", operands, types, std::move(attrs));
    rewriter.replaceAllUsesWith(bn.result(0), fused->result(0));
    rewriter.eraseOp(&bn);
    if (add)
        rewriter.eraseOp(add);
    rewriter.eraseOp(conv);
    return true;
}

// --- conv_elementwise_add_onednn_fuse_pass --------------------------------------------------

/// add(conv, residual) (`residualFirst`: add(residual, conv)) from a conv2d or (`fused`) from a
/// fused_conv2d with a bias and no residual or activation.
DrrPattern convElementwiseAdd(bool fused, bool residualFirst)
{
    DrrPattern p(std::string(fused ? "FusedConvBias" : "Conv") + "ElementwiseAdd"
            + (residualFirst ? "AsYPattern" : "Pattern"),
        2);
    if (fused)
        p.source(ops::kOneDnnFusedConv2d, { "input", "filter", "bias", DrrPatternGraph::kSourceInputNone },
            { "conv2d_out" }, drrSameNames(kFusedConvSourceAttributes));
    else
        p.source(ops::kConv2d, { "input", "filter" }, { "conv2d_out" }, drrSameNames(kConv2dAttributes));
    if (residualFirst)
        p.source(ops::kAdd, { "residual_param", "conv2d_out" }, { "add_out" });
    else
        p.source(ops::kAdd, { "conv2d_out", "residual_param" }, { "add_out" });
    p.constraint([fused](const DrrMatch &m) {
        if (!acceptedConv(m, { "NCHW", "AnyLayout" }))
            return false;
        if (fused && (!m.stringAttr("fuse_activation").empty() || m.boolAttr("fuse_residual_connection")))
            return false;
        return m.shape("conv2d_out") == m.shape("residual_param");
    });
    std::vector<DrrAttribute> attrs;
    if (fused) {
        attrs = drrSourceAttrs(kConv2dAttributes);
        for (const char *name : { "mkldnn_data_type", "fuse_activation", "force_fp32_output", "fuse_alpha",
                 "fuse_beta", "scale_in", "scale_out", "scale_in_eltwise", "scale_weights" })
            attrs.push_back(drrSourceAttr(name, name));
        attrs.push_back(drrConstAttr("fuse_residual_connection", Attribute::boolean(true)));
        attrs.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
    } else {
        attrs = fromConvAttrs("", true);
    }
    p.result(ops::kOneDnnFusedConv2d,
        { "input", "filter", fused ? "bias" : DrrPatternGraph::kResultInputNone, "residual_param" },
        { "add_out" }, std::move(attrs));
    return p;
}

// --- conv_activation_mkldnn_fuse_pass -------------------------------------------------------

struct Activation
{
    const char *name; ///< Paddle's pattern name (and, without a trailing '_', fuse_activation)
    const char *op;
};

// conv_activation_mkldnn_fuse_pass's list, in its order.
constexpr std::array<Activation, 17> kActivations { { { "abs", "pd_op.abs" }, { "abs_", "pd_op.abs_" },
    { "sqrt", "pd_op.sqrt" }, { "sqrt_", "pd_op.sqrt_" }, { "mish", "pd_op.mish" }, { "relu", "pd_op.relu" },
    { "relu_", "pd_op.relu_" }, { "sigmoid", "pd_op.sigmoid" }, { "sigmoid_", "pd_op.sigmoid_" },
    { "tanh", "pd_op.tanh" }, { "tanh_", "pd_op.tanh_" }, { "relu6", "pd_op.relu6" },
    { "hard_swish", "pd_op.hardswish" }, { "swish", "pd_op.swish" }, { "leaky_relu", "pd_op.leaky_relu" },
    { "leaky_relu_", "pd_op.leaky_relu_" }, { "hard_sigmoid", "pd_op.hardsigmoid" } } };

/// The conv of level 0 (conv2d) or of level 1 (a fused_conv2d without an activation).
void convSource(DrrPattern &p, bool fused)
{
    if (fused) {
        p.source(ops::kOneDnnFusedConv2d, { "input", "filter", "bias", "residual_param" }, { "conv2d_out" },
            drrSameNames(kFusedConvSourceAttributes));
        p.constraint([](const DrrMatch &m) { return m.stringAttr("fuse_activation").empty(); });
    } else {
        p.source(ops::kConv2d, { "input", "filter" }, { "conv2d_out" }, drrSameNames(kConv2dAttributes));
    }
}

/// The fused conv of a conv+activation match: level 0 from conv2d with Paddle's defaults, level
/// 1 keeping the fused conv's attributes; fuse_alpha/fuse_beta as given (null: the source's).
void convResult(DrrPattern &p, bool fused, DrrAttribute activation, DrrAttribute alpha, DrrAttribute beta)
{
    std::vector<DrrAttribute> attrs = drrSourceAttrs(kConv2dAttributes);
    if (fused) {
        for (const char *name : kFusedConvPassThrough)
            attrs.push_back(drrSourceAttr(name, name));
    } else {
        for (NamedAttribute &a : fusedConvDefaults("", 0.0f, 0.0f, false))
            if (a.name != "fuse_activation" && a.name != "fuse_alpha" && a.name != "fuse_beta"
                && a.name != "onednn_data_type")
                attrs.push_back(drrConstAttr(a.name, a.value));
    }
    attrs.push_back(std::move(activation));
    attrs.push_back(std::move(alpha));
    attrs.push_back(std::move(beta));
    attrs.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
    if (fused)
        p.result(ops::kOneDnnFusedConv2d, { "input", "filter", "bias", "residual_param" }, { "act_out" },
            std::move(attrs));
    else
        p.result(ops::kOneDnnFusedConv2d,
            { "input", "filter", DrrPatternGraph::kResultInputNone, DrrPatternGraph::kResultInputNone },
            { "act_out" }, std::move(attrs));
}

DrrPattern convActivation(const Activation &act, bool fused, unsigned benefit)
{
    const std::string name = act.name;
    DrrPattern p("Conv" + std::string(fused ? "1" : "0") + name + "FusePattern", benefit);
    convSource(p, fused);
    std::vector<std::pair<std::string, std::string>> actAttrs;
    const bool leaky = name.starts_with("leaky_relu");
    if (name == "hard_sigmoid")
        actAttrs = { { "slope", "slope" }, { "offset", "offset" } };
    else if (leaky)
        actAttrs = { { "negative_slope", "negative_slope" } };
    p.source(act.op, { "conv2d_out" }, { "act_out" }, actAttrs);
    if (leaky)
        p.constraint([](const DrrMatch &m) { return m.floatAttr("negative_slope") > 0.0f; });
    float alpha = 0.0f, beta = 0.0f;
    if (name == "relu6")
        beta = 6.0f;
    else if (name == "hard_swish")
        alpha = 1.0f / 6.0f, beta = 0.5f;
    else if (name == "swish")
        alpha = 1.0f;
    DrrAttribute alphaAttr = drrConstAttr("fuse_alpha", Attribute::f32(alpha));
    DrrAttribute betaAttr = drrConstAttr("fuse_beta", Attribute::f32(beta));
    if (leaky)
        alphaAttr = drrComputedAttr(
            "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("negative_slope")); });
    if (name == "hard_sigmoid") {
        alphaAttr = drrComputedAttr(
            "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("slope")); });
        betaAttr = drrComputedAttr(
            "fuse_beta", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("offset")); });
    }
    const std::string fuseName = name.ends_with('_') ? name.substr(0, name.size() - 1) : name;
    convResult(p, fused, drrConstAttr("fuse_activation", Attribute::string(fuseName)), std::move(alphaAttr),
        std::move(betaAttr));
    return p;
}

DrrPattern convGelu(bool fused)
{
    DrrPattern p("ConvGeluFusePattern", fused ? 2 : 1);
    convSource(p, fused);
    p.source("pd_op.gelu", { "conv2d_out" }, { "act_out" }, { { "approximate", "approximate" } });
    const DrrAttribute activation = drrComputedAttr("fuse_activation", [](const DrrMatch &m) {
        return Attribute::string(m.boolAttr("approximate") ? "gelu_tanh" : "gelu_erf");
    });
    if (fused)
        convResult(p, true, activation, drrSourceAttr("fuse_alpha", "fuse_alpha"),
            drrSourceAttr("fuse_beta", "fuse_beta"));
    else
        convResult(p, false, activation, drrConstAttr("fuse_alpha", Attribute::f32(0.0f)),
            drrConstAttr("fuse_beta", Attribute::f32(0.0f)));
    return p;
}

DrrPattern convClip(const char *clipOp, bool fused)
{
    DrrPattern p("ConvClipFusePattern", fused ? 2 : 1);
    p.source(ops::kFull, {}, { "min" }, { { "value", "full_1_value" } });
    p.source(ops::kFull, {}, { "max" }, { { "value", "full_2_value" } });
    convSource(p, fused);
    p.source(clipOp, { "conv2d_out", "min", "max" }, { "act_out" });
    convResult(p, fused, drrConstAttr("fuse_activation", Attribute::string("clip")),
        drrComputedAttr(
            "fuse_alpha", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("full_1_value")); }),
        drrComputedAttr(
            "fuse_beta", [](const DrrMatch &m) { return Attribute::f32(m.floatAttr("full_2_value")); }));
    return p;
}

} // namespace

OneDnnConvFusePass::OneDnnConvFusePass(std::string name, std::string alias, std::string description)
    : PatternRewritePass(std::move(name), std::move(alias), std::move(description))
{
}

std::unique_ptr<OneDnnConvFusePass> OneDnnConvFusePass::create(std::string_view name)
{
    std::unique_ptr<OneDnnConvFusePass> pass;
    auto make = [&pass](const char *n, const char *alias, const char *description) {
        pass.reset(new OneDnnConvFusePass(n, alias, description));
    };
    if (name == "depthwise_conv_onednn_pass") {
        make("depthwise_conv_onednn_pass", "onednn_depthwise", "depthwise_conv2d -> conv2d (oneDNN)");
        pass->addPattern(std::make_unique<DrrRewritePattern>(depthwiseToConv()));
    } else if (name == "conv2d_bn_onednn_fuse_pass") {
        make(
            "conv2d_bn_onednn_fuse_pass", "onednn_conv_bn", "conv2d + batch_norm_ -> onednn_op.fused_conv2d");
        pass->addPattern(std::make_unique<FunctionRewritePattern>(
            "Conv2dBnOneDNNFusePattern", ops::kBatchNorm_, 1, convBn));
    } else if (name == "conv2d_bias_bn_onednn_fuse_pass") {
        make("conv2d_bias_bn_onednn_fuse_pass", "onednn_conv_bias_bn",
            "conv2d + bias add + batch_norm_ -> onednn_op.fused_conv2d");
        pass->addPattern(std::make_unique<FunctionRewritePattern>(
            "Conv2dBiasBnOneDNNFusePattern", ops::kBatchNorm_, 1, convBiasBn));
    } else if (name == "conv2d_bias_fuse_pass") {
        make("conv2d_bias_fuse_pass", "onednn_conv_bias",
            "conv2d + persistable bias add -> onednn_op.fused_conv2d");
        pass->addPattern(std::make_unique<DrrRewritePattern>(convBias()));
    } else if (name == "conv2d_transpose_bn_fuse_pass") {
        make("conv2d_transpose_bn_fuse_pass", "onednn_conv_transpose_bn",
            "conv2d_transpose + batch_norm_ -> onednn_op.conv2d_transpose_bias");
        pass->addPattern(
            std::make_unique<FunctionRewritePattern>("Conv2dTransposeBnOneDNNFusePattern", ops::kBatchNorm_,
                2, [](Operation &bn, PatternRewriter &r) { return convTransposeBn(bn, r, false); }));
    } else if (name == "conv2d_transpose_bias_bn_fuse_pass") {
        make("conv2d_transpose_bias_bn_fuse_pass", "onednn_conv_transpose_bias_bn",
            "conv2d_transpose + [1] bias add + batch_norm_ -> onednn_op.conv2d_transpose_bias");
        pass->addPattern(std::make_unique<FunctionRewritePattern>("Conv2dTransposeEltwiseBnOneDNNFusePattern",
            ops::kBatchNorm_, 2,
            [](Operation &bn, PatternRewriter &r) { return convTransposeBn(bn, r, true); }));
    } else if (name == "conv2d_transpose_bias_fuse_pass") {
        make("conv2d_transpose_bias_fuse_pass", "onednn_conv_transpose_bias",
            "conv2d_transpose + persistable bias add -> onednn_op.conv2d_transpose_bias");
        pass->addPattern(std::make_unique<DrrRewritePattern>(convTransposeBias(false)));
        pass->addPattern(std::make_unique<DrrRewritePattern>(convTransposeBias(true)));
    } else if (name == "conv3d_bias_fuse_pass") {
        make("conv3d_bias_fuse_pass", "onednn_conv3d_bias",
            "conv3d + persistable bias add -> onednn_op.fused_conv3d");
        pass->addPattern(std::make_unique<DrrRewritePattern>(conv3dBias()));
    } else if (name == "conv_elementwise_add_onednn_fuse_pass") {
        make("conv_elementwise_add_onednn_fuse_pass", "onednn_conv_add",
            "conv + residual add -> onednn_op.fused_conv2d (sum post-op)");
        for (bool fused : { false, true })
            for (bool residualFirst : { false, true })
                pass->addPattern(
                    std::make_unique<DrrRewritePattern>(convElementwiseAdd(fused, residualFirst)));
    } else if (name == "conv_activation_mkldnn_fuse_pass") {
        make("conv_activation_mkldnn_fuse_pass", "onednn_conv_act",
            "conv + activation -> onednn_op.fused_conv2d (eltwise post-op)");
        unsigned benefit = 1;
        for (bool fused : { false, true })
            for (const Activation &a : kActivations)
                pass->addPattern(std::make_unique<DrrRewritePattern>(convActivation(a, fused, benefit++)));
        pass->addPattern(std::make_unique<DrrRewritePattern>(convGelu(false)));
        pass->addPattern(std::make_unique<DrrRewritePattern>(convGelu(true)));
        for (const char *clip : { "pd_op.clip", "pd_op.clip_" })
            for (bool fused : { false, true })
                pass->addPattern(std::make_unique<DrrRewritePattern>(convClip(clip, fused)));
    }
    return pass;
}

} // namespace ps
