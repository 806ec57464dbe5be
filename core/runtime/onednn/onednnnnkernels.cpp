#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/matmulspec.h"
#include "core/runtime/kernels/poolspec.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/onednn/onednnengine.h"
#include "core/runtime/onednn/onednnkernels.h"
#include "core/runtime/onednn/onednnlayout.h"
#include "core/runtime/onednn/onednnutil.h"

#include <unordered_map>

namespace ps {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

using Plan = OneDnnPlan;

struct FcPlan
{
    OneDnnPlan plan;
    dnnl::memory::desc weights; ///< the layout the primitive reads its weights in
};

struct PoolPlan
{
    OneDnnPlan plan;
    dnnl::memory::desc dst; ///< the primitive's output layout (blocked for a blocked input)
};

// Row-major strides of an operand stored as batch dims + [rows, cols], seen as batch + [m, k]
// (or [k, n]); `transposed` when the stored matrix is the transpose of the one multiplied.
dnnl::memory::desc matrixDesc(const std::vector<int64_t> &batch, int64_t rows, int64_t cols, bool transposed)
{
    const int64_t stored = rows * cols;
    dnnl::memory::dims dims(batch.begin(), batch.end()), strides(batch.size());
    int64_t stride = stored;
    for (size_t i = batch.size(); i-- > 0;) {
        strides[i] = stride;
        stride *= batch[i];
    }
    dims.push_back(rows);
    dims.push_back(cols);
    strides.push_back(transposed ? 1 : cols);
    strides.push_back(transposed ? rows : 1);
    return dnnl::memory::desc(dims, dt::f32, strides);
}

void matmulKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const Tensor &y = ctx.input(1);
    if (!isOneDnnFloat(x) || !isOneDnnFloat(y)) {
        runPlainKernel(ctx);
        return;
    }
    const bool tx = ctx.boolAttr("transpose_x", false), ty = ctx.boolAttr("transpose_y", false);
    const MatmulSpec p = matmulSpec(x.shape(), y.shape(), tx, ty, kernels::shortName(ctx));
    std::string key = "matmul|";
    appendKey(key, p.xDims);
    appendKey(key, p.yDims);
    appendKey(key, { p.m, p.n, p.k, p.tx, p.ty });
    const dnnl::memory::desc src = matrixDesc(p.xDims, p.m, p.k, p.tx);
    const dnnl::memory::desc weights = matrixDesc(p.yDims, p.k, p.n, p.ty);
    std::vector<int64_t> dstDims = p.outBatch;
    dstDims.push_back(p.m);
    dstDims.push_back(p.n);
    const dnnl::memory::desc dst = plainDesc(dstDims);
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        const dnnl::matmul::primitive_desc pd(
            dnnl::matmul::desc(src, weights, dst), userScratchpad(), engine.engine());
        rejectReference(pd);
        return Plan { dnnl::matmul(pd), pd.scratchpad_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    Tensor out = ctx.allocate(p.outShape, DataType::Float32);
    engine.execute(plan->primitive,
        { { DNNL_ARG_SRC, userMemory(src, x) }, { DNNL_ARG_WEIGHTS, userMemory(weights, y) },
            { DNNL_ARG_DST, userMemory(dst, out) } },
        plan->scratchpad);
    ctx.setOutput(0, out);
}

// pool2d where oneDNN's window rule is Paddle's (PoolSpec): max; avg excluding padding; avg
// including it while no window runs past the end padding (Paddle then divides by the clipped
// extent, oneDNN by the kernel size); adaptive only when the output divides the input; avg over
// at most 1024 elements.
void pool2dKernel(KernelContext &ctx)
{
    const Tensor &x = OneDnnLayout::operand(ctx, 0);
    if (!isOneDnnFloat(x) || x.rank() != 4) {
        runPlainKernel(ctx);
        return;
    }
    const std::vector<int64_t> kernel = ctx.hasInput(1)
        ? ctx.inputAsInts(1)
        : ctx.intsAttr("kernel_size", ctx.intsAttr("ksize", std::vector<int64_t> {}));
    const PoolSpec s = PoolSpec::fromContext(ctx, x.shape(), kernel);
    int64_t kh = s.kernelH, kw = s.kernelW, sh = s.strideH, sw = s.strideW, pt = s.padTop, pl = s.padLeft;
    if (s.adaptive) {
        if (s.inH % s.outH != 0 || s.inW % s.outW != 0) {
            runPlainKernel(ctx);
            return;
        }
        kh = sh = s.inH / s.outH;
        kw = sw = s.inW / s.outW;
        pt = pl = 0;
    }
    // oneDNN averages in float: over a window of thousands (a global pool of a large map) its
    // rounding leaves the oracle's double sum by more than the differential mode's 1e-4.
    if (!s.isMax && kh * kw > 1024) {
        runPlainKernel(ctx);
        return;
    }
    const int64_t pb = (s.outH - 1) * sh + kh - s.inH - pt, pr = (s.outW - 1) * sw + kw - s.inW - pl;
    const bool includePadding = !s.isMax && !s.exclusive && !s.adaptive;
    if (includePadding && (pb > pt || pr > pl)) {
        runPlainKernel(ctx);
        return;
    }
    const dnnl::algorithm algorithm = s.isMax ? dnnl::algorithm::pooling_max
        : includePadding                      ? dnnl::algorithm::pooling_avg_include_padding
                                              : dnnl::algorithm::pooling_avg_exclude_padding;
    const tag act = s.channelsLast ? tag::nhwc : tag::nchw;
    // oneDNN's dims are N, C, H, W whatever the tensor's axis order: an NHWC tensor in a blocked
    // layout (a transpose of a convolution's output, relabelled) is described in that order.
    const dnnl::memory::desc src = x.hasLayout()
        ? (s.channelsLast ? OneDnnLayout::descOf(x).permute_axes({ 0, 2, 3, 1 }) : OneDnnLayout::descOf(x))
        : dnnl::memory::desc({ s.batch, s.channels, s.inH, s.inW }, dt::f32, act);
    const dnnl::memory::desc userDst({ s.batch, s.channels, s.outH, s.outW }, dt::f32, act);
    std::string key = "pool|";
    appendKey(key,
        { int64_t(algorithm), s.channelsLast, s.batch, s.channels, s.inH, s.inW, s.outH, s.outW, kh, kw, sh,
            sw, pt, pl });
    key.append(reinterpret_cast<const char *>(&src.data), sizeof(src.data));
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<PoolPlan>(key, [&] {
        // A blocked input pools into the same blocked layout (tag::any picks it).
        const dnnl::memory::desc dst = x.hasLayout()
            ? dnnl::memory::desc({ s.batch, s.channels, s.outH, s.outW }, dt::f32, tag::any)
            : userDst;
        const dnnl::pooling_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src, dst,
            { sh, sw }, { kh, kw }, { pt, pl }, { pb, pr });
        const dnnl::pooling_forward::primitive_desc pd(desc, userScratchpad(), engine.engine());
        rejectReference(pd);
        if (pd.dst_desc() != userDst)
            rejectReference(
                dnnl::reorder::primitive_desc(engine.engine(), pd.dst_desc(), engine.engine(), userDst));
        return PoolPlan { { dnnl::pooling_forward(pd), pd.scratchpad_desc() }, pd.dst_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    Tensor out = ctx.allocate(s.outputShape(), DataType::Float32);
    const bool blockedDst = plan->dst != userDst;
    // One image pooled to 1x1 (a global pool) has the same bytes blocked and NCHW when the
    // channels fill the blocks: written plain as it is, no reorder on either side. Otherwise the
    // output stays blocked when every reader takes it so (a transpose back, a convolution).
    const bool sameBytes = plan->dst.get_size() == out.byteSize();
    const bool globalPool = blockedDst && sameBytes && s.batch == 1 && s.outH * s.outW == 1;
    const bool keepBlocked = blockedDst && sameBytes && !globalPool && ctx.mayKeepLayout();
    if (globalPool || keepBlocked) {
        if (keepBlocked)
            out = out.withLayout(std::make_shared<OneDnnLayout>(
                s.channelsLast ? plan->dst.permute_axes({ 0, 3, 1, 2 }) : plan->dst));
        engine.execute(plan->plan.primitive,
            { { DNNL_ARG_SRC, dnnl::memory(src, engine.engine(), const_cast<void *>(x.layoutData())) },
                { DNNL_ARG_DST, dnnl::memory(plan->dst, engine.engine(), out.layoutData()) } },
            plan->plan.scratchpad);
        ctx.setOutput(0, out);
        return;
    }
    const dnnl::memory srcMemory = x.hasLayout()
        ? dnnl::memory(src, engine.engine(), const_cast<void *>(x.layoutData()))
        : userMemory(src, x);
    const dnnl::memory dstMemory = userMemory(userDst, out);
    const dnnl::memory poolDst = blockedDst ? dnnl::memory(plan->dst, engine.engine()) : dstMemory;
    engine.execute(plan->plan.primitive, { { DNNL_ARG_SRC, srcMemory }, { DNNL_ARG_DST, poolDst } },
        plan->plan.scratchpad);
    if (blockedDst)
        engine.reorder(poolDst, dstMemory);
    ctx.setOutput(0, out);
}

bool channelParam(const KernelContext &ctx, size_t i, int64_t count)
{
    return ctx.hasInput(i) && isOneDnnFloat(ctx.input(i)) && ctx.input(i).numElements() == count;
}

// batch_norm with global statistics (inference): out only; mean_out/variance_out are the running
// statistics as given, saved_mean/saved_variance zeros, as the plain kernel returns them.
void batchNormKernel(KernelContext &ctx)
{
    // A blocked NCHW input (a convolution's, kept) is normalised as it is when the result may
    // keep the layout too; else it is made plain first.
    const Tensor &operand = OneDnnLayout::operand(ctx, 0);
    const bool blocked = operand.hasLayout() && ctx.mayKeepLayout() && operand.rank() == 4
        && !kernels::isChannelsLast(ctx.stringAttr("data_format", std::string("NCHW")))
        && OneDnnLayout::descOf(operand).get_size() == operand.byteSize();
    const Tensor &x = blocked ? operand : ctx.input(0);
    const bool isTest = ctx.boolAttr("is_test", false);
    const bool globalStats
        = (isTest && !ctx.boolAttr("trainable_statistics", false)) || ctx.boolAttr("use_global_stats", false);
    if (!globalStats || !isOneDnnFloat(x) || x.rank() < 2) {
        runPlainKernel(ctx);
        return;
    }
    const ChannelView v = channelView(x.shape(),
        kernels::isChannelsLast(ctx.stringAttr("data_format", std::string("NCHW"))), kernels::shortName(ctx));
    const int64_t c = v.channels;
    if (!channelParam(ctx, 1, c) || !channelParam(ctx, 2, c) || !channelParam(ctx, 3, c)
        || !channelParam(ctx, 4, c)) {
        runPlainKernel(ctx);
        return;
    }
    const float epsilon = float(ctx.floatAttr("epsilon", 1e-5));
    // 4-D: oneDNN's batch norm on 3-D data is its reference implementation.
    const dnnl::memory::desc data = blocked ? OneDnnLayout::descOf(x) : plainDesc({ v.outer, c, v.inner, 1 });
    const dnnl::memory::desc stat = plainDesc({ c });
    std::string key = "bnorm|";
    appendKey(key, { v.outer, c, v.inner });
    appendKey(key, double(epsilon));
    key.append(reinterpret_cast<const char *>(&data.data), sizeof(data.data));
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        const dnnl::batch_normalization_forward::desc desc(dnnl::prop_kind::forward_inference, data, epsilon,
            dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale
                | dnnl::normalization_flags::use_shift);
        const dnnl::batch_normalization_forward::primitive_desc pd(desc, userScratchpad(), engine.engine());
        rejectReference(pd);
        return Plan { dnnl::batch_normalization_forward(pd), pd.scratchpad_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    Tensor out = ctx.allocate(x.shape(), DataType::Float32);
    if (blocked)
        out = out.withLayout(x.layout());
    const dnnl::memory src = blocked ? dnnl::memory(data, engine.engine(), const_cast<void *>(x.layoutData()))
                                     : userMemory(data, x);
    const dnnl::memory dst
        = blocked ? dnnl::memory(data, engine.engine(), out.layoutData()) : userMemory(data, out);
    engine.execute(plan->primitive,
        { { DNNL_ARG_SRC, src }, { DNNL_ARG_DST, dst }, { DNNL_ARG_MEAN, userMemory(stat, ctx.input(1)) },
            { DNNL_ARG_VARIANCE, userMemory(stat, ctx.input(2)) },
            { DNNL_ARG_SCALE, userMemory(stat, ctx.input(3)) },
            { DNNL_ARG_SHIFT, userMemory(stat, ctx.input(4)) } },
        plan->scratchpad);
    ctx.setOutput(0, out);
    if (ctx.numOutputs() > 1)
        ctx.setOutput(1, ctx.input(1));
    if (ctx.numOutputs() > 2)
        ctx.setOutput(2, ctx.input(2));
    for (size_t i = 3; i < 5 && i < ctx.numOutputs(); ++i)
        ctx.setOutput(i, Tensor::zeros({ c }, ctx.input(1).dtype()));
    if (ctx.numOutputs() > 5)
        ctx.setOutput(5, Tensor::empty({ 0 }, DataType::UInt8));
}

void layerNormKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const int64_t begin = ctx.intAttr("begin_norm_axis", 1);
    if (!isOneDnnFloat(x) || begin < 1 || begin >= int64_t(x.rank())) {
        runPlainKernel(ctx);
        return;
    }
    const std::vector<int64_t> lead(x.shape().begin(), x.shape().begin() + begin);
    const int64_t rows = numElementsOf(lead), cols = x.numElements() / rows;
    const bool scale = ctx.hasInput(1), shift = ctx.hasInput(2);
    if ((scale && !channelParam(ctx, 1, cols)) || (shift && !channelParam(ctx, 2, cols))) {
        runPlainKernel(ctx);
        return;
    }
    const float epsilon = float(ctx.floatAttr("epsilon", 1e-5));
    const dnnl::memory::desc data = plainDesc({ rows, cols });
    const dnnl::memory::desc stat = plainDesc({ rows });
    const dnnl::memory::desc param = plainDesc({ cols });
    std::string key = "lnorm|";
    appendKey(key, { rows, cols, scale, shift });
    appendKey(key, double(epsilon));
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        dnnl::normalization_flags flags = dnnl::normalization_flags::none;
        if (scale)
            flags |= dnnl::normalization_flags::use_scale;
        if (shift)
            flags |= dnnl::normalization_flags::use_shift;
        // forward_training: the mean and variance are results of the op.
        const dnnl::layer_normalization_forward::desc desc(
            dnnl::prop_kind::forward_training, data, stat, epsilon, flags);
        const dnnl::layer_normalization_forward::primitive_desc pd(desc, userScratchpad(), engine.engine());
        rejectReference(pd);
        return Plan { dnnl::layer_normalization_forward(pd), pd.scratchpad_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    Tensor out = ctx.allocate(x.shape(), DataType::Float32);
    Tensor mean = ctx.allocate(lead, DataType::Float32), variance = ctx.allocate(lead, DataType::Float32);
    std::unordered_map<int, dnnl::memory> args { { DNNL_ARG_SRC, userMemory(data, x) },
        { DNNL_ARG_DST, userMemory(data, out) }, { DNNL_ARG_MEAN, userMemory(stat, mean) },
        { DNNL_ARG_VARIANCE, userMemory(stat, variance) } };
    if (scale)
        args.emplace(DNNL_ARG_SCALE, userMemory(param, ctx.input(1)));
    if (shift)
        args.emplace(DNNL_ARG_SHIFT, userMemory(param, ctx.input(2)));
    engine.execute(plan->primitive, std::move(args), plan->scratchpad);
    ctx.setOutput(0, out);
    if (ctx.numOutputs() > 1)
        ctx.setOutput(1, mean);
    if (ctx.numOutputs() > 2)
        ctx.setOutput(2, variance);
}

void softmaxKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    if (!isOneDnnFloat(x)) {
        runPlainKernel(ctx);
        return;
    }
    const AxisSplit s
        = kernels::splitAtAxisChecked(x.shape(), ctx.intAttr("axis", -1), kernels::shortName(ctx));
    const dnnl::memory::desc data = plainDesc({ s.outer, s.size, s.inner });
    std::string key = "softmax|";
    appendKey(key, { s.outer, s.size, s.inner });
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        const dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, data, 1);
        const dnnl::softmax_forward::primitive_desc pd(desc, userScratchpad(), engine.engine());
        rejectReference(pd);
        return Plan { dnnl::softmax_forward(pd), pd.scratchpad_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    Tensor out = ctx.allocate(x.shape(), DataType::Float32);
    engine.execute(plan->primitive,
        { { DNNL_ARG_SRC, userMemory(data, x) }, { DNNL_ARG_DST, userMemory(data, out) } }, plan->scratchpad);
    ctx.setOutput(0, out);
}

// transpose as a oneDNN reorder (its jit kernel; the plain kernel gathers element by element):
// the output's bytes described in the input's axis order, each axis with the output's stride of
// the place `perm` moves it to. The input may come in a convolution's blocked layout (one
// reorder then, not two).
void transposeKernel(KernelContext &ctx)
{
    const Tensor &x = OneDnnLayout::operand(ctx, 0);
    std::vector<int64_t> perm = ctx.intsAttr("perm", std::vector<int64_t> {});
    const int64_t rank = int64_t(x.rank());
    std::vector<bool> seen(size_t(rank), false);
    bool valid = isOneDnnFloat(x) && rank >= 2 && rank <= 6 && int64_t(perm.size()) == rank;
    for (size_t j = 0; valid && j < perm.size(); ++j) {
        if (perm[j] < 0)
            perm[j] += rank;
        valid = perm[j] >= 0 && perm[j] < rank && !seen[size_t(perm[j])];
        if (valid)
            seen[size_t(perm[j])] = true;
    }
    if (!valid) {
        runPlainKernel(ctx); // its error names a bad perm
        return;
    }
    std::vector<int64_t> outShape(static_cast<size_t>(rank), 0);
    for (size_t j = 0; j < outShape.size(); ++j)
        outShape[j] = x.dim(size_t(perm[j]));
    // A blocked input whose readers all take a blocked layout moves no bytes: the result is the
    // same storage with the layout's axes relabelled (the NCHW <-> NHWC transposes
    // transfer_layout_pass puts around a max pool cost two reorders otherwise).
    if (x.hasLayout() && ctx.mayKeepLayout()) {
        std::vector<int> axes(perm.size()); // oneDNN's: input axis i becomes output axis axes[i]
        for (size_t j = 0; j < perm.size(); ++j)
            axes[size_t(perm[j])] = int(j);
        const dnnl::memory::desc relabelled = OneDnnLayout::descOf(x).permute_axes(axes);
        ctx.setOutput(0,
            Tensor(x.storage(), outShape, DataType::Float32, x.byteOffset())
                .withLayout(std::make_shared<OneDnnLayout>(relabelled)));
        return;
    }
    dnnl::memory::dims strides(static_cast<size_t>(rank), 0);
    for (int64_t j = rank, stride = 1; j-- > 0;) {
        strides[size_t(perm[size_t(j)])] = stride;
        stride *= outShape[size_t(j)];
    }
    const dnnl::memory::desc src = OneDnnLayout::descOf(x);
    const dnnl::memory::desc dst(dnnlDims(x.shape()), dt::f32, strides);
    std::string key = "transpose|";
    appendKey(key, x.shape());
    appendKey(key, perm);
    key.append(reinterpret_cast<const char *>(&src.data), sizeof(src.data));
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<Plan>(key, [&] {
        const dnnl::reorder::primitive_desc pd(engine.engine(), src, engine.engine(), dst, userScratchpad());
        rejectReference(pd);
        return Plan { dnnl::reorder(pd), pd.scratchpad_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    Tensor out = ctx.allocate(outShape, DataType::Float32);
    engine.execute(plan->primitive,
        { { DNNL_ARG_FROM, OneDnnLayout::memoryOf(x) }, { DNNL_ARG_TO, userMemory(dst, out) } },
        plan->scratchpad);
    ctx.setOutput(0, out);
}

// onednn_op.fc as one oneDNN inner product (Paddle's oneDNN fc kernel): x flattened to
// [rows, K] at in_num_col_dims, the weights [K, N] (reordered once per content into the layout
// the primitive wants), the bias [N], activation_type, fuse_activation and fused_output_scale as
// post-ops. Fused shape changes, padded weights and quantizing scales go to the reference kernel.
void oneDnnFcKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const Tensor &w = ctx.input(1);
    const int64_t colDims = ctx.intAttr("in_num_col_dims", 1);
    const std::string activationType = ctx.stringAttr("activation_type", "");
    const double factor = ctx.floatAttr("fused_output_scale", 1.0);
    std::vector<OneDnnEltwise> post;
    if (activationType == "relu")
        post.push_back({ dnnl::algorithm::eltwise_relu });
    std::vector<OneDnnEltwise> fused;
    const bool plainCase = !isOneDnnFloat(x) || !isOneDnnFloat(w) || w.rank() != 2 || colDims < 1
        || colDims >= int64_t(x.rank()) || (!activationType.empty() && activationType != "relu")
        || ctx.boolAttr("padding_weights", false) || ctx.floatAttr("scale_in", 1.0) != 1.0
        || ctx.floatAttr("scale_out", 1.0) != 1.0
        || !ctx.intsAttr("fused_reshape2_shape", std::vector<int64_t> {}).empty()
        || !ctx.intsAttr("fused_unsqueeze2_axes", std::vector<int64_t> {}).empty()
        || !oneDnnFusedActivation(ctx.stringAttr("fuse_activation", ""),
            float(ctx.floatAttr("fuse_alpha", 0.0)), float(ctx.floatAttr("fuse_beta", 0.0)), fused);
    int64_t rows = 1, k = 1;
    for (size_t i = 0; !plainCase && i < x.rank(); ++i)
        (int64_t(i) < colDims ? rows : k) *= x.dim(i);
    const int64_t n = plainCase ? 0 : w.dim(1);
    const bool bias = ctx.hasInput(2);
    if (plainCase || k != w.dim(0)
        || (bias && (!isOneDnnFloat(ctx.input(2)) || ctx.input(2).numElements() != n))) {
        runPlainKernel(ctx);
        return;
    }
    post.insert(post.end(), fused.begin(), fused.end());
    if (factor != 1.0)
        post.push_back({ dnnl::algorithm::eltwise_linear, float(factor), 0.0f });
    std::string key = "fc|";
    appendKey(key, { rows, k, n, bias });
    for (const OneDnnEltwise &e : post) {
        appendKey(key, { int64_t(e.algorithm) });
        appendKey(key, double(e.alpha));
        appendKey(key, double(e.beta));
    }
    const dnnl::memory::desc src = plainDesc({ rows, k }), dst = plainDesc({ rows, n });
    // oneDNN's weights are [N, K]; Paddle's [K, N] row-major is their transpose (io).
    const dnnl::memory::desc userWeights({ n, k }, dt::f32, tag::io);
    OneDnnEngine &engine = OneDnnEngine::instance();
    const auto plan = engine.plan<FcPlan>(key, [&] {
        dnnl::primitive_attr attr = userScratchpad();
        dnnl::post_ops postOps;
        for (const OneDnnEltwise &e : post)
            postOps.append_eltwise(1.0f, e.algorithm, e.alpha, e.beta);
        attr.set_post_ops(postOps);
        const dnnl::memory::desc anyWeights({ n, k }, dt::f32, tag::any);
        const dnnl::inner_product_forward::desc desc = bias
            ? dnnl::inner_product_forward::desc(
                dnnl::prop_kind::forward_inference, src, anyWeights, plainDesc({ n }), dst)
            : dnnl::inner_product_forward::desc(dnnl::prop_kind::forward_inference, src, anyWeights, dst);
        const dnnl::inner_product_forward::primitive_desc pd(desc, attr, engine.engine());
        rejectReference(pd);
        if (pd.weights_desc() != userWeights)
            rejectReference(dnnl::reorder::primitive_desc(
                engine.engine(), userWeights, engine.engine(), pd.weights_desc()));
        return FcPlan { { dnnl::inner_product_forward(pd), pd.scratchpad_desc() }, pd.weights_desc() };
    });
    if (!plan) {
        runPlainKernel(ctx);
        return;
    }
    std::vector<int64_t> outShape(x.shape().begin(), x.shape().begin() + colDims);
    outShape.push_back(n);
    Tensor out = ctx.allocate(outShape, DataType::Float32);
    std::unordered_map<int, dnnl::memory> args { { DNNL_ARG_SRC, userMemory(src, x) },
        { DNNL_ARG_WEIGHTS, engine.weights(w, userWeights, plan->weights) },
        { DNNL_ARG_DST, userMemory(dst, out) } };
    if (bias)
        args.emplace(DNNL_ARG_BIAS, userMemory(plainDesc({ n }), ctx.input(2)));
    engine.execute(plan->plan.primitive, std::move(args), plan->plan.scratchpad);
    ctx.setOutput(0, out);
}

} // namespace

void registerOneDnnNnKernels(KernelRegistry &registry)
{
    registry.add("pd_op.matmul", matmulKernel);
    registry.add("pd_op.pool2d", pool2dKernel);
    registry.add("pd_op.batch_norm", batchNormKernel);
    registry.add("pd_op.batch_norm_", batchNormKernel);
    registry.add("pd_op.layer_norm", layerNormKernel);
    registry.add("pd_op.softmax", softmaxKernel);
    registry.add("pd_op.transpose", transposeKernel);
    registry.add("onednn_op.fc", oneDnnFcKernel);
    registry.acceptLayout("pd_op.transpose", 0);
    registry.acceptLayout("pd_op.pool2d", 0);
    registry.acceptLayout("pd_op.batch_norm", 0);
    registry.acceptLayout("pd_op.batch_norm_", 0);
}

} // namespace ps
