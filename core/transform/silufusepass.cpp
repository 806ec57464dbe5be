#include "core/transform/silufusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrrewritepattern.h"

namespace ps {

SiluFusePass::SiluFusePass()
    : PatternRewritePass("silu_fuse_pass", "silu", "x * sigmoid(x) -> swish(x)")
{
    DrrPattern p("SiluFusePattern");
    p.source("pd_op.sigmoid", { "sigmoid_in" }, { "sigmoid_out" });
    p.source(ops::kMultiply, { "sigmoid_in", "sigmoid_out" }, { "multiply_out" });
    p.result(ops::kSwish, { "sigmoid_in" }, { "multiply_out" });
    addPattern(std::make_unique<DrrRewritePattern>(std::move(p)));
}

} // namespace ps
