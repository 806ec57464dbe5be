#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/convspec.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/onednn/onednnengine.h"
#include "core/runtime/onednn/onednnkernels.h"
#include "core/runtime/onednn/onednnlayout.h"
#include "core/runtime/onednn/onednnutil.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ps {
namespace {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

// What a fused convolution adds: a bias [OC] (the primitive's), a residual of the output's shape
// (a sum post-op: the output buffer holds it before the convolution) and an activation (one or
// two eltwise post-ops), in Paddle's order act(conv + bias + residual).
struct PostOps
{
    bool bias = false;
    bool residual = false;
    std::vector<OneDnnEltwise> activation;
};

struct ConvPlan
{
    dnnl::primitive primitive;
    dnnl::memory::desc src, weights, dst, scratchpad; ///< the primitive's layouts
    dnnl::memory::desc userSrc, userWeights, userDst; ///< Paddle's (the tensors')
    /// The activation run after the convolution, in place on its output, where oneDNN's GEMM
    /// convolution would apply it as a post-op (its post-op loop is scalar: a hard_swish made a
    /// 1x1 convolution 4x slower than the convolution and a jit eltwise after it).
    std::vector<OneDnnPlan> activation;
};

// Paddle's filters: conv [OC, IC/G, KH, KW] (oihw, goihw when grouped), conv2d_transpose
// [IC, OC/G, KH, KW] (iohw, giohw). oneDNN's grouped weights are [G, OC/G, IC/G, KH, KW].
ConvPlan makeConvPlan(const ConvSpec &s, const PostOps &post)
{
    const dnnl::engine &engine = OneDnnEngine::instance().engine();
    const tag act = s.channelsLast ? tag::nhwc : tag::nchw;
    const dnnl::memory::dims src { s.batch, s.inChannels, s.inH, s.inW };
    const dnnl::memory::dims dst { s.batch, s.outChannels, s.outH, s.outW };
    const bool grouped = s.groups > 1;
    const dnnl::memory::dims weights = grouped
        ? dnnl::memory::dims { s.groups, s.outChannelsPerGroup(), s.inChannelsPerGroup(), s.kernelH,
              s.kernelW }
        : dnnl::memory::dims { s.outChannels, s.inChannels, s.kernelH, s.kernelW };
    const tag weightTag
        = s.transposed ? (grouped ? tag::giohw : tag::iohw) : (grouped ? tag::goihw : tag::oihw);
    const dnnl::memory::dims strides { s.strideH, s.strideW };
    const dnnl::memory::dims dilates { s.dilationH - 1, s.dilationW - 1 };
    const dnnl::memory::dims padBegin { s.padTop, s.padLeft };
    // The end padding that gives exactly ConvSpec's output size: a larger padding Paddle was given
    // (its output size rounds down) reaches no extra input.
    const int64_t extentH = (s.kernelH - 1) * s.dilationH + 1, extentW = (s.kernelW - 1) * s.dilationW + 1;
    const dnnl::memory::dims padEnd = s.transposed
        ? dnnl::memory::dims { (s.inH - 1) * s.strideH + extentH - s.padTop - s.outH,
              (s.inW - 1) * s.strideW + extentW - s.padLeft - s.outW }
        : dnnl::memory::dims { (s.outH - 1) * s.strideH + extentH - s.inH - s.padTop,
              (s.outW - 1) * s.strideW + extentW - s.inW - s.padLeft };
    const auto attrWith = [&post](bool activation) {
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        dnnl::post_ops postOps;
        if (post.residual)
            postOps.append_sum(1.0f);
        if (activation)
            for (const OneDnnEltwise &e : post.activation)
                postOps.append_eltwise(1.0f, e.algorithm, e.alpha, e.beta);
        attr.set_post_ops(postOps);
        return attr;
    };
    const dnnl::primitive_attr attr = attrWith(true);
    const dnnl::memory::desc biasDesc = post.bias ? plainDesc({ s.outChannels }) : dnnl::memory::desc();
    const auto make = [&](tag srcTag, tag dstTag) {
        const dnnl::memory::desc srcDesc(src, dt::f32, srcTag), dstDesc(dst, dt::f32, dstTag),
            weightsDesc(weights, dt::f32, tag::any);
        ConvPlan plan;
        plan.userSrc = dnnl::memory::desc(src, dt::f32, act);
        plan.userDst = dnnl::memory::desc(dst, dt::f32, act);
        plan.userWeights = dnnl::memory::desc(weights, dt::f32, weightTag);
        if (s.transposed) {
            const dnnl::deconvolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                dnnl::algorithm::deconvolution_direct, srcDesc, weightsDesc, dstDesc, strides, dilates,
                padBegin, padEnd);
            const dnnl::deconvolution_forward::primitive_desc pd(desc, attr, engine);
            rejectReference(pd);
            plan.primitive = dnnl::deconvolution_forward(pd);
            plan.src = pd.src_desc();
            plan.weights = pd.weights_desc();
            plan.dst = pd.dst_desc();
            plan.scratchpad = pd.scratchpad_desc();
        } else {
            const dnnl::convolution_forward::desc desc = post.bias
                ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::convolution_direct, srcDesc, weightsDesc, biasDesc, dstDesc, strides,
                    dilates, padBegin, padEnd)
                : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::convolution_direct, srcDesc, weightsDesc, dstDesc, strides, dilates,
                    padBegin, padEnd);
            dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
            rejectReference(pd);
            if (!post.activation.empty()
                && std::string(pd.impl_info_str()).find("gemm") != std::string::npos) {
                pd = dnnl::convolution_forward::primitive_desc(desc, attrWith(false), engine);
                for (const OneDnnEltwise &e : post.activation) {
                    const dnnl::eltwise_forward::desc eltwise(
                        dnnl::prop_kind::forward_inference, e.algorithm, pd.dst_desc(), e.alpha, e.beta);
                    const dnnl::eltwise_forward::primitive_desc epd(eltwise, userScratchpad(), engine);
                    plan.activation.push_back({ dnnl::eltwise_forward(epd), epd.scratchpad_desc() });
                }
            }
            plan.primitive = dnnl::convolution_forward(pd);
            plan.src = pd.src_desc();
            plan.weights = pd.weights_desc();
            plan.dst = pd.dst_desc();
            plan.scratchpad = pd.scratchpad_desc();
        }
        // A layout whose reorders are oneDNN's reference loops is no faster than NCHW.
        const auto checkReorder = [&](const dnnl::memory::desc &from, const dnnl::memory::desc &to) {
            if (from != to)
                rejectReference(dnnl::reorder::primitive_desc(engine, from, engine, to));
        };
        checkReorder(plan.userSrc, plan.src);
        checkReorder(plan.dst, plan.userDst);
        checkReorder(plan.userWeights, plan.weights);
        return plan;
    };
    // Layouts in order of preference, measured with one thread on AVX-512 (Zen 4): the tensors
    // are NCHW, so a blocked layout costs a reorder in and out, which a 1x1 convolution (a GEMM
    // on NCHW as it is) or a transposed one to few channels does not repay; a k x k or depthwise
    // convolution is 2-30x faster blocked (nChw16c, nChw8c when the channels are multiples of 8
    // only) than on NCHW. NHWC tensors stay NHWC.
    std::vector<std::pair<tag, tag>> layouts;
    if (s.channelsLast) {
        layouts = { { act, act }, { tag::any, tag::any } };
    } else {
        const bool pointwise = !s.transposed && s.groups == 1 && s.kernelH == 1 && s.kernelW == 1
            && s.padTop == 0 && s.padLeft == 0 && padEnd[0] == 0 && padEnd[1] == 0;
        const bool fewOutputs = s.transposed && s.outChannels < 8;
        const bool by16 = s.inChannels % 16 == 0 && s.outChannels % 16 == 0;
        const bool by8 = s.inChannels % 8 == 0 && s.outChannels % 8 == 0;
        const tag blocked = by16 || !by8 ? tag::aBcd16b : tag::aBcd8b;
        if (pointwise || fewOutputs)
            layouts.push_back({ tag::nchw, tag::nchw });
        layouts.push_back({ blocked, blocked });
        if (s.inChannels < 8)
            layouts.push_back({ tag::nchw, blocked });
        layouts.push_back({ tag::any, tag::any });
        layouts.push_back({ tag::nchw, tag::nchw });
    }
    for (size_t i = 0; i + 1 < layouts.size(); ++i) {
        try {
            return make(layouts[i].first, layouts[i].second);
        } catch (const dnnl::error &) {
        }
    }
    return make(layouts.back().first, layouts.back().second);
}

