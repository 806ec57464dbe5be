#include "core/transform/matmuladdactfusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

namespace ps {

namespace {

bool fcAccepts(const DrrMatch &m)
{
    const DataType w = m.dtype("w");
    if (w != DataType::Float16 && w != DataType::Float32 && w != DataType::Float64)
        return false;
    const std::vector<int64_t> wDims = m.shape("w");
    const std::vector<int64_t> xDims = m.shape("x");
    const std::vector<int64_t> yDims = m.shape("y");
    if (wDims.size() != 2 || xDims.size() < 2)
        return false;
    if (xDims.back() != wDims[0] || m.boolAttr("transpose_x") || m.boolAttr("transpose_y"))
        return false;
    if (yDims.size() == 1)
        return yDims[0] == wDims[1];
    if (yDims.size() == 2)
        return yDims[0] == 1 && yDims[1] == wDims[1];
    return false;
}

DrrPattern matmulAdd()
{
    DrrPattern p("MatmulAddPattern");
    p.source(ops::kMatmul, { "x", "w" }, { "matmul_out" }, drrSameNames({ "transpose_x", "transpose_y" }));
    p.source(ops::kAdd, { "matmul_out", "y" }, { "add_out" });
    p.constraint(fcAccepts);
    p.result(ops::kFc, { "x", "w", "y" }, { "add_out" },
        { drrComputedAttr("in_num_col_dims",
              [](const DrrMatch &m) { return Attribute::int32(int32_t(m.shape("x").size()) - 1); }),
            drrConstAttr("activation_type", Attribute::string("")),
            drrConstAttr("padding_weights", Attribute::boolean(false)) });
    return p;
}

DrrPattern matmulAddRelu()
{
    DrrPattern p("MatmulAddActPattern", 3);
    p.source(ops::kFc, { "x", "w", "y" }, { "gemm_epilogue_out" },
        { { "in_num_col_dims", "in_num_col_dims" }, { "activation_type", "activation_type" },
            { "padding_weights", "padding_weights" } });
    p.source(ops::kRelu, { "gemm_epilogue_out" }, { "act_out" });
    p.constraint([](const DrrMatch &m) { return m.stringAttr("activation_type").empty(); });
    p.result(ops::kFc, { "x", "w", "y" }, { "act_out" },
        { drrSourceAttr("in_num_col_dims", "in_num_col_dims"),
            drrConstAttr("activation_type", Attribute::string("relu")),
            drrSourceAttr("padding_weights", "padding_weights") });
    return p;
}

} // namespace

MatmulAddActFusePass::MatmulAddActFusePass()
    : PatternRewritePass("matmul_add_act_fuse_pass", "matmul_add_act", "matmul + bias add (+ relu) -> fc")
{
    addPattern(std::make_unique<DrrRewritePattern>(matmulAdd()));
    addPattern(std::make_unique<DrrRewritePattern>(matmulAddRelu()));
}

} // namespace ps
