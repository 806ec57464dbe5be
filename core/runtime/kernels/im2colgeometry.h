#pragma once

// The im2col geometry of a 2-D convolution, shared by the CPU kernels (cpu/cpuim2col.h) and the
// CUDA im2col/col2im kernels.

#include "core/runtime/kernels/hostdevice.h"

#include <cstdint>

namespace ps {

/// The column view of one NCHW image slice for a 2-D convolution: `channels` planes of
/// height x width, a kernel of kernelH x kernelW taps with strides, dilations and top/left
/// padding, and an outH x outW grid of kernel positions. Taps outside the image read as zero
/// (bottom/right padding is implied by outH/outW). padTop/padLeft may be negative: a band of
/// output rows [r0, r0 + outH) of a larger grid is the same geometry with padTop - r0 * strideH.
struct Im2colGeometry
{
    int64_t channels = 0;
    int64_t height = 0;
    int64_t width = 0;
    int64_t kernelH = 1;
    int64_t kernelW = 1;
    int64_t strideH = 1;
    int64_t strideW = 1;
    int64_t padTop = 0;
    int64_t padLeft = 0;
    int64_t dilationH = 1;
    int64_t dilationW = 1;
    int64_t outH = 0;
    int64_t outW = 0;

    /// Rows of the column matrix: channels * kernelH * kernelW.
    PS_HOST_DEVICE int64_t columnRows() const { return channels * kernelH * kernelW; }
    /// Columns of the column matrix: outH * outW.
    PS_HOST_DEVICE int64_t columnCols() const { return outH * outW; }
    /// A 1x1 kernel, stride 1, no padding, out == image: the image already is its column matrix.
    PS_HOST_DEVICE bool isIdentity() const
    {
        return kernelH == 1 && kernelW == 1 && strideH == 1 && strideW == 1 && padTop == 0 && padLeft == 0
            && outH == height && outW == width;
    }
};

} // namespace ps
