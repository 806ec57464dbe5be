#include "core/runtime/onednnfusedkernels.h"

#include "core/dialect/ops.h"
#include "core/runtime/backend.h"
#include "core/runtime/kernelcomposer.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>

namespace ps {

namespace {

NamedAttribute attr(const char *name, Attribute value)
{
    return { name, std::move(value) };
}

/// A one-element tensor of `dtype` on the backend (clip's bounds).
Tensor scalar(Backend &backend, double value, DataType dtype)
{
    return backend.toDevice(Tensor::fromDoubles({ 1 }, dtype, std::span<const double>(&value, 1)));
}

/// Paddle's SetOutMemDescWithUnsqueeze2FuseSupport: a 1 at each of `axes` (negative ones
/// count from the end of the unsqueezed rank), the dims of `shape` in order around them.
std::vector<int64_t> unsqueezedShape(const std::vector<int64_t> &shape, const std::vector<int64_t> &axes)
{
    const int64_t rank = int64_t(shape.size() + axes.size());
    std::vector<int64_t> out(size_t(rank), 0);
    for (int64_t axis : axes) {
        const int64_t at = axis < 0 ? axis + rank : axis;
        if (at < 0 || at >= rank)
            throw RuntimeError("fused_unsqueeze2_axes: axis " + std::to_string(axis)
                + " is out of range for a rank-" + std::to_string(rank) + " result");
        out[size_t(at)] = 1;
    }
    size_t next = 0;
    for (int64_t &d : out)
        if (d == 0) {
            if (next >= shape.size())
                throw RuntimeError("fused_unsqueeze2_axes names an axis twice");
            d = shape[next++];
        }
    return out;
}

/// Paddle's SetOutMemDescWithReshape2FuseSupport: `shape` with its -1 inferred from `count`.
std::vector<int64_t> reshapedShape(int64_t count, std::vector<int64_t> shape)
{
    int64_t known = 1;
    int64_t inferred = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1 && inferred < 0)
            inferred = int64_t(i);
        else if (shape[i] <= 0)
            throw RuntimeError("fused_reshape2_shape: dim " + std::to_string(shape[i])
                + " is not supported (operator_reshape_onednn_fuse_pass fuses positive dims and one -1)");
        else
            known *= shape[i];
    }
    if (inferred >= 0 && known > 0 && count % known == 0)
        shape[size_t(inferred)] = count / known;
    int64_t total = 1;
    for (int64_t d : shape)
        total *= d;
    if (total != count)
        throw RuntimeError("fused_reshape2_shape " + shapeText(shape) + " does not hold the result's "
            + std::to_string(count) + " elements");
    return shape;
}

/// The result after the fused unsqueeze (fused_unsqueeze2_axes) or reshape (fused_reshape2_shape)
/// the oneDNN kernels apply to it: metadata only, as in Paddle.
Tensor withFusedShape(const KernelContext &ctx, const Tensor &out)
{
    const std::vector<int64_t> axes = ctx.intsAttr("fused_unsqueeze2_axes", std::vector<int64_t> {});
    if (!axes.empty())
        return out.reshaped(unsqueezedShape(out.shape(), axes));
    const std::vector<int64_t> shape = ctx.intsAttr("fused_reshape2_shape", std::vector<int64_t> {});
    if (!shape.empty())
        return out.reshaped(reshapedShape(out.numElements(), shape));
    return out;
}

/// fuse_activation, then fused_output_scale (operator_scale_onednn_fuse_pass's factor; 1: none).
Tensor activateAndScale(KernelComposer &k, const KernelContext &ctx, const Tensor &x)
{
    Tensor out = applyFusedActivation(k, x, ctx.stringAttr("fuse_activation", ""),
        ctx.floatAttr("fuse_alpha", 0.0), ctx.floatAttr("fuse_beta", 0.0));
    const double factor = ctx.floatAttr("fused_output_scale", 1.0);
    if (factor != 1.0)
        out = k.tensor(ops::kScale, { out, scalar(k.backend(), factor, DataType::Float32) },
            { attr("bias", Attribute::f32(0.0f)), attr("bias_after_scale", Attribute::boolean(true)) });
    return out;
}