// `bias` and `residual` (operands 2 and 3 of fused_conv2d_add_act) as `post` says.
void runConv(KernelContext &ctx, const ConvSpec &s, const PostOps &post = {})
{
    std::string key = s.transposed ? "deconv|" : "conv|";
    appendKey(key,
        { s.channelsLast, s.groups, s.batch, s.inChannels, s.inH, s.inW, s.outChannels, s.outH, s.outW,
            s.kernelH, s.kernelW, s.strideH, s.strideW, s.dilationH, s.dilationW, s.padTop, s.padLeft });
    appendKey(key, { post.bias, post.residual });
    for (const OneDnnEltwise &e : post.activation) {
        appendKey(key, { int64_t(e.algorithm) });
        appendKey(key, double(e.alpha));
        appendKey(key, double(e.beta));
    }
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<ConvPlan>(key, [&] { return makeConvPlan(s, post); });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    // The input as it came: NCHW (or NHWC), or the blocked layout a convolution before this one
    // kept for it (the interpreter let it: KernelContext::mayKeepLayout).
    const Tensor &x = s.channelsLast ? ctx.input(0) : OneDnnLayout::operand(ctx, 0);
    dnnl::memory src = x.hasLayout() ? OneDnnLayout::memoryOf(x) : userMemory(plan->userSrc, x);
    if (src.get_desc() != plan->src) {
        dnnl::memory blocked(plan->src, engine.engine());
        engine.reorder(src, blocked);
        src = blocked;
    }
    const dnnl::memory weights = engine.weights(ctx.input(1), plan->userWeights, plan->weights);
    // The output stays in the primitive's blocked layout when every reader takes it as it is
    // (and it needs no more bytes than NCHW: channels a multiple of the block).
    const size_t outBytes = size_t(s.batch * s.outChannels * s.outH * s.outW) * sizeof(float);
    const bool keepLayout = ctx.mayKeepLayout() && !s.channelsLast && plan->dst != plan->userDst
        && plan->dst.get_size() == outBytes;
    const Tensor *residual = nullptr;
    if (post.residual)
        residual = s.channelsLast ? &ctx.input(3) : &OneDnnLayout::operand(ctx, 3);
    // A residual nothing reads after this op, already in the layout the result is written in,
    // is the result's buffer: the sum post-op adds to it in place (no copy of it first). Not
    // when the input shares its bytes (the convolution reads them while it writes).
    const bool intoResidual = residual && ctx.mayOverwriteInput(3)
        && OneDnnLayout::descOf(*residual) == (keepLayout ? plan->dst : plan->userDst)
        && plan->dst == (keepLayout ? plan->dst : plan->userDst) && residual->storage() != x.storage();
    Tensor out;
    if (intoResidual) {
        out = *residual;
    } else {
        out = ctx.allocate(s.outputShape(), DataType::Float32);
        if (keepLayout)
            out = out.withLayout(std::make_shared<OneDnnLayout>(plan->dst));
    }
    const dnnl::memory userDst = keepLayout ? OneDnnLayout::memoryOf(out) : userMemory(plan->userDst, out);
    const bool reorderDst = plan->dst != userDst.get_desc();
    const dnnl::memory dst = reorderDst ? dnnl::memory(plan->dst, engine.engine()) : userDst;
    if (residual && !intoResidual)
        engine.reorder(
            residual->hasLayout() ? OneDnnLayout::memoryOf(*residual) : userMemory(plan->userDst, *residual),
            dst);
    std::unordered_map<int, dnnl::memory> args { { DNNL_ARG_SRC, src }, { DNNL_ARG_WEIGHTS, weights },
        { DNNL_ARG_DST, dst } };
    if (post.bias)
        args.emplace(DNNL_ARG_BIAS, userMemory(plainDesc({ s.outChannels }), ctx.input(2)));
    engine.execute(plan->primitive, std::move(args), plan->scratchpad);
    for (const OneDnnPlan &activation : plan->activation)
        engine.execute(
            activation.primitive, { { DNNL_ARG_SRC, dst }, { DNNL_ARG_DST, dst } }, activation.scratchpad);
    if (reorderDst)
        engine.reorder(dst, userDst);
    ctx.setOutput(0, out);
}

