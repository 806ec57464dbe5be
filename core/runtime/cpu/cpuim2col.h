#pragma once

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
    int64_t columnRows() const { return channels * kernelH * kernelW; }
    /// Columns of the column matrix: outH * outW.
    int64_t columnCols() const { return outH * outW; }
    /// A 1x1 kernel, stride 1, no padding, out == image: the image already is its column matrix.
    bool isIdentity() const
    {
        return kernelH == 1 && kernelW == 1 && strideH == 1 && strideW == 1 && padTop == 0 && padLeft == 0
            && outH == height && outW == width;
    }
};

// im2col: `columns` ([columnRows(), columnCols()] row-major, row = (c * kernelH + kh) * kernelW + kw)
// receives image[c][oh * strideH - padTop + kh * dilationH][ow * strideW - padLeft + kw * dilationW],
// zero outside the image. Overwrites every element of `columns`.
void im2col(const float *image, const Im2colGeometry &g, float *columns);
void im2col(const double *image, const Im2colGeometry &g, double *columns);

// col2im: the adjoint of im2col; ADDS every column element into the image pixel it was read from
// (taps outside the image are dropped). The caller zeroes `image` first when it wants a fresh
// result. Used by conv2d_transpose and by the input gradient of conv2d.
void col2im(const float *columns, const Im2colGeometry &g, float *image);
void col2im(const double *columns, const Im2colGeometry &g, double *image);

} // namespace ps
