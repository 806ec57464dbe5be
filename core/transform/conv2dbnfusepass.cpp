#include "core/transform/conv2dbnfusepass.h"

#include "core/dialect/ops.h"
#include "core/ir/operation.h"
#include "core/transform/functionrewritepattern.h"
#include "core/transform/fusedconvattributes.h"
#include "core/transform/patternrewriter.h"
#include "core/transform/rewritehelpers.h"

namespace ps {

namespace {

Value buildBinary(PatternRewriter &rewriter, std::string_view name, Value x, Value y, Type type)
{
    return buildOp(rewriter, name, { x, y }, { type })->result(0);
}

Value buildCast(PatternRewriter &rewriter, Value x, DataType dtype)
{
    return buildOp(rewriter, ops::kCast, { x }, { withDtype(x.type(), dtype) },
        { { "dtype", Attribute::dataType(dtype) } })
        ->result(0);
}

bool replaceBatchNorm(Operation &bn, PatternRewriter &rewriter)
{
    for (unsigned i = 1; i < bn.numResults(); ++i)
        if (bn.result(i).hasUses())
            return false;
    std::vector<NamedAttribute> attrs(bn.attributes().begin(), bn.attributes().end());
    std::vector<Type> types;
    for (unsigned i = 0; i < bn.numResults(); ++i)
        types.push_back(bn.result(i).type());
    const std::vector<Value> operands = bn.operands();
    Operation *inplace = buildOp(rewriter, ops::kBatchNorm_, operands, types, std::move(attrs));
    rewriter.replaceAllUsesWith(bn.result(0), inplace->result(0));
    rewriter.eraseOp(&bn);
    return true;
}

bool foldConvBn(Operation &bn, PatternRewriter &rewriter)
{
    Operation *conv = definingOpOfOperand(bn, 0);
    if (!conv || conv->name() != ops::kConv2d || bn.numOperands() < 5 || bn.numResults() < 5)
        return false;
    if (!fusableConv2dAttributes(
            conv->attribute("padding_algorithm"), conv->attribute("data_format"), conv->attribute("groups"))
        || !conv->result(0).hasOneUse())
        return false;
    // Paddle checks results 1-4; a used reserve_space (5) would make its EraseOp fail.
    for (unsigned i = 1; i < bn.numResults(); ++i)
        if (bn.result(i).hasUses())
            return false;
    const Value filter = conv->operand(1);
    const Value mean = bn.operand(1);
    const Value variance = bn.operand(2);
    const Value scale = bn.operand(3);
    const Value bias = bn.operand(4);
    if (scale.isNull() || bias.isNull() || !filter.type().isTensorLike() || !variance.type().isTensorLike())
        return false;
    const std::optional<float> foldable = foldableBatchNormEpsilon(bn);
    if (!foldable)
        return false;
    const float epsilon = *foldable;

    // --- the filter: w * reshape(scale / sqrt(variance + eps), [C, 1, 1, 1]) ---
    const std::vector<int64_t> varianceShape = variance.type().dims();
    const Value eps = buildOp(rewriter, ops::kFull, {},
        { Type::denseTensor(DataType::Float32, varianceShape) },
        { { "shape", Attribute::intArray(varianceShape) }, { "value", Attribute::f64(epsilon) },
            { "dtype", Attribute::dataType(DataType::Float32) }, { "place", Attribute::place(cpuPlace()) } })
                          ->result(0);
    const Value sum = buildBinary(rewriter, ops::kAdd, variance, eps, variance.type());
    const Value root = buildOp(rewriter, "pd_op.sqrt", { sum }, { sum.type() })->result(0);
    const Value factor = buildBinary(rewriter, "pd_op.divide", scale, root, scale.type());
    std::vector<int64_t> factorShape(filter.type().dims().size(), 1);
    factorShape[0] = scale.type().dims().empty() ? -1 : scale.type().dims()[0];
    const Value factorReshaped = buildReshape(rewriter, factor, factorShape);
    const bool half = filter.type().dtype() == DataType::Float16;
    Value newFilter;
    if (half) {
        const Value wide = buildCast(rewriter, filter, DataType::Float32);
        newFilter = buildCast(rewriter,
            buildBinary(rewriter, ops::kMultiply, wide, factorReshaped, wide.type()), DataType::Float16);
    } else {
        newFilter = buildBinary(rewriter, ops::kMultiply, filter, factorReshaped, filter.type());
    }
    std::vector<NamedAttribute> convAttrs(conv->attributes().begin(), conv->attributes().end());
    const Value convOut = buildOp(rewriter, ops::kConv2d, { conv->operand(0), newFilter },
        { conv->result(0).type() }, std::move(convAttrs))
                              ->result(0);

    // --- the bias: reshape(bias - mean * factor, [1, C, 1, 1]) added to the conv ---
    const Value shift = buildBinary(rewriter, ops::kMultiply, mean, factor, mean.type());
    const Value newBias = buildBinary(rewriter, "pd_op.subtract", bias, shift, bias.type());
    const std::vector<int64_t> outShape = convOut.type().dims();
    std::vector<int64_t> biasShape(outShape.size(), 1);
    if (biasShape.size() > 1)
        biasShape[1] = outShape[1];
    Value biasReshaped = buildReshape(rewriter, newBias, biasShape);
    if (half)
        biasReshaped = buildCast(rewriter, biasReshaped, DataType::Float16);
    const Value out = buildBinary(rewriter, ops::kAdd, convOut, biasReshaped, convOut.type());

    rewriter.replaceAllUsesWith(bn.result(0), out);
    rewriter.eraseOp(&bn);
    rewriter.eraseOp(conv);
    return true;
}

} // namespace

Conv2dBnFusePass::Conv2dBnFusePass()
    : PatternRewritePass(
        "conv2d_bn_fuse_pass", "conv_bn", "fold an inference batch_norm_ into the conv2d before it")
{
    addPattern(std::make_unique<FunctionRewritePattern>(
        "BatchNormReplacePattern", ops::kBatchNorm, 1, replaceBatchNorm));
    addPattern(
        std::make_unique<FunctionRewritePattern>("Conv2dBnFusePattern", ops::kBatchNorm_, 1, foldConvBn));
}

} // namespace ps
