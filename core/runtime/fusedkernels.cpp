#include "core/runtime/fusedkernels.h"

#include "core/dialect/ops.h"
#include "core/runtime/backend.h"
#include "core/runtime/kernelcomposer.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/onednnfusedkernels.h"
#include "core/runtime/runtimeerror.h"

#include <numeric>

namespace ps {

namespace {

RuntimeValue optionalInput(const KernelContext &ctx, size_t i)
{
    return ctx.hasInput(i) ? RuntimeValue(ctx.input(i)) : RuntimeValue();
}

NamedAttribute attr(const char *name, Attribute value)
{
    return { name, std::move(value) };
}

/// A host int64 tensor moved to the backend: an IntArray operand (mean's axis, ...).
Tensor intArray(Backend &backend, const std::vector<int64_t> &values)
{
    std::vector<double> doubles(values.begin(), values.end());
    return backend.toDevice(Tensor::fromDoubles({ int64_t(values.size()) }, DataType::Int64, doubles));
}

/// A one-element tensor of `dtype` on the backend: scale's factor operand.
Tensor scalar(Backend &backend, double value, DataType dtype)
{
    return backend.toDevice(Tensor::fromDoubles({ 1 }, dtype, std::span<const double>(&value, 1)));
}

/// The activation `name` applied through its own kernel ("" and "identity": none).
Tensor activate(KernelComposer &k, const Tensor &x, const std::string &name, double alpha)
{
    if (name.empty() || name == "identity")
        return x;
    if (name == "leaky_relu")
        return k.tensor(ops::kLeakyRelu, { x }, { attr("negative_slope", Attribute::f32(float(alpha))) });
    if (name == "relu" || name == "relu6" || name == "sigmoid" || name == "tanh" || name == "gelu"
        || name == "swish" || name == "silu")
        return k.tensor("pd_op." + name, { x });
    throw RuntimeError("activation '" + name + "' is not supported");
}

void rejectQuantized(const KernelContext &ctx)
{
    if (ctx.floatAttr("quant_scale", -1.0) > 0)
        throw RuntimeError("quantized output (quant_scale > 0) is not supported");
}

/// fc: act(matmul(x flattened to in_num_col_dims rows, w) + bias).
void fcKernel(KernelContext &ctx)
{
    if (ctx.boolAttr("padding_weights", false))
        throw RuntimeError("padding_weights=true is not supported");
    KernelComposer k(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor &w = ctx.input(1);
    const int64_t cols = ctx.intAttr("in_num_col_dims", 1);
    if (cols < 1 || cols >= int64_t(x.rank()) || w.rank() != 2)
        throw RuntimeError(
            "fc needs 1 <= in_num_col_dims < rank(input) and a 2-D weight, got in_num_col_dims "
            + std::to_string(cols) + " for " + x.describe() + " and " + w.describe());
    const std::vector<NamedAttribute> flags { attr("transpose_x", Attribute::boolean(false)),
        attr("transpose_y", Attribute::boolean(false)) };
    Tensor out;
    if (cols == int64_t(x.rank()) - 1) {
        // What the unfused matmul did: the same kernel on the same shapes.
        out = k.tensor(ops::kMatmul, { x, w }, flags);
    } else {
        std::vector<int64_t> lead(x.shape().begin(), x.shape().begin() + cols);
        const int64_t rows = numElementsOf(lead);
        out = k.tensor(
            ops::kMatmul, { x.reshaped({ rows, x.numElements() / std::max<int64_t>(rows, 1) }), w }, flags);
        lead.push_back(w.dim(1));
        out = out.reshaped(lead);
    }
    if (ctx.hasInput(2))
        out = k.tensor(ops::kAdd, { out, ctx.input(2) });
    ctx.setOutput(0, activate(k, out, ctx.stringAttr("activation_type", ""), 0.0));
}

/// fused_conv2d_add_act: act(conv2d(x, w) + bias + residual). In NHWC the filter is
/// [out, kh, kw, in] (cuDNN's NHWC filter format, which transfer_layout_pass transposes it to),
/// unlike conv2d's [out, in, kh, kw] in both layouts.
void fusedConv2dAddActKernel(KernelContext &ctx)
{
    if (!ctx.intsAttr("split_channels", std::vector<int64_t> {}).empty())
        throw RuntimeError("split_channels is not supported");
    KernelComposer k(ctx);
    std::vector<NamedAttribute> convAttrs;
    for (const char *name :
        { "strides", "paddings", "padding_algorithm", "dilations", "groups", "data_format" })
        if (const Attribute *a = ctx.attribute(name))
            convAttrs.push_back(attr(name, *a));
    Tensor filter = ctx.input(1);
    if (ctx.stringAttr("data_format", "NCHW") == "NHWC" && filter.rank() == 4)
        filter = k.tensor(ops::kTranspose, { filter },
            { attr("perm",
                Attribute::array({ Attribute::int32(0), Attribute::int32(3), Attribute::int32(1),
                    Attribute::int32(2) })) });
    Tensor out = k.tensor(ops::kConv2d, { ctx.input(0), filter }, std::move(convAttrs));
    if (ctx.hasInput(2))
        out = k.tensor(ops::kAdd, { out, ctx.input(2) });
    if (ctx.hasInput(3))
        out = k.tensor(ops::kAdd, { ctx.input(3), out });
    ctx.setOutput(
        0, activate(k, out, ctx.stringAttr("activation", "relu"), ctx.floatAttr("fuse_alpha", 0.0)));
    if (ctx.numOutputs() > 1)
        ctx.setOutputList(1, {});
}

/// x + bias + residual_alpha * residual (the operands present), as the unfused adds.
Tensor residualSum(
    KernelComposer &k, const KernelContext &ctx, size_t biasIndex, size_t residualIndex, double alpha)
{
    Tensor sum = ctx.input(0);
    if (ctx.hasInput(biasIndex))
        sum = k.tensor(ops::kAdd, { sum, ctx.input(biasIndex) });
    if (ctx.hasInput(residualIndex)) {
        Tensor residual = ctx.input(residualIndex);
        if (alpha != 1.0)
            residual = k.tensor(ops::kScale, { residual, scalar(k.backend(), alpha, DataType::Float32) },
                { attr("bias", Attribute::f32(0.0f)), attr("bias_after_scale", Attribute::boolean(true)) });
        sum = k.tensor(ops::kAdd, { sum, residual });
    }
    return sum;
}

/// fused_bias_residual_layernorm: layer_norm(x + bias + alpha * residual); mean and variance
/// (layer_norm's) flattened to [rows].
void fusedBiasResidualLayerNormKernel(KernelContext &ctx)
{
    rejectQuantized(ctx);
    KernelComposer k(ctx);
    const Tensor sum = residualSum(k, ctx, 1, 2, ctx.floatAttr("residual_alpha", 1.0));
    const int64_t axis = ctx.intAttr("begin_norm_axis", 1);
    std::vector<RuntimeValue> norm
        = k.run(ops::kLayerNorm, { sum, optionalInput(ctx, 3), optionalInput(ctx, 4) },
            { attr("epsilon", Attribute::f32(float(ctx.floatAttr("epsilon", 1e-5)))),
                attr("begin_norm_axis", Attribute::int32(int32_t(axis))) },
            { Type::denseTensor(sum.dtype(), sum.shape()), Type::denseTensor(DataType::Float32, { -1 }),
                Type::denseTensor(DataType::Float32, { -1 }) });
    ctx.setOutput(0, norm[0].tensor());
    ctx.setOutput(1, sum);
    ctx.setOutput(2, norm[1].tensor().reshaped({ norm[1].tensor().numElements() }));
    ctx.setOutput(3, norm[2].tensor().reshaped({ norm[2].tensor().numElements() }));
}

/// fused_rms_norm_quant: y = x + bias + residual; out = y * rsqrt(mean(y^2) + eps) * w (+ b),
/// as the unfused pow, mean, scale, rsqrt and multiplies (in f32 between casts for f16/bf16).
void fusedRmsNormKernel(KernelContext &ctx)
{
    rejectQuantized(ctx);
    KernelComposer k(ctx);
    const bool residual = ctx.hasInput(2);
    const Tensor sum = residualSum(k, ctx, 1, 2, 1.0);
    const int64_t rank = int64_t(sum.rank());
    int64_t axis = ctx.intAttr("begin_norm_axis", rank - 1);
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis >= rank)
        throw RuntimeError(
            "begin_norm_axis " + std::to_string(axis) + " is out of range for " + sum.describe());
    const bool half = sum.dtype() == DataType::Float16 || sum.dtype() == DataType::BFloat16;
    const Type f32 = Type::denseTensor(DataType::Float32, sum.shape());
    const Tensor y = half
        ? k.tensor(ops::kCast, { sum }, { attr("dtype", Attribute::dataType(DataType::Float32)) }, { f32 })
        : sum;
    const Tensor squared = k.tensor(ops::kPow, { y }, { attr("y", Attribute::f32(2.0f)) });
    std::vector<int64_t> axes(size_t(rank - axis));
    std::iota(axes.begin(), axes.end(), axis);
    const Tensor mean = k.tensor(
        ops::kMean, { squared, intArray(k.backend(), axes) }, { attr("keepdim", Attribute::boolean(true)) });
    const Tensor shifted = k.tensor(ops::kScale, { mean, scalar(k.backend(), 1.0, mean.dtype()) },
        { attr("bias", Attribute::f32(float(ctx.floatAttr("epsilon", 1e-6)))),
            attr("bias_after_scale", Attribute::boolean(true)) });
    const Tensor invRms = k.tensor(ops::kRsqrt, { shifted });
    Tensor out = k.tensor(ops::kMultiply, { invRms, y });
    if (half)
        out = k.tensor(ops::kCast, { out }, { attr("dtype", Attribute::dataType(sum.dtype())) },
            { Type::denseTensor(sum.dtype(), sum.shape()) });
    out = k.tensor(ops::kMultiply, { out, ctx.input(3) });
    if (ctx.hasInput(4))
        out = k.tensor(ops::kAdd, { out, ctx.input(4) });
    ctx.setOutput(0, out);
    ctx.setOutput(1, residual ? sum : ctx.allocate({ 0 }, DataType::Float32));
    ctx.setOutput(2, invRms.reshaped(std::vector<int64_t>(sum.shape().begin(), sum.shape().begin() + axis)));
}

/// add_group_norm_silu: group_norm(x + residual), then silu when activation is "silu".
void addGroupNormSiluKernel(KernelContext &ctx)
{
    KernelComposer k(ctx);
    const Tensor sum = ctx.hasInput(1) ? k.tensor(ops::kAdd, { ctx.input(0), ctx.input(1) }) : ctx.input(0);
    std::vector<NamedAttribute> attrs;
    for (const char *name : { "epsilon", "groups", "data_format" })
        if (const Attribute *a = ctx.attribute(name))
            attrs.push_back(attr(name, *a));
    std::vector<RuntimeValue> norm
        = k.run(ops::kGroupNorm, { sum, optionalInput(ctx, 2), optionalInput(ctx, 3) }, std::move(attrs),
            { Type::denseTensor(sum.dtype(), sum.shape()), Type::denseTensor(DataType::Float32, { -1 }),
                Type::denseTensor(DataType::Float32, { -1 }) });
    const std::string activation = ctx.stringAttr("activation", "");
    ctx.setOutput(0,
        activation == "silu" ? k.tensor(ops::kSilu, { norm[0].tensor() })
                             : activate(k, norm[0].tensor(), activation, 0.0));
    ctx.setOutput(1, sum);
    ctx.setOutput(2, norm[1].tensor());
    ctx.setOutput(3, norm[2].tensor());
}

} // namespace

void registerFusedKernels(KernelRegistry &registry)
{
    registry.add(ops::kFc, fcKernel);
    registry.add(ops::kFusedConv2dAddAct, fusedConv2dAddActKernel);
    registry.add(ops::kFusedBiasResidualLayernorm, fusedBiasResidualLayerNormKernel);
    registry.add(ops::kFusedRmsNormQuant, fusedRmsNormKernel);
    registry.add(ops::kAddGroupNormSilu, addGroupNormSiluKernel);
    registerOneDnnFusedKernels(registry);
}

} // namespace ps
