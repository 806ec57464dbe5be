// conv2d, depthwise_conv2d, conv2d_transpose and the conv2d / depthwise_conv2d grads. The
// attribute handling is the CPU oracle's own ConvSpec (paddings, SAME/VALID, groups, NHWC);
// NHWC tensors are permuted to NCHW around the NCHW kernels. A convolution is im2col + one
// cuBLAS GEMM per image (batched over groups, or over images when there is one group); the
// column matrix is built for a chunk of images at a time so it stays bounded. One input channel
// per group (depthwise) runs a direct kernel. col2im is a gather (each pixel sums its taps in
// the CPU's order), so results are deterministic.

#include "core/runtime/kernels/convspec.h"
#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"

#include <algorithm>
#include <cstdlib>

PS_CUDA_NAMESPACE_BEGIN
namespace {

using namespace cuda;
using namespace kernels;

/// Column-matrix elements built at once (bounds the scratch memory): 64 Mi, or
/// PIRSCOPE_CUDA_COLUMN_BUDGET (tests reach the chunked path with small images).
int64_t columnBudget()
{
    static const int64_t budget = [] {
        const char *v = std::getenv("PIRSCOPE_CUDA_COLUMN_BUDGET");
        return v && std::atoll(v) > 0 ? int64_t(std::atoll(v)) : int64_t(64) << 20;
    }();
    return budget;
}

/// columns[n][(c * kH + kh) * kW + kw][oh * outW + ow] = image n at the tap, 0 outside.
template<class T>
__global__ void __launch_bounds__(kBlock)
    im2colKernel(const T *images, int64_t imageStride, int64_t count, Im2colGeometry g, T *columns)
{
    const int64_t cols = g.outH * g.outW, taps = g.kernelH * g.kernelW, rows = g.channels * taps;
    const int64_t n = count * rows * cols;
    for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += int64_t(gridDim.x) * blockDim.x) {
        const int64_t img = idx / (rows * cols), rem = idx - img * rows * cols;
        const int64_t r = rem / cols, col = rem - r * cols;
        const int64_t c = r / taps, tap = r - c * taps, kh = tap / g.kernelW, kw = tap - kh * g.kernelW;
        const int64_t oh = col / g.outW, ow = col - oh * g.outW;
        const int64_t ih = oh * g.strideH - g.padTop + kh * g.dilationH;
        const int64_t iw = ow * g.strideW - g.padLeft + kw * g.dilationW;
        const bool inside = ih >= 0 && ih < g.height && iw >= 0 && iw < g.width;
        columns[idx] = inside ? images[img * imageStride + (c * g.height + ih) * g.width + iw] : T(0);
    }
}

/// images[n][c][ih][iw] = sum of the column elements read from that pixel (the adjoint of
/// im2col), taps in (kh, kw) order.
template<class T>
__global__ void __launch_bounds__(kBlock)
    col2imKernel(const T *columns, int64_t count, Im2colGeometry g, T *images, int64_t imageStride)
{
    const int64_t cols = g.outH * g.outW, taps = g.kernelH * g.kernelW, plane = g.height * g.width;
    const int64_t n = count * g.channels * plane;
    for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += int64_t(gridDim.x) * blockDim.x) {
        const int64_t img = idx / (g.channels * plane), rem = idx - img * g.channels * plane;
        const int64_t c = rem / plane, pix = rem - c * plane, ih = pix / g.width, iw = pix - ih * g.width;
        const T *col = columns + (img * g.channels + c) * taps * cols;
        ComputeOf<T> sum = 0;
        for (int64_t kh = 0; kh < g.kernelH; ++kh) {
            const int64_t hs = ih + g.padTop - kh * g.dilationH;
            if (hs < 0 || hs % g.strideH != 0 || hs / g.strideH >= g.outH)
                continue;
            const int64_t oh = hs / g.strideH;
            for (int64_t kw = 0; kw < g.kernelW; ++kw) {
                const int64_t ws = iw + g.padLeft - kw * g.dilationW;
                if (ws < 0 || ws % g.strideW != 0 || ws / g.strideW >= g.outW)
                    continue;
                sum += loadElement(col[(kh * g.kernelW + kw) * cols + oh * g.outW + ws / g.strideW]);
            }
        }
        images[img * imageStride + rem] = storeElement<T>(sum);
    }
}

