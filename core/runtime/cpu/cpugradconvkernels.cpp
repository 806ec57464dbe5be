#include "core/runtime/kernels/convspec.h"
#include "core/runtime/cpu/cpugemm.h"
#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/cpu/cpuim2col.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>

namespace ps {
namespace {

using namespace cpugrad;

/// Checks that out_grad has the output shape the spec infers from the attributes.
void checkOutGrad(const ConvSpec &spec, const Tensor &grad, const char *what)
{
    if (grad.shape() != spec.outputShape())
        throw RuntimeError(std::string(what) + ": out_grad " + grad.describe() + " is not the output shape "
            + shapeText(spec.outputShape()));
}

/// conv2d_grad / depthwise_conv2d_grad (input, filter, out_grad): per image and group, with
/// columns = im2col(input_g), filter_grad_g += out_grad_g columns^T and
/// input_grad_g = col2im(W_g^T out_grad_g).
void convGrad(KernelContext &ctx)
{
    const char *what = "conv2d_grad";
    const Tensor &input = ctx.input(0), &filter = ctx.input(1), &grad = ctx.input(2);
    requireFloating(grad, what);
    const ConvSpec spec = ConvSpec::forward(ctx, input.shape(), filter.shape());
    checkOutGrad(spec, grad, what);
    const bool nhwc = spec.channelsLast;
    const Nchw x = nchwOf(input, nhwc, what), dout = nchwOf(grad, nhwc, what);
    const Im2colGeometry geo = spec.groupGeometry();
    const int64_t groups = spec.groups, icg = spec.inChannelsPerGroup(), ocg = spec.outChannelsPerGroup();
    const int64_t ck = geo.columnRows(), ohw = geo.columnCols(), oc = spec.outChannels, hw = x.h * x.w;
    const std::vector<double> wv = values(filter);
    const bool wantX = wanted(ctx, 0), wantW = wanted(ctx, 1);
    std::vector<double> dw(wantW ? wv.size() : 0, 0.0), col(size_t(ck * ohw));
    Nchw dx = x;
    std::fill(dx.v.begin(), dx.v.end(), 0.0);
    for (int64_t b = 0; b < x.n; ++b)
        for (int64_t gr = 0; gr < groups; ++gr) {
            const double *dOut = dout.v.data() + (b * oc + gr * ocg) * ohw;
            if (wantW) {
                ps::im2col(x.v.data() + (b * x.c + gr * icg) * hw, geo, col.data());
                ps::gemm(false, true, ocg, ck, ohw, 1.0, dOut, ohw, col.data(), ohw, 1.0,
                    dw.data() + gr * ocg * ck, ck);
            }
            if (wantX) {
                ps::gemm(true, false, ck, ohw, ocg, 1.0, wv.data() + gr * ocg * ck, ck, dOut, ohw, 0.0,
                    col.data(), ohw);
                ps::col2im(col.data(), geo, dx.v.data() + (b * x.c + gr * icg) * hw);
            }
        }
    if (wantX)
        ctx.setOutput(0, storeNchw(ctx, input, nhwc, dx));
    if (wantW)
        ctx.setOutput(1, makeTensor(ctx, filter.shape(), filter.dtype(), dw));
}

/// conv2d_transpose_grad (x, filter, out_grad[, output_size]): filter [ic, oc/groups, kh, kw]. The
/// forward scatters W_g^T x_g through col2im onto the output, so with columns = im2col(out_grad_g):
/// x_grad_g = W_g columns and filter_grad_g += x_g columns^T.
void convTransposeGrad(KernelContext &ctx)
{
    const char *what = "conv2d_transpose_grad";
    const Tensor &input = ctx.input(0), &filter = ctx.input(1), &grad = ctx.input(2);
    requireFloating(grad, what);
    const Shape outputSize = ctx.hasInput(3) ? ctx.inputAsInts(3) : ctx.intsAttr("output_size", Shape {});
    const ConvSpec spec = ConvSpec::transpose(ctx, input.shape(), filter.shape(), outputSize);
    checkOutGrad(spec, grad, what);
    const bool nhwc = spec.channelsLast;
    const Nchw x = nchwOf(input, nhwc, what), dout = nchwOf(grad, nhwc, what);
    const Im2colGeometry geo = spec.groupGeometry();
    const int64_t groups = spec.groups, icg = spec.inChannelsPerGroup(), ocg = spec.outChannelsPerGroup();
    const int64_t ck = geo.columnRows(), hw = geo.columnCols(), ohw = dout.h * dout.w, ic = spec.inChannels;
    const std::vector<double> wv = values(filter);
    const bool wantX = wanted(ctx, 0), wantW = wanted(ctx, 1);
    std::vector<double> dw(wantW ? wv.size() : 0, 0.0), col(size_t(ck * hw));
    Nchw dx = x;
    std::fill(dx.v.begin(), dx.v.end(), 0.0);
    for (int64_t b = 0; b < x.n; ++b)
        for (int64_t gr = 0; gr < groups; ++gr) {
            ps::im2col(dout.v.data() + (b * dout.c + gr * ocg) * ohw, geo, col.data());
            if (wantX)
                ps::gemm(false, false, icg, hw, ck, 1.0, wv.data() + gr * icg * ck, ck, col.data(), hw, 0.0,
                    dx.v.data() + (b * ic + gr * icg) * hw, hw);
            if (wantW)
                ps::gemm(false, true, icg, ck, hw, 1.0, x.v.data() + (b * ic + gr * icg) * hw, hw, col.data(),
                    hw, 1.0, dw.data() + gr * icg * ck, ck);
        }
    if (wantX)
        ctx.setOutput(0, storeNchw(ctx, input, nhwc, dx));
    if (wantW)
        ctx.setOutput(1, makeTensor(ctx, filter.shape(), filter.dtype(), dw));
}

} // namespace

void registerCpuGradConvKernels(KernelRegistry &registry)
{
    registry.add("pd_op.conv2d_grad", convGrad);
    registry.add("pd_op.depthwise_conv2d_grad", convGrad);
    registry.add("pd_op.conv2d_transpose_grad", convTransposeGrad);
    registry.add("pd_op.depthwise_conv2d_transpose_grad", convTransposeGrad);
}

} // namespace ps
