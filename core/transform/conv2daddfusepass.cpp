#include "core/transform/conv2daddfusepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/fusedconvattributes.h"
#include "core/transform/rewritehelpers.h"

namespace ps {

namespace {

DrrPattern conv2dAdd()
{
    DrrPattern p("Conv2dAddFusePattern");
    p.source(ops::kConv2d, { "input", "filter" }, { "conv2d_out" }, drrSameNames(kConv2dAttributes));
    p.source(ops::kAdd, { "conv2d_out", "bias" }, { "add_out" });
    p.constraint([](const DrrMatch &m) {
        if (int32_t(dimsProduct(m.shape("bias"))) == int32_t(dimsProduct(m.shape("conv2d_out"))))
            return false;
        if (!valueIsPersistable(m.tensor("bias")))
            return false;
        const DataType filter = m.dtype("filter");
        if (filter != DataType::Float16 && filter != DataType::Float32 && filter != DataType::Float64)
            return false;
        return fusableConv2dAttributes(
            &m.attr("padding_algorithm"), &m.attr("data_format"), &m.attr("groups"), { "NCHW", "AnyLayout" });
    });
    std::vector<DrrAttribute> resultAttrs = drrSourceAttrs(kConv2dAttributes);
    for (NamedAttribute &a : fusedConvEpilogueAttributes("identity"))
        resultAttrs.push_back(drrConstAttr(a.name, a.value));
    p.result(ops::kFusedConv2dAddAct, { "input", "filter", "bias", DrrPatternGraph::kResultInputNone },
        { "add_out", DrrPatternGraph::kResultOutputNone }, resultAttrs,
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("add_out").type(), Type::vector({}) };
        });
    return p;
}

} // namespace

Conv2dAddFusePass::Conv2dAddFusePass()
    : PatternRewritePass("conv2d_add_fuse_pass", "conv_add", "conv2d + bias add -> fused_conv2d_add_act")
{
    addPattern(std::make_unique<DrrRewritePattern>(conv2dAdd()));
}

} // namespace ps
