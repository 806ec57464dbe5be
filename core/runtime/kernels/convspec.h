#pragma once

#include "core/runtime/kernels/im2colgeometry.h"

#include <cstdint>
#include <vector>

namespace ps {

class KernelContext;

/// Paddle's conv2d / depthwise_conv2d / conv2d_transpose attributes resolved against concrete
/// shapes, in NCHW terms whatever `data_format` says: paddings (2 or 4 values) and
/// padding_algorithm (EXPLICIT/SAME/VALID, SAME resets dilations to 1 as Paddle does), output
/// size, groups. Shared by the forward kernels and the `*_grad` kernels (same attribute names).
struct ConvSpec
{
    bool channelsLast = false; ///< data_format "NHWC": input/output stored N,H,W,C (filter stays OIHW)
    bool transposed = false;
    int64_t groups = 1;
    int64_t batch = 0;
    int64_t inChannels = 0;
    int64_t inH = 0;
    int64_t inW = 0;
    int64_t outChannels = 0;
    int64_t outH = 0;
    int64_t outW = 0;
    int64_t kernelH = 1;
    int64_t kernelW = 1;
    int64_t strideH = 1;
    int64_t strideW = 1;
    int64_t dilationH = 1;
    int64_t dilationW = 1;
    int64_t padTop = 0;
    int64_t padBottom = 0;
    int64_t padLeft = 0;
    int64_t padRight = 0;

    /// conv2d, depthwise_conv2d (and their _grad ops): `input` as stored (4-D, NCHW or NHWC per
    /// data_format), `filter` [outC, inC / groups, kH, kW]. Reads strides, paddings,
    /// padding_algorithm, dilations, groups, data_format. Throws RuntimeError naming the op and
    /// both shapes when they do not fit (channel mismatch, groups not dividing, empty output).
    static ConvSpec forward(
        const KernelContext &ctx, const std::vector<int64_t> &input, const std::vector<int64_t> &filter);
    /// conv2d_transpose (and its _grad): `filter` [inC, outC / groups, kH, kW]; `outputSize` the
    /// output_size operand or attribute ([] or [H, W]: must lie in [inferred, inferred + stride));
    /// also reads output_padding. Output = (in - 1) * stride - padBegin - padEnd
    /// + dilation * (k - 1) + 1 (+ output_padding).
    static ConvSpec transpose(const KernelContext &ctx, const std::vector<int64_t> &input,
        const std::vector<int64_t> &filter, const std::vector<int64_t> &outputSize);

    /// The input shape as stored (NCHW or NHWC).
    std::vector<int64_t> inputShape() const;
    /// The output shape as stored (NCHW or NHWC).
    std::vector<int64_t> outputShape() const;
    /// Input channels per group / output channels per group.
    int64_t inChannelsPerGroup() const { return inChannels / groups; }
    int64_t outChannelsPerGroup() const { return outChannels / groups; }
    /// The im2col geometry of one group of one image. Forward: the input image
    /// (inChannelsPerGroup planes of inH x inW) on the outH x outW grid, so that
    /// out_g = W_g [outC/g, columnRows] x columns. Transposed: the output image
    /// (outChannelsPerGroup planes of outH x outW) on the inH x inW grid, so that
    /// col2im(W_g^T x in_g) is the transposed convolution.
    Im2colGeometry groupGeometry() const;
};

} // namespace ps