/// One thread per output of a depthwise convolution (one input channel per group), taps in the
/// CPU's (kh, kw) order.
template<class T>
__global__ void __launch_bounds__(kBlock) depthwiseKernel(const T *in, const T *filter, T *out, ConvSpec s)
{
    const int64_t outPlane = s.outH * s.outW, perGroup = s.outChannels / s.groups;
    const int64_t n = s.batch * s.outChannels * outPlane;
    for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += int64_t(gridDim.x) * blockDim.x) {
        const int64_t nc = idx / outPlane, pix = idx - nc * outPlane, b = nc / s.outChannels,
                      oc = nc - b * s.outChannels;
        const int64_t oh = pix / s.outW, ow = pix - oh * s.outW;
        const T *src = in + (b * s.inChannels + oc / perGroup) * s.inH * s.inW;
        const T *w = filter + oc * s.kernelH * s.kernelW;
        ComputeOf<T> acc = 0;
        for (int64_t kh = 0; kh < s.kernelH; ++kh) {
            const int64_t ih = oh * s.strideH - s.padTop + kh * s.dilationH;
            if (ih < 0 || ih >= s.inH)
                continue;
            for (int64_t kw = 0; kw < s.kernelW; ++kw) {
                const int64_t iw = ow * s.strideW - s.padLeft + kw * s.dilationW;
                if (iw >= 0 && iw < s.inW)
                    acc += loadElement(w[kh * s.kernelW + kw]) * loadElement(src[ih * s.inW + iw]);
            }
        }
        out[idx] = storeElement<T>(acc);
    }
}

template<class T>
void im2col(const CudaRuntime &rt, const T *images, int64_t imageStride, int64_t count,
    const Im2colGeometry &g, T *columns)
{
    const int64_t n = count * g.columnRows() * g.columnCols();
    if (n == 0)
        return;
    launchIndependent(&im2colKernel<T>, rt.gridFor(n), kBlock, 0, rt.stream, images, imageStride, count, g, columns);
    checkLaunch("im2col");
}

template<class T>
void col2im(const CudaRuntime &rt, const T *columns, int64_t count, const Im2colGeometry &g, T *images,
    int64_t imageStride)
{
    const int64_t n = count * g.channels * g.height * g.width;
    if (n == 0)
        return;
    launchIndependent(&col2imKernel<T>, rt.gridFor(n), kBlock, 0, rt.stream, columns, count, g, images, imageStride);
    checkLaunch("col2im");
}

/// NHWC <-> NCHW copies of a 4-D tensor.
Tensor toChannelsFirst(CudaRuntime &rt, const Tensor &t)
{
    return permute(rt, t, { 0, 3, 1, 2 });
}
Tensor toChannelsLast(CudaRuntime &rt, const Tensor &t)
{
    return permute(rt, t, { 0, 2, 3, 1 });
}

void requireConvTypes(const Tensor &input, const Tensor &filter, const std::string &label)
{
    if (input.dtype() != filter.dtype())
        throw RuntimeError(label + ": input " + input.describe() + " and filter " + filter.describe()
            + " have different dtypes");
    if (!isFloatingType(input.dtype()))
        throw RuntimeError(label + ": expects a floating-point input, got " + input.describe());
}

/// The all-channel geometry of one image (groups stacked: group g's rows are contiguous).
Im2colGeometry imageGeometry(const ConvSpec &s)
{
    Im2colGeometry g = s.groupGeometry();
    g.channels = s.transposed ? s.outChannels : s.inChannels;
    return g;
}

int64_t chunkImages(const ConvSpec &s, int64_t columnElementsPerImage)
{
    return std::clamp<int64_t>(
        columnBudget() / std::max<int64_t>(columnElementsPerImage, 1), 1, std::max<int64_t>(s.batch, 1));
}

