#include "core/transform/matmulscalefusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/rewritehelpers.h"

#include <cmath>

namespace ps {

namespace {

DrrPattern matmulScale()
{
    DrrPattern p("MatmulScaleFusePattern");
    p.source(ops::kMatmul, { "x", "w" }, { "matmul_out" }, drrSameNames({ "transpose_x", "transpose_y" }));
    p.source(ops::kFull, {}, { "full_out" },
        { { "shape", "shape" }, { "value", "value" }, { "dtype", "dtype" }, { "place", "place" } });
    p.source(ops::kScale, { "matmul_out", "full_out" }, { "scale_out" },
        { { "bias", "bias" }, { "bias_after_scale", "bias_after_scale" } });
    p.constraint([](const DrrMatch &m) {
        return valueIsPersistable(m.tensor("w")) && std::abs(m.floatAttr("bias")) <= 1e-6f;
    });
    p.result(ops::kFull, {}, { "full_res_out" },
        { drrSourceAttr("shape", "shape"), drrSourceAttr("value", "value"), drrSourceAttr("dtype", "dtype"),
            drrSourceAttr("place", "place") },
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("full_out").type() };
        });
    p.result(ops::kScale, { "w", "full_res_out" }, { "scale_res_out" },
        { drrConstAttr("bias", Attribute::f32(0.0f)), drrSourceAttr("bias_after_scale", "bias_after_scale") },
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("w").type() };
        });
    p.result(ops::kMatmul, { "x", "scale_res_out" }, { "scale_out" },
        drrSourceAttrs({ "transpose_x", "transpose_y" }));
    return p;
}

} // namespace

MatmulScaleFusePass::MatmulScaleFusePass()
    : PatternRewritePass(
        "matmul_scale_fuse_pass", "matmul_scale", "scale(matmul(x, w)) -> matmul(x, scale(w))")
{
    addPattern(std::make_unique<DrrRewritePattern>(matmulScale()));
}

} // namespace ps
