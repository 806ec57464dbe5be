#include "core/transform/layoutrules.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"

#include <algorithm>
#include <array>

namespace ps::layoutrules {

namespace {

// The pd_op ops of Paddle 3.3.1's pd_op.h declared with LayoutTransformationInterface, sorted.
constexpr std::array kInterfaceOps {
    "abs",
    "abs_",
    "acos",
    "acos_",
    "acosh",
    "acosh_",
    "add",
    "add_",
    "add_group_norm_silu",
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "argsort",
    "asin",
    "asin_",
    "asinh",
    "asinh_",
    "assign",
    "assign_",
    "assign_pos",
    "assign_value_",
    "atan",
    "atan_",
    "atanh",
    "atanh_",
    "batch_norm",
    "batch_norm_",
    "bilinear_interp",
    "bitwise_and",
    "bitwise_and_",
    "bitwise_not",
    "bitwise_not_",
    "bitwise_or",
    "bitwise_or_",
    "bitwise_xor",
    "bitwise_xor_",
    "box_coder",
    "cast",
    "cast_",
    "ceil",
    "ceil_",
    "celu",
    "concat",
    "conj",
    "conv2d",
    "conv2d_transpose",
    "copysign",
    "copysign_",
    "correlation",
    "cos",
    "cos_",
    "cosh",
    "cosh_",
    "cross",
    "cross_entropy_with_softmax",
    "cross_entropy_with_softmax_",
    "cummax",
    "cummin",
    "cumprod",
    "cumprod_",
    "cumsum",
    "cumsum_",
    "deformable_conv",
    "depthwise_conv2d",
    "diagonal",
    "divide",
    "divide_",
    "dropout",
    "dropout_",
    "elementwise_pow",
    "elu",
    "elu_",
    "erf",
    "erf_",
    "erfinv",
    "erfinv_",
    "exp",
    "exp_",
    "expm1",
    "expm1_",
    "fake_channel_wise_dequantize_max_abs",
    "fake_channel_wise_quantize_abs_max",
    "fake_channel_wise_quantize_dequantize_abs_max",
    "flatten",
    "flatten_",
    "flip",
    "floor",
    "floor_",
    "floor_divide",
    "floor_divide_",
    "fmax",
    "fmin",
    "fractional_max_pool2d",
    "frame",
    "frobenius_norm",
    "full",
    "fused_conv2d_add_act",
    "fused_elementwise_add",
    "fused_elementwise_div",
    "fused_elementwise_mul",
    "fused_elementwise_sub",
    "gammaincc",
    "gammaincc_",
    "gammaln",
    "gammaln_",
    "gather",
    "grid_sample",
    "group_norm",
    "gumbel_softmax",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "heaviside",
    "i0",
    "i0_",
    "i0e",
    "i1",
    "i1e",
    "imag",
    "index_add",
    "index_add_",
    "index_select",
    "index_select_strided",
    "instance_norm",
    "inverse",
    "is_empty",
    "isfinite",
    "isfinite_sr",
    "isinf",
    "isinf_sr",
    "isnan",
    "isnan_sr",
    "kthvalue",
    "layer_norm",
    "leaky_relu",
    "leaky_relu_",
    "log",
    "log10",
    "log10_",
    "log1p",
    "log1p_",
    "log2",
    "log2_",
    "log_",
    "log_softmax",
    "logcumsumexp",
    "logit",
    "logit_",
    "logsigmoid",
    "logsumexp",
    "max",
    "max_pool2d_with_index",
    "maximum",
    "maxout",
    "mean",
    "mish",
    "mode",
    "multiply",
    "multiply_",
    "multiply_sr",
    "multiply_sr_",
    "nanmedian",
    "nansum",
    "nearest_interp",
    "nextafter",
    "nop",
    "nop_",
    "norm",
    "overlap_add",
    "p_norm",
    "pool2d",
    "prod",
    "put_along_axis",
    "put_along_axis_",
    "reciprocal",
    "reciprocal_",
    "relu",
    "relu6",
    "relu_",
    "remainder",
    "remainder_",
    "renorm",
    "renorm_",
    "repeat_interleave",
    "repeat_interleave_with_tensor_index",
    "reshape",
    "reshape_",
    "reverse",
    "roll",
    "rsqrt",
    "rsqrt_",
    "scale",
    "scale_",
    "scale_sr",
    "scale_sr_",
    "shape",
    "shape64",
    "shape64_sr",
    "shape_sr",
    "shuffle_channel",
    "sigmoid",
    "sigmoid_",
    "silu",
    "silu_",
    "sin",
    "sin_",
    "sinh",
    "sinh_",
    "slice",
    "softplus",
    "softshrink",
    "softsign",
    "split",
    "split_with_num",
    "sqrt",
    "sqrt_",
    "sqrt_sr",
    "sqrt_sr_",
    "square",
    "square_",
    "square_sr",
    "square_sr_",
    "squeeze",
    "squeeze_",
    "stack",
    "stanh",
    "sum",
    "swish",
    "sync_batch_norm_",
    "take_along_axis",
    "tan",
    "tan_",
    "tanh",
    "tanh_",
    "tanh_shrink",
    "temporal_shift",
    "thresholded_relu",
    "thresholded_relu_",
    "topk",
    "trace",
    "transpose",
    "transpose_",
    "trunc_divide",
    "trunc_divide_",
    "unbind",
    "unique_consecutive",
    "unpool",
    "unpool3d",
    "unsqueeze",
    "unsqueeze_",
    "unstack",
};

constexpr std::string_view kPdOp = "pd_op.";

std::string_view shortName(std::string_view name)
{
    return name.starts_with(kPdOp) ? name.substr(kPdOp.size()) : std::string_view();
}

bool isEmptyVector(Type t)
{
    return t.kind() == Type::Kind::Vector && t.elements().empty();
}

bool isFloat16(Value v)
{
    const Type t = v.type();
    return v && t.kind() == Type::Kind::DenseTensor && t.dtype() == DataType::Float16;
}

std::string dataFormat(const Operation &op)
{
    return op.stringAttribute("data_format");
}

std::vector<int64_t> intArray(const Attribute *a)
{
    std::vector<int64_t> out;
    if (!a || a->kind() != Attribute::Kind::Array)
        return out;
    for (const Attribute &e : a->asArray())
        out.push_back(e.asInt());
    return out;
}

/// PreferLayoutImpl<FusedConv2dAddActOp>.
bool fusedConvPrefersNhwc(const Operation &op)
{
    if (op.stringAttribute("__force_backend__") == "gpu")
        return true;
    const Value input = op.numOperands() > 0 ? op.operand(0) : Value();
    if (input && input.type().kind() == Type::Kind::DenseTensor && !isFloat16(input))
        return dataFormat(op) == "NHWC";
    constexpr int64_t kCudnnAlignment = 8;
    const Value filter = op.numOperands() > 1 ? op.operand(1) : Value();
    if (isFloat16(filter)) {
        const std::vector<int64_t> &d = filter.type().dims();
        if (d.size() == 4 && d[0] % kCudnnAlignment == 0 && d[1] % kCudnnAlignment == 0)
            return true;
    }
    return dataFormat(op) == "NHWC";
}

/// PreferLayoutImpl<Pool2dOp>: a table Paddle measured per pooling type, channels, spatial size
/// and (square) kernel size; a 2x2 kernel prefers NCHW as Paddle 3.3.1 was measured to decide.
bool poolPrefersNhwc(const Operation &op)
{
    const std::string origin = dataFormat(op);
    const Value x = op.numOperands() > 0 ? op.operand(0) : Value();
    const Operation *sizeOp = op.numOperands() > 1 ? op.operand(1).definingOp() : nullptr;
    if (!sizeOp || sizeOp->name() != ops::kFullIntArray || !x || x.type().kind() != Type::Kind::DenseTensor
        || x.type().dims().size() < 4)
        return origin == "NHWC";
    const std::vector<int64_t> &d = x.type().dims();
    int32_t h = 0, w = 0, c = 0;
    if (origin == "NHWC") {
        h = int32_t(d[1]), w = int32_t(d[2]), c = int32_t(d[3]);
    } else if (origin == "NCHW") {
        h = int32_t(d[2]), w = int32_t(d[3]), c = int32_t(d[1]);
    } else {
        return false;
    }
    const std::vector<int64_t> kernel = intArray(sizeOp->attribute("value"));
    if (kernel.empty()
        || !std::all_of(kernel.begin(), kernel.end(), [&](int64_t k) { return k == kernel[0]; }))
        return false;
    const int64_t k = kernel[0];
    if (k <= 2)
        return false;
    const std::string type = op.stringAttribute("pooling_type");
    const bool small = h * w <= 64 * 64;
    if (type == "max")
        return small ? k <= 3 : (c <= 16 ? k <= 5 : true);
    if (type != "avg")
        return false;
    if (!small)
        return c < 64 || k < 7;
    if (c <= 16)
        return k >= 7;
    if (c <= 32)
        return k <= 7;
    if (c <= 64)
        return k >= 5;
    if (c <= 128)
        return k < 7;
    return true;
}

bool usesStayInBlock(const Operation &op)
{
    for (const Value v : relevantOutputs(op))
        for (const OpOperand *use = v.firstUse(); use; use = use->nextUse())
            if (use->owner()->parentBlock() != op.parentBlock())
                return false;
    return true;
}

} // namespace

bool hasInterface(std::string_view opName)
{
    const std::string_view name = shortName(opName);
    return !name.empty() && std::binary_search(kInterfaceOps.begin(), kInterfaceOps.end(), name);
}

bool hasImmutableLayout(std::string_view opName)
{
    return opName == ops::kFetch || opName == ops::kFeed || opName == ops::kShadowOutput;
}

std::vector<Value> relevantInputs(const Operation &op)
{
    std::vector<Value> out;
    const std::string_view name = op.name();
    if (!hasInterface(name))
        return op.operands();
    if (name == ops::kAddGroupNormSilu && op.numOperands() >= 2)
        return { op.operand(0), op.operand(1) };
    if ((name == ops::kGroupNorm || name == ops::kReshape || name == ops::kSqueeze || name == ops::kPool2d
            || name == ops::kConcat)
        && op.numOperands() >= 1)
        return { op.operand(0) };
    for (const Value v : op.operands())
        if (v && !v.type().isNull() && !isEmptyVector(v.type()))
            out.push_back(v);
    return out;
}

std::vector<Value> relevantOutputs(const Operation &op)
{
    std::vector<Value> out;
    const std::string_view name = op.name();
    if (!hasInterface(name))
        return op.results();
    if (name == ops::kAddGroupNormSilu && op.numResults() >= 2)
        return { op.result(0), op.result(1) };
    if ((name == ops::kGroupNorm || name == ops::kReshape || name == ops::kSqueeze) && op.numResults() >= 1)
        return { op.result(0) };
    for (const Value v : op.results())
        if (!v.type().isNull() && !isEmptyVector(v.type()))
            out.push_back(v);
    return out;
}

bool prefersNhwc(const Operation &op)
{
    const std::string_view name = op.name();
    if (name == ops::kFusedConv2dAddAct)
        return fusedConvPrefersNhwc(op);
    if (name == ops::kConv2d || name == ops::kConv2dTranspose)
        return (op.numOperands() > 0 && isFloat16(op.operand(0))) || dataFormat(op) == "NHWC";
    if (name == ops::kAddGroupNormSilu)
        return true;
    if (name == ops::kPool2d)
        return poolPrefersNhwc(op);
    return dataFormat(op) == "NHWC";
}

bool canBeModified(const Operation &op)
{
    const std::string_view name = op.name();
    if (name == ops::kFusedConv2dAddAct)
        return prefersNhwc(op) && dataFormat(op) != "NHWC" && usesStayInBlock(op);
    if (name == ops::kPool2d || name == ops::kAddGroupNormSilu || name == ops::kConv2dTranspose)
        return prefersNhwc(op) && dataFormat(op) != "NHWC";
    if (name == ops::kAdd) {
        const Type x = op.numOperands() > 1 ? op.operand(0).type() : Type();
        const Type y = op.numOperands() > 1 ? op.operand(1).type() : Type();
        return !(x.kind() == Type::Kind::DenseTensor && y.kind() == Type::Kind::DenseTensor
            && x.dims().size() != y.dims().size());
    }
    return name == ops::kMultiply || name == ops::kSilu || name == ops::kSwish || name == ops::kAssign;
}

void rewriteToNhwc(Operation &op)
{
    if (op.hasAttribute("data_format"))
        op.setAttribute("data_format", Attribute::string("NHWC"));
    const std::vector<int64_t> perm = permutation("NCHW", "NHWC");
    for (Value v : relevantOutputs(op))
        if (v.type().kind() == Type::Kind::DenseTensor && v.type().dims().size() == 4)
            v.setType(permuted(v.type(), perm, "NHWC"));
}

std::vector<int64_t> permutation(std::string_view from, std::string_view to)
{
    std::vector<int64_t> perm(from.size(), 0);
    for (size_t i = 0; i < to.size() && i < perm.size(); ++i)
        perm[i] = int64_t(from.find(to[i]));
    return perm;
}

Type permuted(Type type, const std::vector<int64_t> &perm, std::string layout)
{
    if (type.kind() != Type::Kind::DenseTensor)
        return type;
    std::vector<int64_t> dims = type.dims();
    if (dims.size() == perm.size())
        for (size_t i = 0; i < perm.size(); ++i)
            dims[i] = type.dims()[size_t(perm[i])];
    return Type::denseTensor(type.dtype(), std::move(dims), std::move(layout), type.lod(), type.offset());
}

} // namespace ps::layoutrules