/// onednn_op.fused_conv2d: act(conv2d(x, w) + bias + residual). The bias is per output channel,
/// [C] or already shaped to broadcast ([1, C, 1, 1]); the residual has the result's shape.
void fusedConv2dKernel(KernelContext &ctx)
{
    KernelComposer k(ctx);
    std::vector<NamedAttribute> convAttrs;
    for (const char *name :
        { "strides", "paddings", "padding_algorithm", "dilations", "groups", "data_format" })
        if (const Attribute *a = ctx.attribute(name))
            convAttrs.push_back(attr(name, *a));
    Tensor out = k.tensor(ops::kConv2d, { ctx.input(0), ctx.input(1) }, std::move(convAttrs));
    if (ctx.hasInput(2)) {
        Tensor bias = ctx.input(2);
        const bool channelsLast = ctx.stringAttr("data_format", "NCHW") == "NHWC";
        if (bias.rank() == 1 && !channelsLast && out.rank() == 4)
            bias = bias.reshaped({ 1, bias.dim(0), 1, 1 });
        out = k.tensor(ops::kAdd, { out, bias });
    }
    if (ctx.hasInput(3))
        out = k.tensor(ops::kAdd, { out, ctx.input(3) });
    ctx.setOutput(0, activateAndScale(k, ctx, out));
}

/// onednn_op.conv2d_transpose_bias: act(conv2d_transpose(x, w, output_size) + bias), the bias
/// per output channel; fuse_relu is relu.
void conv2dTransposeBiasKernel(KernelContext &ctx)
{
    KernelComposer k(ctx);
    std::vector<NamedAttribute> convAttrs;
    for (const char *name : { "strides", "paddings", "output_padding", "padding_algorithm", "dilations",
             "groups", "data_format" })
        if (const Attribute *a = ctx.attribute(name))
            convAttrs.push_back(attr(name, *a));
    const RuntimeValue outputSize = ctx.hasInput(3) ? RuntimeValue(ctx.input(3)) : RuntimeValue();
    Tensor out = k.tensor(
        "pd_op.conv2d_transpose", { ctx.input(0), ctx.input(1), outputSize }, std::move(convAttrs));
    if (ctx.hasInput(2)) {
        Tensor bias = ctx.input(2);
        if (bias.rank() == 1 && out.rank() == 4 && ctx.stringAttr("data_format", "NCHW") != "NHWC")
            bias = bias.reshaped({ 1, bias.dim(0), 1, 1 });
        out = k.tensor(ops::kAdd, { out, bias });
    }
    if (ctx.boolAttr("fuse_relu", false))
        out = k.tensor(ops::kRelu, { out });
    ctx.setOutput(0,
        applyFusedActivation(k, out, ctx.stringAttr("fuse_activation", ""), ctx.floatAttr("fuse_alpha", 0.0),
            ctx.floatAttr("fuse_beta", 0.0)));
}

/// onednn_op.fused_conv3d: act(conv3d(x, w) + bias + residual), the bias per output channel.
void fusedConv3dKernel(KernelContext &ctx)
{
    KernelComposer k(ctx);
    std::vector<NamedAttribute> convAttrs;
    for (const char *name :
        { "strides", "paddings", "padding_algorithm", "dilations", "groups", "data_format" })
        if (const Attribute *a = ctx.attribute(name))
            convAttrs.push_back(attr(name, *a));
    Tensor out = k.tensor("pd_op.conv3d", { ctx.input(0), ctx.input(1) }, std::move(convAttrs));
    if (ctx.hasInput(2)) {
        Tensor bias = ctx.input(2);
        if (bias.rank() == 1 && out.rank() == 5 && ctx.stringAttr("data_format", "NCDHW") != "NDHWC")
            bias = bias.reshaped({ 1, bias.dim(0), 1, 1, 1 });
        out = k.tensor(ops::kAdd, { out, bias });
    }
    if (ctx.hasInput(3))
        out = k.tensor(ops::kAdd, { out, ctx.input(3) });
    ctx.setOutput(0, activateAndScale(k, ctx, out));
}

void requireDefault(const KernelContext &ctx, const char *name, double value)
{
    if (std::abs(ctx.floatAttr(name, value) - value) > 1e-12)
        throw RuntimeError(std::string(name) + " " + std::to_string(ctx.floatAttr(name, value))
            + " is not supported (quantized oneDNN ops)");
}

