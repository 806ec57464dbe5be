#pragma once

#include "core/ir/operation.h"

// The names of the ops PIRScope handles by name (outside the kernel tables, which name each op
// once), written once. The constants are character arrays so they stand wherever the literal
// stood: compared with an op's name (`op.name() == ops::kAdd`), passed as a std::string_view or
// a std::string, or listed in a table.

namespace ps::ops {

// builtin dialect: program structure, parameters and outputs
inline constexpr char kCombine[] = "builtin.combine";
inline constexpr char kConstant[] = "builtin.constant";
inline constexpr char kModule[] = "builtin.module";
inline constexpr char kParameter[] = "builtin.parameter";
inline constexpr char kSetParameter[] = "builtin.set_parameter";
inline constexpr char kShadowOutput[] = "builtin.shadow_output";
inline constexpr char kBuiltinSplit[] = "builtin.split";
inline constexpr char kBuiltinSlice[] = "builtin.slice";

// cf dialect: control flow
inline constexpr char kStackCreate[] = "cf.stack_create";
inline constexpr char kTuplePop[] = "cf.tuple_pop";
inline constexpr char kTuplePush[] = "cf.tuple_push";
inline constexpr char kYield[] = "cf.yield";
inline constexpr char kHasElements[] = "cf.has_elements";

// onednn_op dialect (the ops Paddle's oneDNN fusion passes create)
inline constexpr char kOneDnnFusedConv2d[] = "onednn_op.fused_conv2d";
inline constexpr char kOneDnnFc[] = "onednn_op.fc";
inline constexpr char kOneDnnFusedMatmul[] = "onednn_op.fused_matmul";
inline constexpr char kOneDnnFusedElementwiseAdd[] = "onednn_op.fused_elementwise_add";
inline constexpr char kOneDnnFusedElementwiseSub[] = "onednn_op.fused_elementwise_sub";
inline constexpr char kOneDnnFusedElementwiseMul[] = "onednn_op.fused_elementwise_mul";
inline constexpr char kOneDnnFusedElementwiseDiv[] = "onednn_op.fused_elementwise_div";
inline constexpr char kOneDnnFusedTranspose[] = "onednn_op.fused_transpose";
inline constexpr char kOneDnnFusedSoftplus[] = "onednn_op.fused_softplus";
inline constexpr char kOneDnnBatchNorm[] = "onednn_op.batch_norm";
inline constexpr char kOneDnnBatchNorm_[] = "onednn_op.batch_norm_";
inline constexpr char kOneDnnShuffleChannel[] = "onednn_op.shuffle_channel";

// pd_op dialect
inline constexpr char kAdd[] = "pd_op.add";
inline constexpr char kAddGrad[] = "pd_op.add_grad";
inline constexpr char kAddGroupNormSilu[] = "pd_op.add_group_norm_silu";
inline constexpr char kArrayWrite_[] = "pd_op.array_write_";
inline constexpr char kAssign[] = "pd_op.assign";
inline constexpr char kAssignOut_[] = "pd_op.assign_out_";
inline constexpr char kAssignValue[] = "pd_op.assign_value";
inline constexpr char kBatchNorm[] = "pd_op.batch_norm";
inline constexpr char kBatchNorm_[] = "pd_op.batch_norm_";
inline constexpr char kCast[] = "pd_op.cast";
inline constexpr char kConcat[] = "pd_op.concat";
inline constexpr char kConv2d[] = "pd_op.conv2d";
inline constexpr char kConv2dTranspose[] = "pd_op.conv2d_transpose";
inline constexpr char kData[] = "pd_op.data";
inline constexpr char kDepthwiseConv2d[] = "pd_op.depthwise_conv2d";
inline constexpr char kDropout[] = "pd_op.dropout";
inline constexpr char kFc[] = "pd_op.fc";
inline constexpr char kFeed[] = "pd_op.feed";
inline constexpr char kFetch[] = "pd_op.fetch";
inline constexpr char kFull[] = "pd_op.full";
inline constexpr char kFullIntArray[] = "pd_op.full_int_array";
inline constexpr char kFullLike[] = "pd_op.full_like";
inline constexpr char kFusedBiasResidualLayernorm[] = "pd_op.fused_bias_residual_layernorm";
inline constexpr char kFusedConv2dAddAct[] = "pd_op.fused_conv2d_add_act";
inline constexpr char kFusedRmsNormQuant[] = "pd_op.fused_rms_norm_quant";
inline constexpr char kGroupNorm[] = "pd_op.group_norm";
inline constexpr char kIf[] = "pd_op.if";
inline constexpr char kIncrement_[] = "pd_op.increment_";
inline constexpr char kLayerNorm[] = "pd_op.layer_norm";
inline constexpr char kLeakyRelu[] = "pd_op.leaky_relu";
inline constexpr char kMatmul[] = "pd_op.matmul";
inline constexpr char kMatmulGrad[] = "pd_op.matmul_grad";
inline constexpr char kMean[] = "pd_op.mean";
inline constexpr char kMultiply[] = "pd_op.multiply";
inline constexpr char kPool2d[] = "pd_op.pool2d";
inline constexpr char kPow[] = "pd_op.pow";
inline constexpr char kPyLayer[] = "pd_op.pylayer";
inline constexpr char kRelu[] = "pd_op.relu";
inline constexpr char kReshape[] = "pd_op.reshape";
inline constexpr char kRsqrt[] = "pd_op.rsqrt";
inline constexpr char kScale[] = "pd_op.scale";
inline constexpr char kShareData_[] = "pd_op.share_data_";
inline constexpr char kSign[] = "pd_op.sign";
inline constexpr char kSilu[] = "pd_op.silu";
inline constexpr char kSoftmax[] = "pd_op.softmax";
inline constexpr char kSqueeze[] = "pd_op.squeeze";
inline constexpr char kUnsqueeze[] = "pd_op.unsqueeze";
inline constexpr char kStack[] = "pd_op.stack";
inline constexpr char kSubtractGrad[] = "pd_op.subtract_grad";
inline constexpr char kSwish[] = "pd_op.swish";
inline constexpr char kTopK[] = "pd_op.topk";
inline constexpr char kTranspose[] = "pd_op.transpose";
inline constexpr char kUnbind[] = "pd_op.unbind";
inline constexpr char kWhile[] = "pd_op.while";

// Predicates on an op: each is `op.name() == <its constant>`.
inline bool isData(const Operation &op)
{
    return op.name() == kData;
}
inline bool isFeed(const Operation &op)
{
    return op.name() == kFeed;
}
inline bool isFetch(const Operation &op)
{
    return op.name() == kFetch;
}
inline bool isParameter(const Operation &op)
{
    return op.name() == kParameter;
}
inline bool isSetParameter(const Operation &op)
{
    return op.name() == kSetParameter;
}
inline bool isShadowOutput(const Operation &op)
{
    return op.name() == kShadowOutput;
}
inline bool isConstant(const Operation &op)
{
    return op.name() == kConstant;
}
inline bool isCombine(const Operation &op)
{
    return op.name() == kCombine;
}
inline bool isBuiltinSplit(const Operation &op)
{
    return op.name() == kBuiltinSplit;
}
inline bool isYield(const Operation &op)
{
    return op.name() == kYield;
}
inline bool isIf(const Operation &op)
{
    return op.name() == kIf;
}
inline bool isWhile(const Operation &op)
{
    return op.name() == kWhile;
}
inline bool isPyLayer(const Operation &op)
{
    return op.name() == kPyLayer;
}

} // namespace ps::ops
