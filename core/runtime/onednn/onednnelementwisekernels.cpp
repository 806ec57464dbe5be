#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/imagekernels.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/onednn/onednnengine.h"
#include "core/runtime/onednn/onednnkernels.h"
#include "core/runtime/onednn/onednnlayout.h"
#include "core/runtime/onednn/onednnutil.h"

#include <cmath>

namespace ps {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

using Plan = OneDnnPlan;

// x op y with NumPy broadcasting, when one operand has the result's shape (oneDNN broadcasts
// src1 only; the commutative ops swap their operands for it). An inplace form writes into x.
// maximum/minimum stay plain: oneDNN's drop a NaN operand, Paddle's (and the oracle) keep it.
// Two tensors in the same blocked layout (OneDnnLayout, no padding) combine byte for byte: the
// result keeps the layout when every reader takes it (ResNet's residual add between blocked
// convolutions and relu); else a blocked operand is made plain first.
template<dnnl::algorithm Algorithm> bool blockedBinary(KernelContext &ctx)
{
    const Tensor &x = OneDnnLayout::operand(ctx, 0);
    const Tensor &y = OneDnnLayout::operand(ctx, 1);
    if (!ctx.mayKeepLayout() || !x.hasLayout() || !y.hasLayout() || x.shape() != y.shape()
        || !isOneDnnFloat(x) || !isOneDnnFloat(y) || kernels::sharesStorage(x, y)
        || OneDnnLayout::descOf(x) != OneDnnLayout::descOf(y)
        || OneDnnLayout::descOf(x).get_size() != x.byteSize())
        return false;
    const dnnl::memory::desc data = plainDesc({ x.numElements() });
    std::string key = "binary|";
    appendKey(key, { int64_t(Algorithm), x.numElements() });
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        const dnnl::binary::primitive_desc pd(
            dnnl::binary::desc(Algorithm, data, data, data), userScratchpad(), engine.engine());
        rejectReference(pd);
        return Plan { dnnl::binary(pd), pd.scratchpad_desc() };
    });
    if (!plan)
        return false;
    // In place only into a buffer nothing else holds (a transpose's relabelled result shares it).
    Tensor out = kernels::isInplaceOp(ctx) && x.storage().use_count() == 1
        ? x
        : ctx.allocate(x.shape(), DataType::Float32).withLayout(x.layout());
    const auto memory = [&](const Tensor &t) {
        return dnnl::memory(data, engine.engine(), const_cast<void *>(t.layoutData()));
    };
    engine.execute(plan->primitive,
        { { DNNL_ARG_SRC_0, memory(x) }, { DNNL_ARG_SRC_1, memory(y) }, { DNNL_ARG_DST, memory(out) } },
        plan->scratchpad);
    ctx.setOutput(0, out);
    return true;
}