void requireEmpty(const KernelContext &ctx, const char *name)
{
    if (!ctx.intsAttr(name, std::vector<int64_t> {}).empty())
        throw RuntimeError(std::string(name) + " is not supported (a fusion PIRScope does not make)");
}

/// onednn_op.fc: pd_op.fc (flattened to in_num_col_dims rows, the bias, activation_type), then
/// fuse_activation, fused_output_scale and fused_reshape2_shape.
void oneDnnFcKernel(KernelContext &ctx)
{
    for (const char *name : { "scale_in", "scale_out" })
        requireDefault(ctx, name, 1.0);
    KernelComposer k(ctx);
    std::vector<RuntimeValue> operands { ctx.input(0), ctx.input(1) };
    operands.push_back(ctx.hasInput(2) ? RuntimeValue(ctx.input(2)) : RuntimeValue());
    std::vector<NamedAttribute> attrs;
    for (const char *name : { "in_num_col_dims", "activation_type", "padding_weights" })
        if (const Attribute *a = ctx.attribute(name))
            attrs.push_back(attr(name, *a));
    const Tensor out = k.tensor(ops::kFc, operands, std::move(attrs));
    ctx.setOutput(0, withFusedShape(ctx, activateAndScale(k, ctx, out)));
}

/// `shape` for a tensor of `from`'s elements as Paddle's DDim::reshape reads it: 0 copies the dim
/// at its index, one -1 is inferred.
std::vector<int64_t> resolvedShape(
    const std::vector<int64_t> &from, std::vector<int64_t> shape, const char *what)
{
    int64_t known = 1;
    int64_t inferred = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0 && i < from.size())
            shape[i] = from[i];
        if (shape[i] == -1 && inferred < 0)
            inferred = int64_t(i);
        else if (shape[i] <= 0)
            throw RuntimeError(std::string(what) + " " + shapeText(shape) + " has an unresolvable dim");
        else
            known *= shape[i];
    }
    const int64_t count = numElementsOf(from);
    if (inferred >= 0 && known > 0 && count % known == 0)
        shape[size_t(inferred)] = count / known;
    if (numElementsOf(shape) != count)
        throw RuntimeError(std::string(what) + " " + shapeText(shape) + " does not hold the "
            + std::to_string(count) + " elements of " + shapeText(from));
    return shape;
}

Tensor transposed(KernelComposer &k, const Tensor &t, const std::vector<int64_t> &perm)
{
    std::vector<Attribute> axes;
    for (int64_t a : perm)
        axes.push_back(Attribute::int32(int32_t(a)));
    return k.tensor(ops::kTranspose, { t }, { attr("perm", Attribute::array(std::move(axes))) });
}

/// An operand of fused_matmul after its fused reshape and transpose
/// (reshape_transpose_matmul_fuse_pass sets both or neither).
Tensor fusedMatmulOperand(KernelComposer &k, const KernelContext &ctx, size_t index, const char *side)
{
    const std::string reshapeName = std::string("fused_reshape_") + side;
    const std::string transposeName = std::string("fused_transpose_") + side;
    const std::vector<int64_t> shape = ctx.intsAttr(reshapeName, std::vector<int64_t> {});
    const std::vector<int64_t> perm = ctx.intsAttr(transposeName, std::vector<int64_t> {});
    const Tensor &t = ctx.input(index);
    if (shape.empty() && perm.empty())
        return t;
    if (shape.empty() || perm.empty())
        throw RuntimeError(
            reshapeName + " and " + transposeName + " come together (a fusion PIRScope does not make)");
    return transposed(k, t.reshaped(resolvedShape(t.shape(), shape, reshapeName.c_str())), perm);
}