template<class T>
void convForward(CudaRuntime &rt, const ConvSpec &s, const Tensor &in, const Tensor &filter, Tensor &out)
{
    const DataType dtype = in.dtype();
    const T *px = static_cast<const T *>(in.rawData());
    const T *pw = static_cast<const T *>(filter.rawData());
    T *po = static_cast<T *>(out.rawData());
    if (s.inChannelsPerGroup() == 1 && s.groups > 1) {
        launchIndependent(&depthwiseKernel<T>, rt.gridFor(out.numElements()), kBlock, 0, rt.stream, px, pw, po, s);
        checkLaunch("depthwise_conv2d");
        return;
    }
    const Im2colGeometry gg = s.groupGeometry(), all = imageGeometry(s);
    const int64_t rows = gg.columnRows(), cols = gg.columnCols(), cog = s.outChannelsPerGroup();
    const int64_t imageIn = s.inChannels * s.inH * s.inW, imageOut = s.outChannels * cols;
    const int64_t imageCols = all.columnRows() * cols; // == imageIn for an identity geometry
    const bool identity = gg.isIdentity();
    const int64_t chunk = identity ? s.batch : chunkImages(s, imageCols);
    Tensor columns = identity ? Tensor() : rt.allocate({ chunk * imageCols }, dtype);
    for (int64_t n0 = 0; n0 < s.batch; n0 += chunk) {
        const int64_t nb = std::min(chunk, s.batch - n0);
        const T *B = px + n0 * imageIn;
        if (!identity) {
            im2col(rt, B, imageIn, nb, all, static_cast<T *>(columns.rawData()));
            B = static_cast<const T *>(columns.rawData());
        }
        if (s.groups == 1) {
            gemm(rt, dtype, false, false, s.outChannels, cols, rows, pw, 0, B, imageCols, po + n0 * imageOut,
                imageOut, nb);
            continue;
        }
        for (int64_t i = 0; i < nb; ++i)
            gemm(rt, dtype, false, false, cog, cols, rows, pw, cog * rows, B + i * imageCols, rows * cols,
                po + (n0 + i) * imageOut, cog * cols, s.groups);
    }
}

/// conv2d_transpose: per image and group columns = W_g^T x_g, then col2im into the output.
template<class T>
void convTransposeForward(
    CudaRuntime &rt, const ConvSpec &s, const Tensor &in, const Tensor &filter, Tensor &out)
{
    const DataType dtype = in.dtype();
    const Im2colGeometry gg = s.groupGeometry(), all = imageGeometry(s);
    const int64_t rows = gg.columnRows(), cols = gg.columnCols(), cig = s.inChannelsPerGroup();
    const int64_t imageIn = s.inChannels * cols, imageOut = s.outChannels * s.outH * s.outW;
    const int64_t imageCols = all.columnRows() * cols;
    const int64_t chunk = chunkImages(s, imageCols);
    Tensor columns = rt.allocate({ chunk * imageCols }, dtype);
    T *pc = static_cast<T *>(columns.rawData());
    const T *px = static_cast<const T *>(in.rawData());
    const T *pw = static_cast<const T *>(filter.rawData());
    for (int64_t n0 = 0; n0 < s.batch; n0 += chunk) {
        const int64_t nb = std::min(chunk, s.batch - n0);
        for (int64_t i = 0; i < nb; ++i)
            gemm(rt, dtype, true, false, rows, cols, cig, pw, cig * rows, px + (n0 + i) * imageIn, cig * cols,
                pc + i * imageCols, rows * cols, s.groups);
        col2im(rt, static_cast<const T *>(pc), nb, all, static_cast<T *>(out.rawData()) + n0 * imageOut,
            imageOut);
    }
}

void conv2dOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::string label = shortName(ctx);
    const Tensor input = deviceInput(ctx, 0), filter = deviceInput(ctx, 1);
    const bool transposed = ctx.opName().find("transpose") != std::string_view::npos;
    ConvSpec s;
    if (transposed) {
        const std::vector<int64_t> outputSize
            = ctx.hasInput(2) ? ctx.inputAsInts(2) : ctx.intsAttr("output_size", std::vector<int64_t> {});
        s = ConvSpec::transpose(ctx, input.shape(), filter.shape(), outputSize);
    } else {
        s = ConvSpec::forward(ctx, input.shape(), filter.shape());
    }
    requireConvTypes(input, filter, label);
    const bool nhwc = s.channelsLast;
    const Tensor in = nhwc ? toChannelsFirst(rt, input) : input;
    s.channelsLast = false;
    Tensor out = ctx.allocate(s.outputShape(), input.dtype());
    if (out.numElements() > 0)
        cuda::dispatchFloating(input.dtype(), label.c_str(), [&](auto tag) {
            using T = decltype(tag);
            if (transposed)
                convTransposeForward<T>(rt, s, in, filter, out);
            else
                convForward<T>(rt, s, in, filter, out);
        });
    ctx.setOutput(0, nhwc ? toChannelsLast(rt, out) : out);
}

