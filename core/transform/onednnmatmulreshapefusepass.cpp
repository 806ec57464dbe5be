#include "core/transform/onednnmatmulreshapefusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <algorithm>
#include <string>

namespace ps {

namespace {

constexpr std::initializer_list<const char *> kFusedMatmulAttributes
    = { "trans_x", "trans_y", "matmul_alpha", "fuse_activation", "fuse_alpha", "fuse_beta",
          "fused_output_scale", "fused_reshape_x", "fused_transpose_x", "fused_reshape_y",
          "fused_transpose_y", "fused_reshape_out", "fused_transpose_out", "mkldnn_data_type", "scale_x",
          "scale_y", "scale_in_eltwise", "scale_out", "force_fp32_output", "onednn_data_type" };

Attribute int32Array(const std::vector<int64_t> &values)
{
    std::vector<Attribute> out;
    for (int64_t v : values)
        out.push_back(Attribute::int32(int32_t(v)));
    return Attribute::array(std::move(out));
}

DrrAttribute shapeAttr(const char *name)
{
    return drrComputedAttr(name, [](const DrrMatch &m) { return int32Array(m.intsAttr("int_array")); });
}

/// The attributes of a fused_matmul made from a plain matmul: Paddle's defaults, with `fused`
/// (name -> value) in place of theirs.
std::vector<DrrAttribute> newFusedMatmulAttrs(std::vector<DrrAttribute> fused)
{
    std::vector<DrrAttribute> out { drrSourceAttr("trans_x", "transpose_x"),
        drrSourceAttr("trans_y", "transpose_y") };
    const std::vector<std::pair<const char *, Attribute>> defaults { { "matmul_alpha", Attribute::f32(1.0f) },
        { "fuse_activation", Attribute::string("") }, { "fuse_alpha", Attribute::f32(0.0f) },
        { "fuse_beta", Attribute::f32(0.0f) }, { "fused_output_scale", Attribute::f32(1.0f) },
        { "fused_reshape_x", Attribute::array({}) }, { "fused_transpose_x", Attribute::array({}) },
        { "fused_reshape_y", Attribute::array({}) }, { "fused_transpose_y", Attribute::array({}) },
        { "fused_reshape_out", Attribute::array({}) }, { "fused_transpose_out", Attribute::array({}) },
        { "mkldnn_data_type", Attribute::string("float32") }, { "scale_x", Attribute::f32(1.0f) },
        { "scale_y", Attribute::f32(1.0f) }, { "scale_in_eltwise", Attribute::f32(0.0f) },
        { "scale_out", Attribute::f32(1.0f) }, { "force_fp32_output", Attribute::boolean(false) },
        { "onednn_data_type", Attribute::string("") } };
    for (const auto &entry : defaults) {
        const auto &name = entry.first; // a named copy: clang 14 cannot capture a structured binding
        auto it = std::find_if(
            fused.begin(), fused.end(), [&name](const DrrAttribute &a) { return a.name == name; });
        out.push_back(it != fused.end() ? *it : drrConstAttr(name, entry.second));
    }
    return out;
}

/// The fused_matmul's own attributes passed through (source names kept, trans_x/trans_y bound as
/// transpose_x/transpose_y), with `fused` in place of theirs.
std::vector<DrrAttribute> passThroughFusedMatmul(std::vector<DrrAttribute> fused)
{
    std::vector<DrrAttribute> out;
    for (const char *name : kFusedMatmulAttributes) {
        auto it = std::find_if(
            fused.begin(), fused.end(), [name](const DrrAttribute &a) { return a.name == name; });
        const std::string_view n = name;
        out.push_back(it != fused.end() ? *it
                : n == "trans_x"        ? drrSourceAttr(name, "transpose_x")
                : n == "trans_y"        ? drrSourceAttr(name, "transpose_y")
                                        : drrSourceAttr(name, name));
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> fusedMatmulBindings()
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const char *name : kFusedMatmulAttributes) {
        const std::string_view n = name;
        out.emplace_back(name, n == "trans_x" ? "transpose_x" : n == "trans_y" ? "transpose_y" : name);
    }
    return out;
}

// --- reshape_transpose_matmul_fuse_pass ---------------------------------------------------------

DrrPattern reshapeTransposeMatmul(bool fusedMatmul, bool asX, unsigned benefit)
{
    DrrPattern p(
        fusedMatmul ? "ReshapeTransposFusedMatmulFusePattern" : "ReshapeTransposeMatmulFusePattern", benefit);
    p.source(ops::kFullIntArray, {}, { "shape" }, { { "value", "int_array" } });
    p.source(ops::kReshape, { "reshape_in", "shape" }, { "reshape_out" });
    p.source(ops::kTranspose, { "reshape_out" }, { "transpose_out" }, { { "perm", "perm" } });
    const std::vector<std::string> operands = asX ? std::vector<std::string> { "transpose_out", "other" }
                                                  : std::vector<std::string> { "other", "transpose_out" };
    if (fusedMatmul)
        p.source(ops::kOneDnnFusedMatmul, { operands[0], operands[1], "residual" }, { "Out" },
            fusedMatmulBindings());
    else
        p.source(ops::kMatmul, operands, { "Out" },
            { { "transpose_x", "transpose_x" }, { "transpose_y", "transpose_y" } });
    p.constraint([](const DrrMatch &m) {
        const std::vector<int64_t> shape = m.intsAttr("int_array");
        return shape.size() >= 2 && shape.size() <= 4 && shape.size() == m.intsAttr("perm").size()
            && std::count(shape.begin(), shape.end(), -1) <= 1;
    });
    if (fusedMatmul)
        p.constraint([asX](const DrrMatch &m) {
            return m.intsAttr(asX ? "fused_reshape_x" : "fused_reshape_y").empty();
        });
    const char *reshapeName = asX ? "fused_reshape_x" : "fused_reshape_y";
    const char *transposeName = asX ? "fused_transpose_x" : "fused_transpose_y";
    std::vector<DrrAttribute> fused { shapeAttr(reshapeName), drrSourceAttr(transposeName, "perm") };
    const std::vector<std::string> inputs = asX ? std::vector<std::string> { "reshape_in", "other" }
                                                : std::vector<std::string> { "other", "reshape_in" };
    if (fusedMatmul)
        p.result(ops::kOneDnnFusedMatmul, { inputs[0], inputs[1], "residual" }, { "Out" },
            passThroughFusedMatmul(std::move(fused)));
    else
        p.result(ops::kOneDnnFusedMatmul, { inputs[0], inputs[1], DrrPatternGraph::kResultInputNone },
            { "Out" }, newFusedMatmulAttrs(std::move(fused)));
    return p;
}

// --- matmul_transpose_reshape_fuse_pass ---------------------------------------------------------

DrrPattern matmulTransposeReshape(bool fusedMatmul, unsigned benefit)
{
    DrrPattern p(fusedMatmul ? "FusedMatmulTransposeReshapeFusePattern" : "MatmulTransposeReshapeFusePattern",
        benefit);
    if (fusedMatmul)
        p.source(ops::kOneDnnFusedMatmul, { "X", "Y", "residual" }, { "Out" }, fusedMatmulBindings());
    else
        p.source(ops::kMatmul, { "X", "Y" }, { "Out" },
            { { "transpose_x", "transpose_x" }, { "transpose_y", "transpose_y" } });
    p.source(ops::kTranspose, { "Out" }, { "transpose_out" }, { { "perm", "perm" } });
    p.source(ops::kFullIntArray, {}, { "shape" }, { { "value", "int_array" } });
    p.source(ops::kReshape, { "transpose_out", "shape" }, { "reshape_out" });
    p.constraint([](const DrrMatch &m) {
        const std::vector<int64_t> shape = m.intsAttr("int_array");
        return m.intsAttr("perm") == std::vector<int64_t> { 0, 2, 1, 3 } && shape.size() == 3
            && std::count(shape.begin(), shape.end(), -1) <= 1;
    });
    if (fusedMatmul)
        p.constraint([](const DrrMatch &m) { return m.intsAttr("fused_reshape_out").empty(); });
    std::vector<DrrAttribute> fused { shapeAttr("fused_reshape_out"),
        drrSourceAttr("fused_transpose_out", "perm") };
    if (fusedMatmul)
        p.result(ops::kOneDnnFusedMatmul, { "X", "Y", "residual" }, { "reshape_out" },
            passThroughFusedMatmul(std::move(fused)));
    else
        p.result(ops::kOneDnnFusedMatmul, { "X", "Y", DrrPatternGraph::kResultInputNone }, { "reshape_out" },
            newFusedMatmulAttrs(std::move(fused)));
    return p;
}

// --- matmul_reshape_add_fuse_pass ---------------------------------------------------------------

bool floatingWeight(DataType t)
{
    return t == DataType::Float16 || t == DataType::Float32 || t == DataType::Float64;
}

DrrPattern matmulReshapeAdd(bool asX, unsigned benefit)
{
    DrrPattern p("MatmulReshapeElementwiseAddFusePattern", benefit);
    p.source(ops::kFullIntArray, {}, { "shape_x" },
        { { "value", "value" }, { "dtype", "dtype" }, { "place", "place" } });
    p.source(ops::kReshape, { "x", "shape_x" }, { "reshape_x" });
    p.source(ops::kFullIntArray, {}, { "shape_w" },
        { { "value", "value2" }, { "dtype", "dtype2" }, { "place", "place2" } });
    p.source(ops::kReshape, { "w", "shape_w" }, { "reshape_w" });
    p.source(ops::kMatmul, { "reshape_x", "reshape_w" }, { "matmul_out" },
        { { "transpose_x", "trans_x" }, { "transpose_y", "trans_y" } });
    p.source(ops::kFullIntArray, {}, { "shape" });
    p.source(ops::kReshape, { "matmul_out", "shape" }, { "out" });
    if (asX)
        p.source(ops::kAdd, { "out", "y" }, { "add_out" });
    else
        p.source(ops::kAdd, { "y", "out" }, { "add_out" });
    p.constraint([](const DrrMatch &m) {
        if (!floatingWeight(m.dtype("w")))
            return false;
        const std::vector<int64_t> w = m.shape("reshape_w"), x = m.shape("reshape_x"), y = m.shape("y");
        if (m.shape("x").size() < 2 || w.size() != 2 || x.size() < 2)
            return false;
        // Paddle's FcOp takes row-major operands only.
        if (x.back() != w[0] || m.boolAttr("trans_x") || m.boolAttr("trans_y"))
            return false;
        if (y.size() == 1)
            return y[0] == w[1];
        return y.size() == 2 && y[0] == 1 && y[1] == w[1];
    });
    const auto fullType = [](const char *value) {
        return
            [value = std::string(value)](const DrrMatch &m, const std::vector<Value> &) -> std::vector<Type> {
                return { Type::denseTensor(DataType::Int64, { int64_t(m.intsAttr(value).size()) }) };
            };
    };
    p.result(ops::kFullIntArray, {}, { "new_shape_x" },
        { drrSourceAttr("value", "value"), drrSourceAttr("dtype", "dtype"), drrSourceAttr("place", "place") },
        fullType("value"));
    p.result(ops::kReshape, { "x", "new_shape_x" }, { "reshape_x" });
    p.result(ops::kFullIntArray, {}, { "new_shape_w" },
        { drrSourceAttr("value", "value2"), drrSourceAttr("dtype", "dtype2"),
            drrSourceAttr("place", "place2") },
        fullType("value2"));
    p.result(ops::kReshape, { "w", "new_shape_w" }, { "reshape_w" });
    // Paddle's FcInferMeta: the leading in_num_col_dims dims of x, then the weight's columns (the
    // reshape after the matmul is not restored).
    const auto fcType = [](const DrrMatch &m, const std::vector<Value> &operands) -> std::vector<Type> {
        std::vector<int64_t> dims = operands[0].type().dims();
        dims.back() = operands[1].type().dims()[1];
        return { Type::denseTensor(m.dtype("add_out"), dims) };
    };
    p.result(ops::kFc, { "reshape_x", "reshape_w", "y" }, { "add_out" },
        { drrComputedAttr("in_num_col_dims",
              [](const DrrMatch &m) { return Attribute::int32(int32_t(m.shape("reshape_x").size()) - 1); }),
            drrConstAttr("activation_type", Attribute::string("")),
            drrConstAttr("padding_weights", Attribute::boolean(false)) },
        fcType);
    return p;
}

} // namespace

OneDnnMatmulReshapeFusePass::OneDnnMatmulReshapeFusePass(
    std::string name, std::string alias, std::string description)
    : PatternRewritePass(std::move(name), std::move(alias), std::move(description))
{
}

std::unique_ptr<OneDnnMatmulReshapeFusePass> OneDnnMatmulReshapeFusePass::create(std::string_view name)
{
    std::unique_ptr<OneDnnMatmulReshapeFusePass> pass;
    if (name == "reshape_transpose_matmul_fuse_pass") {
        pass.reset(new OneDnnMatmulReshapeFusePass("reshape_transpose_matmul_fuse_pass",
            "onednn_reshape_transpose_matmul",
            "reshape + transpose + matmul -> onednn_op.fused_matmul with fused_reshape/transpose_x/y"));
        unsigned benefit = 1;
        for (bool fused : { false, true })
            for (bool asX : { false, true })
                pass->addPattern(
                    std::make_unique<DrrRewritePattern>(reshapeTransposeMatmul(fused, asX, benefit++)));
    } else if (name == "matmul_transpose_reshape_fuse_pass") {
        pass.reset(new OneDnnMatmulReshapeFusePass("matmul_transpose_reshape_fuse_pass",
            "onednn_matmul_transpose_reshape",
            "matmul + transpose + reshape -> onednn_op.fused_matmul with fused_transpose/reshape_out"));
        pass->addPattern(std::make_unique<DrrRewritePattern>(matmulTransposeReshape(false, 1)));
        pass->addPattern(std::make_unique<DrrRewritePattern>(matmulTransposeReshape(true, 2)));
    } else if (name == "matmul_reshape_add_fuse_pass") {
        pass.reset(new OneDnnMatmulReshapeFusePass("matmul_reshape_add_fuse_pass",
            "onednn_matmul_reshape_add", "reshape + matmul + reshape + bias add -> pd_op.fc"));
        pass->addPattern(std::make_unique<DrrRewritePattern>(matmulReshapeAdd(false, 1)));
        pass->addPattern(std::make_unique<DrrRewritePattern>(matmulReshapeAdd(true, 2)));
    }
    return pass;
}

} // namespace ps