/// onednn_op.fused_matmul: act(matmul_alpha * matmul(x', y') + residual_data), x' and y' the
/// operands after their fused reshape and transpose, then fused_output_scale and the fused
/// transpose and reshape of the result.
void oneDnnFusedMatmulKernel(KernelContext &ctx)
{
    for (const char *name : { "scale_x", "scale_y", "scale_out" })
        requireDefault(ctx, name, 1.0);
    KernelComposer k(ctx);
    const Tensor x = fusedMatmulOperand(k, ctx, 0, "x");
    const Tensor y = fusedMatmulOperand(k, ctx, 1, "y");
    Tensor out = k.tensor(ops::kMatmul, { x, y },
        { attr("transpose_x", Attribute::boolean(ctx.boolAttr("trans_x", false))),
            attr("transpose_y", Attribute::boolean(ctx.boolAttr("trans_y", false))) });
    const double alpha = ctx.floatAttr("matmul_alpha", 1.0);
    if (alpha != 1.0)
        out = k.tensor(ops::kScale, { out, scalar(k.backend(), alpha, DataType::Float32) },
            { attr("bias", Attribute::f32(0.0f)), attr("bias_after_scale", Attribute::boolean(true)) });
    if (ctx.hasInput(2))
        out = k.tensor(ops::kAdd, { out, ctx.input(2) });
    out = activateAndScale(k, ctx, out);
    const std::vector<int64_t> perm = ctx.intsAttr("fused_transpose_out", std::vector<int64_t> {});
    if (!perm.empty())
        out = transposed(k, out, perm);
    const std::vector<int64_t> shape = ctx.intsAttr("fused_reshape_out", std::vector<int64_t> {});
    if (!shape.empty())
        out = out.reshaped(resolvedShape(out.shape(), shape, "fused_reshape_out"));
    ctx.setOutput(0, out);
}

/// onednn_op.fused_elementwise_add/sub/mul/div: act(x op y), broadcasting as the op does, then
/// fused_output_scale and fused_unsqueeze2_axes.
template<const char *Op> void fusedElementwiseKernel(KernelContext &ctx)
{
    for (const char *name : { "scale_x", "scale_y", "scale_out" })
        requireDefault(ctx, name, 1.0);
    if (ctx.intAttr("axis", -1) != -1)
        throw RuntimeError("axis " + std::to_string(ctx.intAttr("axis", -1)) + " is not supported (only -1)");
    KernelComposer k(ctx);
    const Tensor out = k.tensor(Op, { ctx.input(0), ctx.input(1) });
    ctx.setOutput(0, withFusedShape(ctx, activateAndScale(k, ctx, out)));
}

/// onednn_op.fused_transpose: squeeze (fused_squeeze2_axes), transpose (axis), then the fused
/// unsqueeze or reshape; output_data_type "fp32" casts to float32 (the quantizing scale and
/// shift are not supported).
void oneDnnFusedTransposeKernel(KernelContext &ctx)
{
    requireDefault(ctx, "scale", 1.0);
    requireDefault(ctx, "shift", 0.0);
    const std::string outputType = ctx.stringAttr("output_data_type", "");
    if (!outputType.empty() && outputType != "fp32")
        throw RuntimeError("output_data_type '" + outputType + "' is not supported (quantized oneDNN ops)");
    KernelComposer k(ctx);
    Tensor x = ctx.input(0);
    const std::vector<int64_t> squeezed = ctx.intsAttr("fused_squeeze2_axes", std::vector<int64_t> {});
    if (!squeezed.empty()) {
        const int64_t rank = int64_t(x.rank());
        std::vector<int64_t> shape;
        for (int64_t i = 0; i < rank; ++i) {
            const bool named = std::find(squeezed.begin(), squeezed.end(), i) != squeezed.end()
                || std::find(squeezed.begin(), squeezed.end(), i - rank) != squeezed.end();
            if (!named)
                shape.push_back(x.dim(size_t(i)));
            else if (x.dim(size_t(i)) != 1)
                throw RuntimeError("fused_squeeze2_axes: dim " + std::to_string(i) + " of x "
                    + shapeText(x.shape()) + " is not 1");
        }
        x = x.reshaped(std::move(shape));
    }
    std::vector<Attribute> perm;
    for (int64_t a : ctx.intsAttr("axis"))
        perm.push_back(Attribute::int32(int32_t(a)));
    Tensor out = k.tensor(ops::kTranspose, { x }, { attr("perm", Attribute::array(std::move(perm))) });
    if (outputType == "fp32" && out.dtype() != DataType::Float32)
        out = k.tensor(ops::kCast, { out }, { attr("dtype", Attribute::dataType(DataType::Float32)) },
            { Type::denseTensor(DataType::Float32, { -1 }) });
    ctx.setOutput(0, withFusedShape(ctx, out));
}