template<dnnl::algorithm Algorithm, bool Commutative> void binaryKernel(KernelContext &ctx)
{
    if (blockedBinary<Algorithm>(ctx))
        return;
    const Tensor &x = ctx.input(0);
    const Tensor &y = ctx.input(1);
    const bool inplace = kernels::isInplaceOp(ctx);
    if (!isOneDnnFloat(x) || !isOneDnnFloat(y) || (inplace && kernels::sharesStorage(x, y))) {
        runPlainKernel(ctx);
        return;
    }
    std::vector<int64_t> shape;
    try {
        shape = broadcastShapes(x.shape(), y.shape());
    } catch (const std::exception &) {
        runPlainKernel(ctx); // its error names the shapes
        return;
    }
    const bool swap = x.shape() != shape;
    if (swap && (!Commutative || inplace || y.shape() != shape)) {
        runPlainKernel(ctx);
        return;
    }
    const Tensor &full = swap ? y : x;
    const Tensor &other = swap ? x : y;
    std::vector<int64_t> otherShape(shape.size() - other.rank(), 1);
    otherShape.insert(otherShape.end(), other.shape().begin(), other.shape().end());
    const dnnl::memory::desc src0 = plainDesc(shape), src1 = plainDesc(otherShape);
    std::string key = "binary|";
    appendKey(key, { int64_t(Algorithm) });
    appendKey(key, shape);
    appendKey(key, otherShape);
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        const dnnl::binary::primitive_desc pd(
            dnnl::binary::desc(Algorithm, src0, src1, src0), userScratchpad(), engine.engine());
        rejectReference(pd);
        return Plan { dnnl::binary(pd), pd.scratchpad_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    Tensor out = kernels::resultTensor(ctx, x, shape, DataType::Float32);
    engine.execute(plan->primitive,
        { { DNNL_ARG_SRC_0, userMemory(src0, full) }, { DNNL_ARG_SRC_1, userMemory(src1, other) },
            { DNNL_ARG_DST, userMemory(src0, out) } },
        plan->scratchpad);
    ctx.setOutput(0, out);
}

// One oneDNN eltwise for a unary op.
struct Eltwise
{
    dnnl::algorithm algorithm = dnnl::algorithm::eltwise_relu;
    float alpha = 0, beta = 0;
};

// A tensor a convolution left blocked (OneDnnLayout, no padding: the same bytes as NCHW, in
// another order) is read as it is and the result keeps its layout when every reader of the
// result takes it too (a convolution after batch_norm + relu); else it is made plain first.
void runEltwise(KernelContext &ctx, const Eltwise &e)
{
    const Tensor &operand = OneDnnLayout::operand(ctx, 0);
    const bool blocked = operand.hasLayout() && ctx.mayKeepLayout()
        && OneDnnLayout::descOf(operand).get_size() == operand.byteSize();
    const Tensor &x = blocked ? operand : ctx.input(0);
    if (!isOneDnnFloat(x)) {
        runPlainKernel(ctx);
        return;
    }
    const dnnl::memory::desc data = plainDesc({ x.numElements() });
    std::string key = "eltwise|";
    appendKey(key, { int64_t(e.algorithm), x.numElements() });
    appendKey(key, double(e.alpha));
    appendKey(key, double(e.beta));
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        const dnnl::eltwise_forward::desc desc(
            dnnl::prop_kind::forward_inference, e.algorithm, data, e.alpha, e.beta);
        const dnnl::eltwise_forward::primitive_desc pd(desc, userScratchpad(), engine.engine());
        rejectReference(pd);
        return Plan { dnnl::eltwise_forward(pd), pd.scratchpad_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    if (blocked) {
        // In place only into a buffer nothing else holds (a transpose's relabelled result
        // shares it).
        Tensor out = kernels::isInplaceOp(ctx) && x.storage().use_count() == 1
            ? x
            : ctx.allocate(x.shape(), DataType::Float32).withLayout(x.layout());
        engine.execute(plan->primitive,
            { { DNNL_ARG_SRC, dnnl::memory(data, engine.engine(), const_cast<void *>(x.layoutData())) },
                { DNNL_ARG_DST, dnnl::memory(data, engine.engine(), out.layoutData()) } },
            plan->scratchpad);
        ctx.setOutput(0, out);
        return;
    }
    Tensor out = kernels::resultTensor(ctx, x, x.shape(), DataType::Float32);
    engine.execute(plan->primitive,
        { { DNNL_ARG_SRC, userMemory(data, x) }, { DNNL_ARG_DST, userMemory(data, out) } }, plan->scratchpad);
    ctx.setOutput(0, out);
}

template<dnnl::algorithm Algorithm> void fixedEltwiseKernel(KernelContext &ctx)
{
    runEltwise(ctx, Eltwise { Algorithm });
}

void relu6Kernel(KernelContext &ctx)
{
    runEltwise(ctx, Eltwise { dnnl::algorithm::eltwise_clip, 0.0f, 6.0f });
}

void swishKernel(KernelContext &ctx)
{
    runEltwise(ctx, Eltwise { dnnl::algorithm::eltwise_swish, 1.0f });
}

void geluKernel(KernelContext &ctx)
{
    runEltwise(ctx,
        Eltwise { ctx.boolAttr("approximate", false) ? dnnl::algorithm::eltwise_gelu_tanh
                                                     : dnnl::algorithm::eltwise_gelu_erf });
}

void leakyReluKernel(KernelContext &ctx)
{
    runEltwise(ctx, Eltwise { dnnl::algorithm::eltwise_relu, float(ctx.floatAttr("negative_slope", 0.02)) });
}

void eluKernel(KernelContext &ctx)
{
    runEltwise(ctx, Eltwise { dnnl::algorithm::eltwise_elu, float(ctx.floatAttr("alpha", 1.0)) });
}

// nearest_interp where oneDNN's nearest source index, round((o + 0.5) * in / out - 0.5), is
// the index Paddle's float arithmetic picks (interpTaps) for every output row and column
// (integer upsampling factors; the check covers the rest).
void nearestInterpKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    if (!isOneDnnFloat(x) || x.rank() != 4) {
        runPlainKernel(ctx);
        return;
    }
    const bool last = kernels::interpChannelsLast(ctx);
    const int64_t inH = x.dim(last ? 1 : 2), inW = x.dim(last ? 2 : 3);
    const kernels::InterpPlan p = kernels::interpPlan(ctx, inH, inW, kernels::shortName(ctx));
    if (p.outH <= 0 || p.outW <= 0) {
        runPlainKernel(ctx);
        return;
    }
    const kernels::InterpTaps taps = kernels::interpTaps(p, false, inH, inW);
    const int64_t *index = taps.index.data<int64_t>();
    const auto sameAsOneDnn = [](const int64_t *lo, int64_t in, int64_t out) {
        for (int64_t o = 0; o < out; ++o)
            if (lo[o] != int64_t(std::roundf((float(o) + 0.5f) * float(in) / float(out) - 0.5f)))
                return false;
        return true;
    };
    if (!sameAsOneDnn(index, inH, p.outH) || !sameAsOneDnn(index + 2 * p.outH, inW, p.outW)) {
        runPlainKernel(ctx);
        return;
    }
    const int64_t n = x.dim(0), c = x.dim(last ? 3 : 1);
    const tag act = last ? tag::nhwc : tag::nchw;
    const dnnl::memory::desc src({ n, c, inH, inW }, dt::f32, act),
        dst({ n, c, p.outH, p.outW }, dt::f32, act);
    std::string key = "nearest|";
    appendKey(key, { last, n, c, inH, inW, p.outH, p.outW });
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        const dnnl::resampling_forward::desc desc(
            dnnl::prop_kind::forward_inference, dnnl::algorithm::resampling_nearest, src, dst);
        const dnnl::resampling_forward::primitive_desc pd(desc, userScratchpad(), engine.engine());
        rejectReference(pd);
        return Plan { dnnl::resampling_forward(pd), pd.scratchpad_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    Tensor out = ctx.allocate(
        last ? std::vector<int64_t> { n, p.outH, p.outW, c } : std::vector<int64_t> { n, c, p.outH, p.outW },
        DataType::Float32);
    engine.execute(plan->primitive,
        { { DNNL_ARG_SRC, userMemory(src, x) }, { DNNL_ARG_DST, userMemory(dst, out) } }, plan->scratchpad);
    ctx.setOutput(0, out);
}

} // namespace

void registerOneDnnElementwiseKernels(KernelRegistry &registry)
{
    const auto both = [&registry](const char *name, KernelFn fn) {
        registry.add(std::string("pd_op.") + name, fn);
        registry.add(std::string("pd_op.") + name + "_", fn);
    };
    using a = dnnl::algorithm;
    both("add", binaryKernel<a::binary_add, true>);
    both("subtract", binaryKernel<a::binary_sub, false>);
    both("multiply", binaryKernel<a::binary_mul, true>);
    both("divide", binaryKernel<a::binary_div, false>);

    both("relu", fixedEltwiseKernel<a::eltwise_relu>);
    both("tanh", fixedEltwiseKernel<a::eltwise_tanh>);
    both("sigmoid", fixedEltwiseKernel<a::eltwise_logistic>);
    both("exp", fixedEltwiseKernel<a::eltwise_exp>);
    both("sqrt", fixedEltwiseKernel<a::eltwise_sqrt>);
    both("abs", fixedEltwiseKernel<a::eltwise_abs>);
    both("square", fixedEltwiseKernel<a::eltwise_square>);
    both("leaky_relu", leakyReluKernel);
    both("elu", eluKernel);
    registry.add("pd_op.hardswish", fixedEltwiseKernel<a::eltwise_hardswish>);
    registry.add("pd_op.relu6", relu6Kernel);
    registry.add("pd_op.silu", swishKernel);
    registry.add("pd_op.swish", swishKernel);
    registry.add("pd_op.gelu", geluKernel);
    registry.add("pd_op.nearest_interp", nearestInterpKernel);
    // The binary ones read two tensors in the same blocked layout as they are (blockedBinary),
    // the unary ones one (runEltwise).
    for (const char *name : { "add", "subtract", "multiply", "divide" })
        for (unsigned operand : { 0u, 1u }) {
            registry.acceptLayout(std::string("pd_op.") + name, operand);
            registry.acceptLayout(std::string("pd_op.") + name + "_", operand);
        }
    for (const char *name :
        { "relu", "tanh", "sigmoid", "exp", "sqrt", "abs", "square", "leaky_relu", "elu" }) {
        registry.acceptLayout(std::string("pd_op.") + name, 0);
        registry.acceptLayout(std::string("pd_op.") + name + "_", 0);
    }
    for (const char *name : { "pd_op.hardswish", "pd_op.relu6", "pd_op.silu", "pd_op.swish", "pd_op.gelu" })
        registry.acceptLayout(name, 0);
}

void registerOneDnnKernels(KernelRegistry &registry)
{
    registerOneDnnConvKernels(registry);
    registerOneDnnConv3dKernels(registry);
    registerOneDnnNnKernels(registry);
    registerOneDnnElementwiseKernels(registry);
}

} // namespace ps
