#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/convspec.h"
#include "core/runtime/onednn/onednnengine.h"
#include "core/runtime/onednn/onednnkernels.h"
#include "core/runtime/onednn/onednnutil.h"

#include <utility>
#include <vector>

namespace ps {
namespace {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

struct ConvPlan
{
    dnnl::primitive primitive;
    dnnl::memory::desc src, weights, dst, scratchpad; ///< the primitive's layouts
    dnnl::memory::desc userSrc, userWeights, userDst; ///< Paddle's (the tensors')
};

// Paddle's filters: conv [OC, IC/G, KH, KW] (oihw, goihw when grouped), conv2d_transpose
// [IC, OC/G, KH, KW] (iohw, giohw). oneDNN's grouped weights are [G, OC/G, IC/G, KH, KW].
ConvPlan makeConvPlan(const ConvSpec &s)
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
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
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
            const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                dnnl::algorithm::convolution_direct, srcDesc, weightsDesc, dstDesc, strides, dilates,
                padBegin, padEnd);
            const dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
            rejectReference(pd);
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

void runConv(KernelContext &ctx, const ConvSpec &s)
{
    std::string key = s.transposed ? "deconv|" : "conv|";
    appendKey(key,
        { s.channelsLast, s.groups, s.batch, s.inChannels, s.inH, s.inW, s.outChannels, s.outH, s.outW,
            s.kernelH, s.kernelW, s.strideH, s.strideW, s.dilationH, s.dilationW, s.padTop, s.padLeft });
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<ConvPlan>(key, [&] { return makeConvPlan(s); });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    dnnl::memory src = userMemory(plan->userSrc, ctx.input(0));
    if (plan->src != plan->userSrc) {
        dnnl::memory blocked(plan->src, engine.engine());
        engine.reorder(src, blocked);
        src = blocked;
    }
    const dnnl::memory weights = engine.weights(ctx.input(1), plan->userWeights, plan->weights);
    Tensor out = ctx.allocate(s.outputShape(), DataType::Float32);
    const dnnl::memory userDst = userMemory(plan->userDst, out);
    const bool reorderDst = plan->dst != plan->userDst;
    const dnnl::memory dst = reorderDst ? dnnl::memory(plan->dst, engine.engine()) : userDst;
    engine.execute(plan->primitive,
        { { DNNL_ARG_SRC, src }, { DNNL_ARG_WEIGHTS, weights }, { DNNL_ARG_DST, dst } }, plan->scratchpad);
    if (reorderDst)
        engine.reorder(dst, userDst);
    ctx.setOutput(0, out);
}

bool convOperands(const KernelContext &ctx)
{
    return isOneDnnFloat(ctx.input(0)) && isOneDnnFloat(ctx.input(1)) && ctx.input(0).rank() == 4
        && ctx.input(1).rank() == 4;
}

void conv2dKernel(KernelContext &ctx)
{
    if (!convOperands(ctx)) {
        runPlainKernel(ctx);
        return;
    }
    runConv(ctx, ConvSpec::forward(ctx, ctx.input(0).shape(), ctx.input(1).shape()));
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

} // namespace

void registerOneDnnConvKernels(KernelRegistry &registry)
{
    registry.add("pd_op.conv2d", conv2dKernel);
    registry.add("pd_op.depthwise_conv2d", conv2dKernel);
    registry.add("pd_op.conv2d_transpose", conv2dTransposeKernel);
    registry.add("pd_op.depthwise_conv2d_transpose", conv2dTransposeKernel);
}

} // namespace ps