/// onednn_op.shuffle_channel (shuffle_channel_detect_pass): x [N, C, H, W] as [N, group,
/// C / group, H, W], the two group dims swapped, back to [N, C, H, W].
void oneDnnShuffleChannelKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const int64_t group = ctx.intAttr("group", 1);
    if (x.rank() != 4 || group < 1 || x.dim(1) % group != 0)
        throw RuntimeError("shuffle_channel: group " + std::to_string(group)
            + " does not divide the channels of x " + shapeText(x.shape()) + " (a 4-D NCHW input is needed)");
    KernelComposer k(ctx);
    const Tensor split = x.reshaped({ x.dim(0), group, x.dim(1) / group, x.dim(2), x.dim(3) });
    ctx.setOutput(0, transposed(k, split, { 0, 2, 1, 3, 4 }).reshaped(x.shape()));
}

/// pd_op.self_dp_attention (self_attention_fuse_pass): x [B, S, 3, H, D] packs q, k and v;
/// out [B, S, H, D] = transpose(softmax(alpha q k^T) v), per head.
void selfDpAttentionKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    if (x.rank() != 5 || x.dim(2) != 3)
        throw RuntimeError(
            "self_dp_attention: x " + shapeText(x.shape()) + " is not [batch, seq, 3, heads, head_size]");
    KernelComposer k(ctx);
    const Tensor packed = transposed(k, x, { 2, 0, 3, 1, 4 }); // [3, B, H, S, D]
    const std::vector<int64_t> part { x.dim(0), x.dim(3), x.dim(1), x.dim(4) };
    const size_t bytes = size_t(numElementsOf(part)) * packed.elementSize();
    const Tensor q(packed.storage(), part, packed.dtype(), packed.byteOffset());
    const Tensor key(packed.storage(), part, packed.dtype(), packed.byteOffset() + bytes);
    const Tensor v(packed.storage(), part, packed.dtype(), packed.byteOffset() + 2 * bytes);
    Tensor scores = k.tensor(ops::kMatmul, { q, transposed(k, key, { 0, 1, 3, 2 }) },
        { attr("transpose_x", Attribute::boolean(false)), attr("transpose_y", Attribute::boolean(false)) });
    const double alpha = ctx.floatAttr("alpha", 1.0);
    if (alpha != 1.0)
        scores = k.tensor(ops::kScale, { scores, scalar(k.backend(), alpha, DataType::Float32) },
            { attr("bias", Attribute::f32(0.0f)), attr("bias_after_scale", Attribute::boolean(true)) });
    const Tensor weights = k.tensor(ops::kSoftmax, { scores }, { attr("axis", Attribute::int32(-1)) });
    const Tensor out = k.tensor(ops::kMatmul, { weights, v },
        { attr("transpose_x", Attribute::boolean(false)), attr("transpose_y", Attribute::boolean(false)) });
    ctx.setOutput(0, transposed(k, out, { 0, 2, 1, 3 }));
}

/// onednn_op.batch_norm / batch_norm_: the pd_op batch norm, then relu on its result when
/// fuse_with_relu; the statistics outputs pass through.
template<const char *Op> void oneDnnBatchNormKernel(KernelContext &ctx)
{
    KernelComposer k(ctx);
    std::vector<RuntimeValue> inputs;
    for (size_t i = 0; i < ctx.numInputs(); ++i)
        inputs.push_back(ctx.hasInput(i) ? RuntimeValue(ctx.input(i)) : RuntimeValue());
    std::vector<NamedAttribute> attrs;
    for (const char *name :
        { "momentum", "epsilon", "data_format", "is_test", "use_global_stats", "trainable_statistics" })
        if (const Attribute *a = ctx.attribute(name))
            attrs.push_back(attr(name, *a));
    std::vector<RuntimeValue> results = k.run(Op, inputs, std::move(attrs));
    if (!results.empty() && ctx.boolAttr("fuse_with_relu", false))
        results[0] = RuntimeValue(k.tensor(ops::kRelu, { results[0] }));
    for (size_t i = 0; i < results.size() && i < ctx.numOutputs(); ++i)
        if (results[i].isTensor())
            ctx.setOutput(i, results[i].tensor());
}

/// onednn_op.fused_softplus: softplus (beta, threshold), then fuse_activation.
void oneDnnFusedSoftplusKernel(KernelContext &ctx)
{
    KernelComposer k(ctx);
    std::vector<NamedAttribute> attrs;
    for (const char *name : { "beta", "threshold" })
        if (const Attribute *a = ctx.attribute(name))
            attrs.push_back(attr(name, *a));
    const Tensor out = k.tensor("pd_op.softplus", { ctx.input(0) }, std::move(attrs));
    ctx.setOutput(0,
        applyFusedActivation(k, out, ctx.stringAttr("fuse_activation", ""), ctx.floatAttr("fuse_alpha", 0.0),
            ctx.floatAttr("fuse_beta", 0.0)));
}

