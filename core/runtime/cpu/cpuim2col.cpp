#include "core/runtime/cpu/cpuim2col.h"

#include <algorithm>
#include <cstring>

namespace ps {
namespace {

// The output positions o in [0, outN) whose tap index o * stride + offset lies in [0, size).
void validRange(int64_t offset, int64_t stride, int64_t size, int64_t outN, int64_t &begin, int64_t &end)
{
    // o * stride + offset >= 0  <=>  o >= ceil(-offset / stride)
    begin = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
    // o * stride + offset <= size - 1  <=>  o <= floor((size - 1 - offset) / stride)
    const int64_t last = size - 1 - offset;
    end = last < 0 ? 0 : last / stride + 1;
    begin = std::min(begin, outN);
    end = std::clamp(end, begin, outN);
}

template<class T> void im2colImpl(const T *image, const Im2colGeometry &g, T *columns)
{
    const int64_t cols = g.columnCols();
    for (int64_t c = 0; c < g.channels; ++c) {
        const T *plane = image + c * g.height * g.width;
        for (int64_t kh = 0; kh < g.kernelH; ++kh) {
            const int64_t offH = kh * g.dilationH - g.padTop;
            int64_t ohBegin, ohEnd;
            validRange(offH, g.strideH, g.height, g.outH, ohBegin, ohEnd);
            for (int64_t kw = 0; kw < g.kernelW; ++kw) {
                T *row = columns + ((c * g.kernelH + kh) * g.kernelW + kw) * cols;
                const int64_t offW = kw * g.dilationW - g.padLeft;
                int64_t owBegin, owEnd;
                validRange(offW, g.strideW, g.width, g.outW, owBegin, owEnd);
                std::fill(row, row + ohBegin * g.outW, T(0));
                for (int64_t oh = ohBegin; oh < ohEnd; ++oh) {
                    T *dst = row + oh * g.outW;
                    const T *src = plane + (oh * g.strideH + offH) * g.width;
                    std::fill(dst, dst + owBegin, T(0));
                    if (g.strideW == 1) {
                        if (owEnd > owBegin)
                            std::memcpy(
                                dst + owBegin, src + owBegin + offW, size_t(owEnd - owBegin) * sizeof(T));
                    } else {
                        for (int64_t ow = owBegin; ow < owEnd; ++ow)
                            dst[ow] = src[ow * g.strideW + offW];
                    }
                    std::fill(dst + owEnd, dst + g.outW, T(0));
                }
                std::fill(row + ohEnd * g.outW, row + cols, T(0));
            }
        }
    }
}

template<class T> void col2imImpl(const T *columns, const Im2colGeometry &g, T *image)
{
    const int64_t cols = g.columnCols();
    for (int64_t c = 0; c < g.channels; ++c) {
        T *plane = image + c * g.height * g.width;
        for (int64_t kh = 0; kh < g.kernelH; ++kh) {
            const int64_t offH = kh * g.dilationH - g.padTop;
            int64_t ohBegin, ohEnd;
            validRange(offH, g.strideH, g.height, g.outH, ohBegin, ohEnd);
            for (int64_t kw = 0; kw < g.kernelW; ++kw) {
                const T *row = columns + ((c * g.kernelH + kh) * g.kernelW + kw) * cols;
                const int64_t offW = kw * g.dilationW - g.padLeft;
                int64_t owBegin, owEnd;
                validRange(offW, g.strideW, g.width, g.outW, owBegin, owEnd);
                for (int64_t oh = ohBegin; oh < ohEnd; ++oh) {
                    const T *src = row + oh * g.outW;
                    T *dst = plane + (oh * g.strideH + offH) * g.width;
                    for (int64_t ow = owBegin; ow < owEnd; ++ow)
                        dst[ow * g.strideW + offW] += src[ow];
                }
            }
        }
    }
}

} // namespace

void im2col(const float *image, const Im2colGeometry &g, float *columns)
{
    im2colImpl(image, g, columns);
}

void im2col(const double *image, const Im2colGeometry &g, double *columns)
{
    im2colImpl(image, g, columns);
}

void col2im(const float *columns, const Im2colGeometry &g, float *image)
{
    col2imImpl(columns, g, image);
}

void col2im(const double *columns, const Im2colGeometry &g, double *image)
{
    col2imImpl(columns, g, image);
}

} // namespace ps