// Operand 0 and the residual (3) are read as they are (OneDnnLayout): their shape and dtype only
// until runConv.
bool convOperands(const KernelContext &ctx)
{
    return isOneDnnFloat(ctx.inputKeepingLayout(0)) && isOneDnnFloat(ctx.input(1))
        && ctx.inputKeepingLayout(0).rank() == 4 && ctx.input(1).rank() == 4;
}

void conv2dKernel(KernelContext &ctx)
{
    if (!convOperands(ctx)) {
        runPlainKernel(ctx);
        return;
    }
    runConv(ctx, ConvSpec::forward(ctx, ctx.inputKeepingLayout(0).shape(), ctx.input(1).shape()));
}

void conv2dTransposeKernel(KernelContext &ctx)
{
    if (!convOperands(ctx)) {
        runPlainKernel(ctx);
        return;
    }
    const std::vector<int64_t> outputSize
        = ctx.hasInput(2) ? ctx.inputAsInts(2) : ctx.intsAttr("output_size", std::vector<int64_t> {});
    runConv(ctx, ConvSpec::transpose(ctx, ctx.input(0).shape(), ctx.input(1).shape(), outputSize));
}

// fused_conv2d_add_act: act(conv2d(x, w) + bias + residual) as one primitive. NCHW only (in
// NHWC its filter is [out, kh, kw, in]); the activations oneDNN has as post-ops.
void fusedConv2dAddActKernel(KernelContext &ctx)
{
    if (!convOperands(ctx) || kernels::isChannelsLast(ctx.stringAttr("data_format", std::string("NCHW")))
        || !ctx.intsAttr("split_channels", std::vector<int64_t> {}).empty()) {
        runPlainKernel(ctx);
        return;
    }
    const ConvSpec s = ConvSpec::forward(ctx, ctx.inputKeepingLayout(0).shape(), ctx.input(1).shape());
    PostOps post;
    post.bias = ctx.hasInput(2);
    post.residual = ctx.hasInput(3);
    // The bias as the pass leaves it, [1, OC, 1, 1] (or [OC, 1, 1]): what broadcasts per channel.
    const auto perChannel = [&](const Tensor &b) {
        std::vector<int64_t> shape(4 - std::min<size_t>(b.rank(), 4), 1);
        shape.insert(shape.end(), b.shape().begin(), b.shape().end());
        return b.rank() <= 4 && shape == std::vector<int64_t> { 1, s.outChannels, 1, 1 };
    };
    if ((post.bias && (!isOneDnnFloat(ctx.input(2)) || !perChannel(ctx.input(2))))
        || (post.residual
            && (!isOneDnnFloat(ctx.inputKeepingLayout(3))
                || ctx.inputKeepingLayout(3).shape() != s.outputShape()))) {
        runPlainKernel(ctx);
        return;
    }
    const std::string activation = ctx.stringAttr("activation", "relu");
    using a = dnnl::algorithm;
    if (activation == "relu" || activation == "leaky_relu") {
        post.activation = { { a::eltwise_relu,
            activation == "leaky_relu" ? float(ctx.floatAttr("fuse_alpha", 0.0)) : 0.0f } };
    } else if (activation == "relu6") {
        post.activation = { { a::eltwise_clip, 0.0f, 6.0f } };
    } else if (activation == "sigmoid") {
        post.activation = { { a::eltwise_logistic } };
    } else if (activation == "tanh") {
        post.activation = { { a::eltwise_tanh } };
    } else if (activation == "swish" || activation == "silu") {
        post.activation = { { a::eltwise_swish, 1.0f } };
    } else if (activation == "gelu") {
        post.activation = { { a::eltwise_gelu_erf } };
    } else if (!activation.empty() && activation != "identity") {
        runPlainKernel(ctx); // its error names the activation
        return;
    }
    runConv(ctx, s, post);
    if (ctx.numOutputs() > 1)
        ctx.setOutputList(1, {});
}