constexpr char kSubtract[] = "pd_op.subtract";
constexpr char kBatchNorm[] = "pd_op.batch_norm";
constexpr char kBatchNorm_[] = "pd_op.batch_norm_";
constexpr char kDivide[] = "pd_op.divide";

} // namespace

Tensor applyFusedActivation(
    KernelComposer &k, const Tensor &x, const std::string &name, double alpha, double beta)
{
    if (name.empty() || name == "identity")
        return x;
    if (name == "abs" || name == "sqrt" || name == "relu" || name == "sigmoid" || name == "tanh"
        || name == "relu6" || name == "swish")
        return k.tensor("pd_op." + name, { x });
    if (name == "mish")
        return k.tensor("pd_op.mish", { x }, { attr("lambda", Attribute::f32(20.0f)) });
    if (name == "hard_swish" && std::abs(alpha - 1.0 / 6.0) < 1e-6 && std::abs(beta - 0.5) < 1e-6)
        return k.tensor("pd_op.hardswish", { x });
    if (name == "hard_swish") // x * clip(alpha * x + beta, 0, 1)
        return k.tensor(ops::kMultiply,
            { x,
                k.tensor("pd_op.hardsigmoid", { x },
                    { attr("slope", Attribute::f32(float(alpha))),
                        attr("offset", Attribute::f32(float(beta))) }) });
    if (name == "leaky_relu")
        return k.tensor(ops::kLeakyRelu, { x }, { attr("negative_slope", Attribute::f32(float(alpha))) });
    if (name == "hard_sigmoid")
        return k.tensor("pd_op.hardsigmoid", { x },
            { attr("slope", Attribute::f32(float(alpha))), attr("offset", Attribute::f32(float(beta))) });
    if (name == "gelu" || name == "gelu_erf" || name == "gelu_tanh")
        return k.tensor(
            "pd_op.gelu", { x }, { attr("approximate", Attribute::boolean(name == "gelu_tanh")) });
    if (name == "clip")
        return k.tensor("pd_op.clip",
            { x, scalar(k.backend(), alpha, DataType::Float32),
                scalar(k.backend(), beta, DataType::Float32) });
    throw RuntimeError("fuse_activation '" + name + "' (alpha " + std::to_string(alpha) + ", beta "
        + std::to_string(beta) + ") is not supported");
}

void registerOneDnnFusedKernels(KernelRegistry &registry)
{
    registry.add(ops::kOneDnnFusedConv2d, fusedConv2dKernel);
    registry.add(ops::kOneDnnFc, oneDnnFcKernel);
    registry.add(ops::kOneDnnFusedMatmul, oneDnnFusedMatmulKernel);
    registry.add(ops::kOneDnnFusedElementwiseAdd, fusedElementwiseKernel<ops::kAdd>);
    registry.add(ops::kOneDnnFusedElementwiseSub, fusedElementwiseKernel<kSubtract>);
    registry.add(ops::kOneDnnFusedElementwiseMul, fusedElementwiseKernel<ops::kMultiply>);
    registry.add(ops::kOneDnnFusedElementwiseDiv, fusedElementwiseKernel<kDivide>);
    registry.add(ops::kOneDnnFusedTranspose, oneDnnFusedTransposeKernel);
    registry.add(ops::kOneDnnBatchNorm, oneDnnBatchNormKernel<kBatchNorm>);
    registry.add(ops::kOneDnnBatchNorm_, oneDnnBatchNormKernel<kBatchNorm_>);
    registry.add(ops::kOneDnnFusedSoftplus, oneDnnFusedSoftplusKernel);
    registry.add(ops::kOneDnnShuffleChannel, oneDnnShuffleChannelKernel);
    registry.add("onednn_op.conv2d_transpose_bias", conv2dTransposeBiasKernel);
    registry.add("onednn_op.fused_conv3d", fusedConv3dKernel);
    registry.add("pd_op.self_dp_attention", selfDpAttentionKernel);
}

} // namespace ps