/// input_grad = col2im(W^T dOut) and filter_grad = sum over images of dOut col^T, per group.
template<class T>
void convBackward(CudaRuntime &rt, const ConvSpec &s, const Tensor &in, const Tensor &filter, const Tensor &g,
    Tensor *dx, Tensor *dw)
{
    const DataType dtype = in.dtype();
    const Im2colGeometry gg = s.groupGeometry(), all = imageGeometry(s);
    const int64_t rows = gg.columnRows(), cols = gg.columnCols(), cog = s.outChannelsPerGroup();
    const int64_t imageIn = s.inChannels * s.inH * s.inW, imageOut = s.outChannels * cols;
    const int64_t imageCols = all.columnRows() * cols;
    const int64_t chunk = chunkImages(s, imageCols);
    Tensor columns = rt.allocate({ chunk * imageCols }, dtype);
    T *pc = static_cast<T *>(columns.rawData());
    const T *px = static_cast<const T *>(in.rawData());
    const T *pw = static_cast<const T *>(filter.rawData());
    const T *pg = static_cast<const T *>(g.rawData());
    // The filter gradient sums over every image: float16/bfloat16 accumulate in float32 and round
    // once at the end.
    const bool wide = kIsFloatingElement<T> && ElementTraits<T>::kHalf;
    Tensor dwAcc = dw && wide ? rt.allocate(dw->shape(), DataType::Float32) : Tensor();
    Tensor *dwSum = wide ? &dwAcc : dw;
    if (dw && s.batch == 0)
        fill(rt, *dwSum, 0.0);
    for (int64_t n0 = 0; n0 < s.batch; n0 += chunk) {
        const int64_t nb = std::min(chunk, s.batch - n0);
        if (dw) {
            im2col(rt, px + n0 * imageIn, imageIn, nb, all, pc);
            for (int64_t i = 0; i < nb; ++i)
                gemm(rt, dtype, false, true, cog, rows, cols, pg + (n0 + i) * imageOut, cog * cols,
                    pc + i * imageCols, rows * cols, dwSum->rawData(), cog * rows, s.groups, 1.0,
                    n0 + i == 0 ? 0.0 : 1.0, dwSum->dtype());
        }
        if (dx) {
            if (s.groups == 1)
                gemm(rt, dtype, true, false, rows, cols, s.outChannels, pw, 0, pg + n0 * imageOut, imageOut,
                    pc, imageCols, nb);
            else
                for (int64_t i = 0; i < nb; ++i)
                    gemm(rt, dtype, true, false, rows, cols, cog, pw, cog * rows, pg + (n0 + i) * imageOut,
                        cog * cols, pc + i * imageCols, rows * cols, s.groups);
            col2im(rt, static_cast<const T *>(pc), nb, all, static_cast<T *>(dx->rawData()) + n0 * imageIn,
                imageIn);
        }
    }
    if (dw && wide)
        castInto(rt, dwAcc, *dw);
}

void conv2dGradOp(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::string label = shortName(ctx);
    const Tensor input = deviceInput(ctx, 0), filter = deviceInput(ctx, 1), outGrad = deviceInput(ctx, 2);
    ConvSpec s = ConvSpec::forward(ctx, input.shape(), filter.shape());
    requireConvTypes(input, filter, label);
    if (outGrad.shape() != s.outputShape() || outGrad.dtype() != input.dtype())
        throw RuntimeError(label + ": out_grad " + outGrad.describe() + " does not match the output "
            + shapeText(s.outputShape()) + " of input " + input.describe());
    const bool nhwc = s.channelsLast;
    const Tensor in = nhwc ? toChannelsFirst(rt, input) : input;
    const Tensor g = nhwc ? toChannelsFirst(rt, outGrad) : outGrad;
    s.channelsLast = false;
    const bool wantX = wanted(ctx, 0), wantW = wanted(ctx, 1);
    Tensor dx = wantX ? rt.allocate(s.inputShape(), input.dtype()) : Tensor();
    Tensor dw = wantW ? rt.allocate(filter.shape(), filter.dtype()) : Tensor();
    cuda::dispatchFloating(input.dtype(), label.c_str(), [&](auto tag) {
        convBackward<decltype(tag)>(rt, s, in, filter, g, wantX ? &dx : nullptr, wantW ? &dw : nullptr);
    });
    if (wantX)
        ctx.setOutput(0, nhwc ? toChannelsLast(rt, dx) : dx);
    if (wantW)
        ctx.setOutput(1, dw);
}

} // namespace

void registerCudaConvKernels(KernelRegistry &registry)
{
    registry.add("pd_op.conv2d", &conv2dOp);
    registry.add("pd_op.depthwise_conv2d", &conv2dOp);
    registry.add("pd_op.conv2d_transpose", &conv2dOp);
    registry.add("pd_op.depthwise_conv2d_transpose", &conv2dOp);
    registry.add("pd_op.conv2d_grad", &conv2dGradOp);
    registry.add("pd_op.depthwise_conv2d_grad", &conv2dGradOp);
}

PS_CUDA_NAMESPACE_END