// onednn_op.fused_conv2d: act(conv2d(x, w) + bias + residual), NCHW, the bias per channel ([C],
// or [1, C, 1, 1] as conv2d_bias_fuse_pass leaves it), the residual of the result's shape.
void oneDnnFusedConv2dKernel(KernelContext &ctx)
{
    if (!convOperands(ctx) || kernels::isChannelsLast(ctx.stringAttr("data_format", std::string("NCHW")))) {
        runPlainKernel(ctx);
        return;
    }
    const ConvSpec s = ConvSpec::forward(ctx, ctx.inputKeepingLayout(0).shape(), ctx.input(1).shape());
    PostOps post;
    post.bias = ctx.hasInput(2);
    post.residual = ctx.hasInput(3);
    const auto perChannel = [&](const Tensor &b) {
        return b.numElements() == s.outChannels
            && (b.rank() == 1 || (b.rank() == 4 && b.dim(1) == s.outChannels));
    };
    if ((post.bias && (!isOneDnnFloat(ctx.input(2)) || !perChannel(ctx.input(2))))
        || (post.residual
            && (!isOneDnnFloat(ctx.inputKeepingLayout(3))
                || ctx.inputKeepingLayout(3).shape() != s.outputShape()))
        || !oneDnnFusedActivation(ctx.stringAttr("fuse_activation", ""),
            float(ctx.floatAttr("fuse_alpha", 0.0)), float(ctx.floatAttr("fuse_beta", 0.0)),
            post.activation)) {
        runPlainKernel(ctx);
        return;
    }
    runConv(ctx, s, post);
}

} // namespace

void registerOneDnnConvKernels(KernelRegistry &registry)
{
    registry.add("pd_op.conv2d", conv2dKernel);
    registry.add("pd_op.depthwise_conv2d", conv2dKernel);
    registry.add("pd_op.conv2d_transpose", conv2dTransposeKernel);
    registry.add("pd_op.depthwise_conv2d_transpose", conv2dTransposeKernel);
    registry.add("pd_op.fused_conv2d_add_act", fusedConv2dAddActKernel);
    registry.add("onednn_op.fused_conv2d", oneDnnFusedConv2dKernel);
    // The input and the residual in a blocked layout a convolution before kept (OneDnnLayout).
    for (const char *op :
        { "pd_op.conv2d", "pd_op.depthwise_conv2d", "pd_op.fused_conv2d_add_act", "onednn_op.fused_conv2d" })
        registry.acceptLayout(op, 0);
    registry.acceptLayout("pd_op.fused_conv2d_add_act", 3);
    registry.acceptLayout("onednn_op.fused_conv2d", 3);
}

} // namespace ps
