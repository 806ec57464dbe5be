#include "core/transform/conv2daddfusepass.h"

#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/fusedconvattributes.h"
#include "core/transform/rewritehelpers.h"

namespace ps {

namespace {

DrrPattern conv2dAdd()
{
    DrrPattern p("Conv2dAddFusePattern");
    p.source("pd_op.conv2d", { "input", "filter" }, { "conv2d_out" }, drrSameNames(kConv2dAttributes));
    p.source("pd_op.add", { "conv2d_out", "bias" }, { "add_out" });
    p.constraint([](const DrrMatch &m) {
        if (int32_t(dimsProduct(m.shape("bias"))) == int32_t(dimsProduct(m.shape("conv2d_out"))))
            return false;
        if (!valueIsPersistable(m.tensor("bias")))
            return false;
        const DataType filter = m.dtype("filter");
        if (filter != DataType::Float16 && filter != DataType::Float32 && filter != DataType::Float64)
            return false;
        const std::string &padding = m.stringAttr("padding_algorithm");
        if (padding != "EXPLICIT" && padding != "SAME" && padding != "VALID")
            return false;
        if (m.intAttr("groups") < 1)
            return false;
        const std::string &format = m.stringAttr("data_format");
        return format == "NCHW" || format == "AnyLayout";
    });
    std::vector<DrrAttribute> resultAttrs = drrSourceAttrs(kConv2dAttributes);
    for (NamedAttribute &a : fusedConvEpilogueAttributes("identity"))
        resultAttrs.push_back(drrConstAttr(a.name, a.value));
    p.result("pd_op.fused_conv2d_add_act", { "input", "filter", "bias", DrrPatternGraph::kResultInputNone },
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
