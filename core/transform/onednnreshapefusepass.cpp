#include "core/transform/onednnreshapefusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <algorithm>
#include <string>

namespace ps {

namespace {

constexpr std::initializer_list<const char *> kFusedTransposeAttributes
    = { "axis", "fused_squeeze2_axes", "fused_unsqueeze2_axes", "fused_reshape2_shape", "scale", "shift",
          "output_data_type", "data_format", "mkldnn_data_type", "onednn_data_type" };
constexpr std::initializer_list<const char *> kFcAttributes
    = { "in_num_col_dims", "activation_type", "padding_weights", "use_quantizer", "mkldnn_data_type",
          "onednn_data_type", "scale_in", "scale_weights", "scale_out", "force_fp32_output",
          "fuse_activation", "fuse_alpha", "fuse_beta", "fused_output_scale", "fused_reshape2_shape" };
constexpr std::initializer_list<const char *> kFusedMulAttributes = { "axis", "fuse_activation", "fuse_alpha",
    "fuse_beta", "fused_output_scale", "fused_unsqueeze2_axes", "scale_x", "scale_y", "scale_out" };

/// An int64 shape or axes attribute as the Array of int32 Paddle's fused ops keep it in.
Attribute int32Array(const std::vector<int64_t> &values)
{
    std::vector<Attribute> out;
    for (int64_t v : values)
        out.push_back(Attribute::int32(int32_t(v)));
    return Attribute::array(std::move(out));
}

DrrAttribute fromFullValue(const char *name)
{
    return drrComputedAttr(name, [](const DrrMatch &m) { return int32Array(m.intsAttr("full_1_value")); });
}

/// Result attributes passing `names` through but `replaced`, which `value` gives.
std::vector<DrrAttribute> passThrough(
    std::initializer_list<const char *> names, const char *replaced, DrrAttribute value)
{
    std::vector<DrrAttribute> out;
    for (const char *n : names)
        out.push_back(std::string_view(n) == replaced ? value : drrSourceAttr(n, n));
    return out;
}

/// The attributes of a fused_transpose made from a plain transpose: perm as `axis`, one fused
/// shape change, the defaults Paddle's pattern writes (`outputDataType` differs between passes).
std::vector<DrrAttribute> newFusedTransposeAttrs(
    const char *fusedName, DrrAttribute fused, const char *outputDataType)
{
    std::vector<DrrAttribute> out { drrSourceAttr("axis", "perm") };
    for (const char *n : { "fused_squeeze2_axes", "fused_unsqueeze2_axes", "fused_reshape2_shape" })
        out.push_back(std::string_view(n) == fusedName ? fused : drrConstAttr(n, Attribute::array({})));
    out.push_back(drrConstAttr("scale", Attribute::f32(1.0f)));
    out.push_back(drrConstAttr("shift", Attribute::f32(0.0f)));
    out.push_back(drrConstAttr("output_data_type", Attribute::string(outputDataType)));
    out.push_back(drrConstAttr("data_format", Attribute::string("AnyLayout")));
    out.push_back(drrConstAttr("mkldnn_data_type", Attribute::string("float32")));
    out.push_back(drrConstAttr("onednn_data_type", Attribute::string("")));
    return out;
}

/// The result keeps the type of the op it replaces (Paddle's InferMeta of a fused transpose or
/// elementwise op leaves the fused shape change out).
std::vector<Type> typeOfOut(const DrrMatch &m, const std::vector<Value> &)
{
    return { m.tensor("Out").type() };
}

// --- squeeze_transpose_onednn_fuse_pass ---------------------------------------------------------

DrrPattern squeezeTranspose()
{
    DrrPattern p("SqueezeTransposePattern", 2);
    p.source(ops::kFullIntArray, {}, { "axes" }, { { "value", "full_1_value" } });
    p.source(ops::kSqueeze, { "x", "axes" }, { "squeeze_out" });
    p.source(ops::kTranspose, { "squeeze_out" }, { "transpose_op_out" }, { { "perm", "perm" } });
    p.constraint(
        [](const DrrMatch &m) { return !m.intsAttr("perm").empty() && !m.intsAttr("full_1_value").empty(); });
    // Paddle's FusedTransposeInferMeta permutes the leading dims of the unsqueezed input.
    const auto types = [](const DrrMatch &m, const std::vector<Value> &operands) -> std::vector<Type> {
        const std::vector<int64_t> x = operands[0].type().dims();
        std::vector<int64_t> out = x;
        const std::vector<int64_t> perm = m.intsAttr("perm");
        for (size_t i = 0; i < perm.size() && i < out.size(); ++i) {
            const int64_t axis = perm[i] < 0 ? perm[i] + int64_t(perm.size()) : perm[i];
            if (axis >= 0 && size_t(axis) < x.size())
                out[i] = x[size_t(axis)];
        }
        return { Type::denseTensor(m.dtype("transpose_op_out"), out) };
    };
    p.result(ops::kOneDnnFusedTranspose, { "x" }, { "transpose_op_out" },
        newFusedTransposeAttrs("fused_squeeze2_axes", fromFullValue("fused_squeeze2_axes"), "fp32"), types);
    return p;
}

// --- operator_unsqueeze_onednn_fuse_pass --------------------------------------------------------

DrrPattern operatorUnsqueeze(const char *op, unsigned benefit)
{
    const std::string_view name = op;
    const bool fusedTranspose = name == ops::kOneDnnFusedTranspose;
    const bool transpose = name == ops::kTranspose;
    const bool fusedMul = name == ops::kOneDnnFusedElementwiseMul;
    DrrPattern p(std::string(op) + "UnsqueezeFusePattern", benefit);
    std::vector<std::pair<std::string, std::string>> attrs;
    if (fusedTranspose)
        attrs = drrSameNames(kFusedTransposeAttributes);
    else if (transpose)
        attrs = { { "perm", "perm" } };
    else if (fusedMul)
        attrs = drrSameNames(kFusedMulAttributes);
    if (fusedTranspose || transpose)
        p.source(op, { "X" }, { "Out" }, attrs);
    else
        p.source(op, { "X", "Y" }, { "Out" }, attrs);
    p.source(ops::kFullIntArray, {}, { "axes" }, { { "value", "full_1_value" } });
    p.source(ops::kUnsqueeze, { "Out", "axes" }, { "Unsqueeze_out" });
    if (fusedTranspose || fusedMul)
        p.constraint([](const DrrMatch &m) { return m.intsAttr("fused_unsqueeze2_axes").empty(); });

    const DrrAttribute axes = fromFullValue("fused_unsqueeze2_axes");
    std::vector<DrrAttribute> result;
    if (fusedTranspose) {
        result = passThrough(kFusedTransposeAttributes, "fused_unsqueeze2_axes", axes);
    } else if (transpose) {
        result = newFusedTransposeAttrs("fused_unsqueeze2_axes", axes, "fp32");
    } else if (fusedMul) {
        result = passThrough(kFusedMulAttributes, "fused_unsqueeze2_axes", axes);
    } else {
        result = { drrConstAttr("axis", Attribute::int32(-1)),
            drrConstAttr("fuse_activation", Attribute::string("")),
            drrConstAttr("fuse_alpha", Attribute::f32(0.0f)), drrConstAttr("fuse_beta", Attribute::f32(0.0f)),
            drrConstAttr("fused_output_scale", Attribute::f32(1.0f)), axes,
            drrConstAttr("scale_x", Attribute::f32(1.0f)), drrConstAttr("scale_y", Attribute::f32(1.0f)),
            drrConstAttr("scale_out", Attribute::f32(1.0f)) };
    }
    const char *fused
        = fusedTranspose || transpose ? ops::kOneDnnFusedTranspose : ops::kOneDnnFusedElementwiseMul;
    if (fusedTranspose || transpose)
        p.result(fused, { "X" }, { "Unsqueeze_out" }, std::move(result), typeOfOut);
    else
        p.result(fused, { "X", "Y" }, { "Unsqueeze_out" }, std::move(result), typeOfOut);
    return p;
}

// --- operator_reshape_onednn_fuse_pass ----------------------------------------------------------

/// A reshape Paddle's oneDNN kernels can fuse: no 0 (copy a dim) and at most one -1.
bool fusableReshape(const DrrMatch &m)
{
    const std::vector<int64_t> shape = m.intsAttr("full_1_value");
    return std::find(shape.begin(), shape.end(), 0) == shape.end()
        && std::count(shape.begin(), shape.end(), -1) <= 1;
}

DrrPattern operatorReshape(const char *op, unsigned benefit)
{
    const std::string_view name = op;
    const bool fc = name == ops::kOneDnnFc;
    const bool fusedTranspose = name == ops::kOneDnnFusedTranspose;
    DrrPattern p(std::string(op) + "ReshapeFusePattern", benefit);
    p.source(ops::kFullIntArray, {}, { "shape" }, { { "value", "full_1_value" } });
    if (fc)
        p.source(op, { "X", "Y", "Input3" }, { "Out" }, drrSameNames(kFcAttributes));
    else if (fusedTranspose)
        p.source(op, { "X" }, { "Out" }, drrSameNames(kFusedTransposeAttributes));
    else
        p.source(op, { "X" }, { "Out" }, { { "perm", "perm" } });
    p.source(ops::kReshape, { "Out", "shape" }, { "ShapeOut" });
    p.constraint(fusableReshape);
    if (fc)
        p.constraint([](const DrrMatch &m) { return m.intsAttr("fused_reshape2_shape").empty(); });
    if (fusedTranspose)
        p.constraint([](const DrrMatch &m) {
            return m.intsAttr("fused_unsqueeze2_axes").empty() && m.intsAttr("fused_reshape2_shape").empty();
        });
    const DrrAttribute shape = fromFullValue("fused_reshape2_shape");
    if (fc)
        p.result(op, { "X", "Y", "Input3" }, { "ShapeOut" },
            passThrough(kFcAttributes, "fused_reshape2_shape", shape));
    else if (fusedTranspose)
        p.result(op, { "X" }, { "ShapeOut" },
            passThrough(kFusedTransposeAttributes, "fused_reshape2_shape", shape), typeOfOut);
    else
        p.result(ops::kOneDnnFusedTranspose, { "X" }, { "ShapeOut" },
            newFusedTransposeAttrs("fused_reshape2_shape", shape, ""), typeOfOut);
    return p;
}

} // namespace

OneDnnReshapeFusePass::OneDnnReshapeFusePass(std::string name, std::string alias, std::string description)
    : PatternRewritePass(std::move(name), std::move(alias), std::move(description))
{
}

std::unique_ptr<OneDnnReshapeFusePass> OneDnnReshapeFusePass::create(std::string_view name)
{
    std::unique_ptr<OneDnnReshapeFusePass> pass;
    if (name == "squeeze_transpose_onednn_fuse_pass") {
        pass.reset(new OneDnnReshapeFusePass("squeeze_transpose_onednn_fuse_pass", "onednn_squeeze_transpose",
            "squeeze + transpose -> onednn_op.fused_transpose"));
        pass->addPattern(std::make_unique<DrrRewritePattern>(squeezeTranspose()));
    } else if (name == "operator_unsqueeze_onednn_fuse_pass") {
        pass.reset(
            new OneDnnReshapeFusePass("operator_unsqueeze_onednn_fuse_pass", "onednn_operator_unsqueeze",
                "transpose/multiply + unsqueeze -> the oneDNN op with fused_unsqueeze2_axes"));
        unsigned benefit = 1;
        for (const char *op :
            { ops::kOneDnnFusedTranspose, ops::kTranspose, ops::kOneDnnFusedElementwiseMul, ops::kMultiply })
            pass->addPattern(std::make_unique<DrrRewritePattern>(operatorUnsqueeze(op, benefit++)));
    } else if (name == "operator_reshape_onednn_fuse_pass") {
        pass.reset(new OneDnnReshapeFusePass("operator_reshape_onednn_fuse_pass", "onednn_operator_reshape",
            "fc/transpose + reshape -> the oneDNN op with fused_reshape2_shape"));
        unsigned benefit = 1;
        for (const char *op : { ops::kOneDnnFc, ops::kOneDnnFusedTranspose, ops::kTranspose })
            pass->addPattern(std::make_unique<DrrRewritePattern>(operatorReshape(op, benefit++)));
    }
    return pass;
}

} // namespace ps
