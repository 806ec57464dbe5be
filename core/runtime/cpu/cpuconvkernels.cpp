#include "core/runtime/cpu/cpugemm.h"
#include "core/runtime/cpu/cpuim2col.h"
#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/convspec.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <vector>

namespace ps {
namespace {

// Output positions o in [0, outN) with o * stride + offset inside [0, size).
void tapRange(int64_t offset, int64_t stride, int64_t size, int64_t outN, int64_t &begin, int64_t &end)
{
    begin = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
    const int64_t last = size - 1 - offset;
    end = last < 0 ? 0 : last / stride + 1;
    begin = std::min(begin, outN);
    end = std::clamp(end, begin, outN);
}

// One input channel per group (depthwise): a direct tap-by-tap loop, far cheaper than a
// one-row GEMM per channel.
template<class T> void depthwiseForward(const ConvSpec &s, const T *in, const T *filter, T *out)
{
    const int64_t outPlane = s.outH * s.outW, inPlane = s.inH * s.inW;
    const int64_t perGroup = s.outChannelsPerGroup();
    for (int64_t n = 0; n < s.batch; ++n) {
        for (int64_t oc = 0; oc < s.outChannels; ++oc) {
            const T *src = in + (n * s.inChannels + oc / perGroup) * inPlane;
            T *dst = out + (n * s.outChannels + oc) * outPlane;
            std::fill(dst, dst + outPlane, T(0));
            for (int64_t kh = 0; kh < s.kernelH; ++kh) {
                const int64_t offH = kh * s.dilationH - s.padTop;
                int64_t ohBegin, ohEnd;
                tapRange(offH, s.strideH, s.inH, s.outH, ohBegin, ohEnd);
                for (int64_t kw = 0; kw < s.kernelW; ++kw) {
                    const int64_t offW = kw * s.dilationW - s.padLeft;
                    int64_t owBegin, owEnd;
                    tapRange(offW, s.strideW, s.inW, s.outW, owBegin, owEnd);
                    const T w = filter[(oc * s.kernelH + kh) * s.kernelW + kw];
                    for (int64_t oh = ohBegin; oh < ohEnd; ++oh) {
                        const T *row = src + (oh * s.strideH + offH) * s.inW;
                        T *o = dst + oh * s.outW;
                        if (s.strideW == 1) {
                            const T *r = row + owBegin + offW;
                            T *d = o + owBegin;
                            for (int64_t i = 0, cnt = owEnd - owBegin; i < cnt; ++i)
                                d[i] += w * r[i];
                        } else {
                            for (int64_t ow = owBegin; ow < owEnd; ++ow)
                                o[ow] += w * row[ow * s.strideW + offW];
                        }
                    }
                }
            }
        }
    }
}

template<class T> void convForward(const ConvSpec &s, const T *in, const T *filter, T *out)
{
    if (s.inChannelsPerGroup() == 1 && s.groups > 1) {
        depthwiseForward(s, in, filter, out);
        return;
    }
    const Im2colGeometry g = s.groupGeometry();
    const int64_t rows = g.columnRows(), cols = g.columnCols();
    const int64_t cig = s.inChannelsPerGroup(), cog = s.outChannelsPerGroup();
    const bool identity = g.isIdentity();
    // The column matrix is built for a band of output rows at a time (about kTileElements
    // elements), so it stays cache-sized instead of columnRows x outH x outW; a band is the same
    // geometry with fewer output rows and the top padding shifted by the band's first row.
    constexpr int64_t kTileElements = int64_t(1) << 19;
    const int64_t bandRows
        = std::clamp<int64_t>(kTileElements / std::max<int64_t>(rows * g.outW, 1), 1, g.outH);
    std::vector<T> columns(identity ? 0 : static_cast<size_t>(rows * bandRows * g.outW));
    for (int64_t n = 0; n < s.batch; ++n) {
        for (int64_t grp = 0; grp < s.groups; ++grp) {
            const T *image = in + (n * s.inChannels + grp * cig) * s.inH * s.inW;
            const T *w = filter + grp * cog * rows;
            T *o = out + (n * s.outChannels + grp * cog) * cols;
            if (identity) {
                gemm(false, false, cog, cols, rows, T(1), w, rows, image, cols, T(0), o, cols);
                continue;
            }
            for (int64_t oh0 = 0; oh0 < g.outH; oh0 += bandRows) {
                Im2colGeometry band = g;
                band.outH = std::min(bandRows, g.outH - oh0);
                band.padTop = g.padTop - oh0 * g.strideH;
                const int64_t bandCols = band.columnCols();
                im2col(image, band, columns.data());
                gemm(false, false, cog, bandCols, rows, T(1), w, rows, columns.data(), bandCols, T(0),
                    o + oh0 * g.outW, cols);
            }
        }
    }
}

template<class T> void convTransposeForward(const ConvSpec &s, const T *in, const T *filter, T *out)
{
    const Im2colGeometry g = s.groupGeometry();
    const int64_t rows = g.columnRows(), cols = g.columnCols(); // cols == inH * inW
    const int64_t cig = s.inChannelsPerGroup(), cog = s.outChannelsPerGroup();
    const int64_t outPlane = s.outH * s.outW;
    std::fill(out, out + s.batch * s.outChannels * outPlane, T(0));
    std::vector<T> columns(static_cast<size_t>(rows * cols));
    for (int64_t n = 0; n < s.batch; ++n) {
        for (int64_t grp = 0; grp < s.groups; ++grp) {
            const T *x = in + (n * s.inChannels + grp * cig) * cols;
            // columns [cog*kh*kw, inH*inW] = W_g^T [cog*kh*kw, cig] x x_g [cig, inH*inW]
            gemm(true, false, rows, cols, cig, T(1), filter + grp * cig * rows, rows, x, cols, T(0),
                columns.data(), cols);
            col2im(columns.data(), g, out + (n * s.outChannels + grp * cog) * outPlane);
        }
    }
}

// Runs `fn(spec, in, filter, out)` in float or double with NHWC and half-precision handled by
// conversion around it.
template<class Fn>
Tensor runConv(
    const ConvSpec &s, const Tensor &input, const Tensor &filter, const std::string &label, Fn &&fn)
{
    const DataType compute = convComputeType(label, input, filter);
    Tensor in = convertTensor(input, compute);
    const Tensor w = convertTensor(filter, compute);
    if (s.channelsLast)
        in = permuteChannels(in, true);
    ConvSpec nchw = s;
    nchw.channelsLast = false;
    Tensor out = Tensor::empty(nchw.outputShape(), compute);
    if (out.numElements() > 0) {
        if (compute == DataType::Float64)
            fn(nchw, in.data<double>(), w.data<double>(), out.data<double>());
        else
            fn(nchw, in.data<float>(), w.data<float>(), out.data<float>());
    }
    if (s.channelsLast)
        out = permuteChannels(out, false);
    return convertTensor(out, input.dtype());
}

void conv2dKernel(KernelContext &ctx)
{
    const Tensor &input = ctx.input(0);
    const Tensor &filter = ctx.input(1);
    const ConvSpec s = ConvSpec::forward(ctx, input.shape(), filter.shape());
    ctx.setOutput(0,
        runConv(s, input, filter, kernels::shortName(ctx),
            [](const ConvSpec &sp, const auto *in, const auto *w, auto *out) {
                convForward(sp, in, w, out);
            }));
}

void conv2dTransposeKernel(KernelContext &ctx)
{
    const Tensor &input = ctx.input(0);
    const Tensor &filter = ctx.input(1);
    std::vector<int64_t> outputSize;
    if (ctx.hasInput(2))
        outputSize = ctx.inputAsInts(2);
    else
        outputSize = ctx.intsAttr("output_size", std::vector<int64_t> {});
    const ConvSpec s = ConvSpec::transpose(ctx, input.shape(), filter.shape(), outputSize);
    ctx.setOutput(0,
        runConv(s, input, filter, kernels::shortName(ctx),
            [](const ConvSpec &sp, const auto *in, const auto *w, auto *out) {
                convTransposeForward(sp, in, w, out);
            }));
}

} // namespace

void registerCpuConvKernels(KernelRegistry &registry)
{
    registry.add("pd_op.conv2d", conv2dKernel);
    registry.add("pd_op.depthwise_conv2d", conv2dKernel);
    registry.add("pd_op.conv2d_transpose", conv2dTransposeKernel);
    registry.add("pd_op.depthwise_conv2d_transpose", conv2dTransposeKernel);
}

} // namespace ps
