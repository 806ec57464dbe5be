#pragma once

#include "core/runtime/kernels/im2colgeometry.h"

#include <cstdint>

namespace ps {

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
