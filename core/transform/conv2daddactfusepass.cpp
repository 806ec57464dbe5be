#include "core/transform/conv2daddactfusepass.h"

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

/// Paddle 3.3.1 leaves a bias with as many elements as the conv result alone (seen in its
/// output; its current source no longer has the check).
bool biasSmallerThanOutput(Value bias, Value convOut)
{
    return int32_t(dimsProduct(bias.type().dims())) != int32_t(dimsProduct(convOut.type().dims()));
}

/// relu(add(r, add(conv2d(x, w), b))): hand-written in Paddle; the fused op keeps all of conv2d's
/// attributes (struct_name too) and gets no `__force_backend__`.
bool conv2dAdd2Act(Operation &add2, PatternRewriter &rewriter)
{
    Operation *add1 = definingOpOfOperand(add2, 1);
    if (!add1 || add1->name() != ops::kAdd || !valueIsPersistable(add1->operand(1))
        || !add1->result(0).hasOneUse())
        return false;
    Operation *conv = definingOpOfOperand(*add1, 0);
    if (!conv || conv->name() != ops::kConv2d || !conv->result(0).hasOneUse())
        return false;
    if (!add2.result(0).hasOneUse())
        return false;
    Operation *act = add2.result(0).firstUse()->owner();
    if (act->name() != ops::kRelu)
        return false;
    if (!fusableConv2dAttributes(
            conv->attribute("padding_algorithm"), conv->attribute("data_format"), conv->attribute("groups"))
        || !biasSmallerThanOutput(add1->operand(1), conv->result(0)))
        return false;
    std::vector<NamedAttribute> attrs(conv->attributes().begin(), conv->attributes().end());
    for (NamedAttribute &a : fusedConvEpilogueAttributes("relu"))
        if (a.name != "__force_backend__")
            attrs.push_back(std::move(a));
    const std::array<Value, 4> operands { conv->operand(0), conv->operand(1), add1->operand(1),
        add2.operand(0) };
    const std::array<Type, 2> types { act->result(0).type(), Type::vector({}) };
    Operation *fused = buildOp(rewriter, ops::kFusedConv2dAddAct, operands, types, std::move(attrs));
    const Value output = fused->result(0);
    rewriter.replaceOp(act, std::span<const Value>(&output, 1));
    rewriter.eraseOp(&add2);
    rewriter.eraseOp(add1);
    rewriter.eraseOp(conv);
    return true;
}

/// relu(add(conv2d(x, w), b)): a DRR pattern in Paddle 3.3.1 (anchored on the relu; the fused op
/// has conv2d's YAML attributes only, plus `__force_backend__`).
DrrPattern conv2dAddAct()
{
    DrrPattern p("Conv2dAddActFusePattern");
    p.source(ops::kConv2d, { "input", "filter" }, { "conv2d_out" }, drrSameNames(kConv2dAttributes));
    p.source(ops::kAdd, { "conv2d_out", "bias" }, { "add_out" });
    p.source(ops::kRelu, { "add_out" }, { "act_out" });
    p.constraint([](const DrrMatch &m) {
        return valueIsPersistable(m.tensor("bias"))
            && fusableConv2dAttributes(
                &m.attr("padding_algorithm"), &m.attr("data_format"), &m.attr("groups"))
            && biasSmallerThanOutput(m.tensor("bias"), m.tensor("conv2d_out"));
    });
    std::vector<DrrAttribute> resultAttrs = drrSourceAttrs(kConv2dAttributes);
    for (NamedAttribute &a : fusedConvEpilogueAttributes("relu"))
        resultAttrs.push_back(drrConstAttr(a.name, a.value));
    p.result(ops::kFusedConv2dAddAct, { "input", "filter", "bias", DrrPatternGraph::kResultInputNone },
        { "act_out", DrrPatternGraph::kResultOutputNone }, resultAttrs,
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("act_out").type(), Type::vector({}) };
        });
    return p;
}

} // namespace

Conv2dAddActFusePass::Conv2dAddActFusePass()
    : PatternRewritePass("conv2d_add_act_fuse_pass", "conv_add_act",
        "conv2d + bias (+ residual) + relu -> fused_conv2d_add_act")
{
    addPattern(
        std::make_unique<FunctionRewritePattern>("Conv2dAdd2ActFusePattern", ops::kAdd, 1, conv2dAdd2Act));
    addPattern(std::make_unique<DrrRewritePattern>(conv2dAddAct()));
}

} // namespace ps
