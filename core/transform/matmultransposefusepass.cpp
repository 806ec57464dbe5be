#include "core/transform/matmultransposefusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

namespace ps {

namespace {

const std::vector<std::pair<std::string, std::string>> kMatmulAttrs
    = drrSameNames({ "transpose_x", "transpose_y" });

bool swapsLastTwo(const DrrMatch &m)
{
    if (m.shape("x").size() < 2 || m.shape("y").size() < 2)
        return false;
    const std::vector<int64_t> perm = m.intsAttr("perm");
    const int n = int(perm.size());
    if (n < 2)
        return false;
    for (int i = 0; i < n - 2; ++i)
        if (perm[size_t(i)] != i)
            return false;
    return perm[size_t(n - 1)] == n - 2 || perm[size_t(n - 2)] == n - 1;
}

DrrAttribute flag(const char *name, const char *source, bool flip)
{
    return drrComputedAttr(
        name, [source, flip](const DrrMatch &m) { return Attribute::boolean(m.boolAttr(source) != flip); });
}

DrrPattern outTranspose()
{
    DrrPattern p("MatmulOutTransposeFusePattern");
    p.source(ops::kMatmul, { "x", "y" }, { "matmul_op_out" }, kMatmulAttrs);
    p.source(ops::kTranspose, { "matmul_op_out" }, { "transpose_op_out" }, { { "perm", "perm" } });
    p.constraint(swapsLastTwo);
    p.result(ops::kMatmul, { "y", "x" }, { "transpose_op_out" },
        { flag("transpose_x", "transpose_y", true), flag("transpose_y", "transpose_x", true) });
    return p;
}

DrrPattern xTranspose()
{
    DrrPattern p("MatmulXTransposeFusePattern");
    p.source(ops::kTranspose, { "x" }, { "x_transpose_out" }, { { "perm", "perm" } });
    p.source(ops::kMatmul, { "x_transpose_out", "y" }, { "matmul_op_out" }, kMatmulAttrs);
    p.constraint(swapsLastTwo);
    p.result(ops::kMatmul, { "x", "y" }, { "matmul_op_out" },
        { flag("transpose_x", "transpose_x", true), flag("transpose_y", "transpose_y", false) });
    return p;
}

DrrPattern yTranspose()
{
    DrrPattern p("MatmulYTransposeFusePattern");
    p.source(ops::kTranspose, { "y" }, { "y_transpose_out" }, { { "perm", "perm" } });
    p.source(ops::kMatmul, { "x", "y_transpose_out" }, { "matmul_op_out" }, kMatmulAttrs);
    p.constraint(swapsLastTwo);
    p.result(ops::kMatmul, { "x", "y" }, { "matmul_op_out" },
        { flag("transpose_x", "transpose_x", false), flag("transpose_y", "transpose_y", true) });
    return p;
}

} // namespace

MatmulTransposeFusePass::MatmulTransposeFusePass()
    : PatternRewritePass(
        "matmul_transpose_fuse_pass", "matmul_transpose", "fold last-two-axes transposes into matmul flags")
{
    addPattern(std::make_unique<DrrRewritePattern>(outTranspose()));
    addPattern(std::make_unique<DrrRewritePattern>(xTranspose()));
    addPattern(std::make_unique<DrrRewritePattern>(yTranspose()));
}

} // namespace ps
