#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/conv3dspec.h"
#include "core/runtime/onednn/onednnengine.h"
#include "core/runtime/onednn/onednnkernels.h"
#include "core/runtime/onednn/onednnutil.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace ps {
namespace {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

struct Conv3dPlan
{
    dnnl::primitive primitive;
    dnnl::memory::desc src, weights, dst, scratchpad; ///< the primitive's layouts
    dnnl::memory::desc userSrc, userWeights, userDst; ///< Paddle's (the tensors')
};

// Paddle's filter [OC, IC/G, KD, KH, KW] (oidhw, goidhw when grouped). The tensors keep
// Paddle's NCDHW / NDHWC; the primitive may pick a blocked layout for them (reorders in and
// out), whichever oneDNN finds fastest that is not one of its reference loops.
Conv3dPlan makeConv3dPlan(const Conv3dSpec &s)
{
    const dnnl::engine &engine = OneDnnEngine::instance().engine();
    const tag act = s.channelsLast ? tag::ndhwc : tag::ncdhw;
    const dnnl::memory::dims src { s.batch, s.inChannels, s.in[0], s.in[1], s.in[2] };
    const dnnl::memory::dims dst { s.batch, s.outChannels, s.out[0], s.out[1], s.out[2] };
    const bool grouped = s.groups > 1;
    const dnnl::memory::dims weights = grouped
        ? dnnl::memory::dims { s.groups, s.outChannelsPerGroup(), s.inChannelsPerGroup(), s.kernel[0],
              s.kernel[1], s.kernel[2] }
        : dnnl::memory::dims { s.outChannels, s.inChannels, s.kernel[0], s.kernel[1], s.kernel[2] };
    dnnl::memory::dims strides, dilates, padBegin, padEnd;
    for (size_t i = 0; i < 3; ++i) {
        strides.push_back(s.stride[i]);
        dilates.push_back(s.dilation[i] - 1);
        padBegin.push_back(s.padBegin[i]);
        // The end padding that gives exactly Conv3dSpec's output size (a larger one Paddle was
        // given reaches no extra input).
        const int64_t extent = (s.kernel[i] - 1) * s.dilation[i] + 1;
        padEnd.push_back((s.out[i] - 1) * s.stride[i] + extent - s.in[i] - s.padBegin[i]);
    }
    const auto make = [&](tag layout) {
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
            dnnl::algorithm::convolution_direct, dnnl::memory::desc(src, dt::f32, layout),
            dnnl::memory::desc(weights, dt::f32, tag::any), dnnl::memory::desc(dst, dt::f32, layout), strides,
            dilates, padBegin, padEnd);
        const dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
        rejectReference(pd);
        Conv3dPlan plan;
        plan.primitive = dnnl::convolution_forward(pd);
        plan.src = pd.src_desc();
        plan.weights = pd.weights_desc();
        plan.dst = pd.dst_desc();
        plan.scratchpad = pd.scratchpad_desc();
        plan.userSrc = dnnl::memory::desc(src, dt::f32, act);
        plan.userDst = dnnl::memory::desc(dst, dt::f32, act);
        plan.userWeights = dnnl::memory::desc(weights, dt::f32, grouped ? tag::goidhw : tag::oidhw);
        return plan;
    };
    try {
        return make(act);
    } catch (const dnnl::error &) {
        return make(tag::any);
    }
}

// conv3d, float32 (any other dtype, and shapes oneDNN only has reference loops for, go to the
// plain kernel).
void conv3dKernel(KernelContext &ctx)
{
    if (!isOneDnnFloat(ctx.input(0)) || !isOneDnnFloat(ctx.input(1)) || ctx.input(0).rank() != 5
        || ctx.input(1).rank() != 5) {
        runPlainKernel(ctx);
        return;
    }
    const Conv3dSpec s = Conv3dSpec::forward(ctx, ctx.input(0).shape(), ctx.input(1).shape());
    std::string key = "conv3d|";
    appendKey(key, { s.channelsLast, s.groups, s.batch, s.inChannels, s.outChannels });
    for (size_t i = 0; i < 3; ++i)
        appendKey(key, { s.in[i], s.kernel[i], s.stride[i], s.dilation[i], s.padBegin[i], s.padEnd[i] });
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Conv3dPlan>(key, [&] { return makeConv3dPlan(s); });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    dnnl::memory src = userMemory(plan->userSrc, ctx.input(0));
    if (plan->src != plan->userSrc) {
        dnnl::memory reordered(plan->src, engine.engine());
        engine.reorder(src, reordered);
        src = reordered;
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

} // namespace

void registerOneDnnConv3dKernels(KernelRegistry &registry)
{
    registry.add("pd_op.conv3d", conv3dKernel);
}

} // namespace ps
