#pragma once

#include "core/runtime/kernels/hostdevice.h"

#include <cstdint>
#include <vector>

namespace ps {

class KernelContext;

/// Paddle's pool2d attributes resolved against a concrete input shape, in NCHW terms: kernel
/// size (the kernel_size operand), strides, paddings (2 or 4 values), padding_algorithm,
/// global_pooling, adaptive, ceil_mode, exclusive, pooling_type, data_format. Shared by pool2d
/// and pool2d_grad. Window rules follow Paddle's CPU Pool2dFunctor exactly: a window starts at
/// o * stride - padTop, ends at min(start + k, in + padTop) (Paddle uses the leading padding at
/// both ends), and is clipped to the input; avg divides by the clipped size when exclusive or
/// adaptive, else by the unclipped extent (so a window wholly in padding gives 0/0 = NaN when
/// exclusive, as Paddle does). Adaptive windows are [floor(o*in/out), ceil((o+1)*in/out)).
struct PoolSpec
{
    bool channelsLast = false;
    bool isMax = true;
    bool adaptive = false;
    bool exclusive = true;
    int64_t batch = 0;
    int64_t channels = 0;
    int64_t inH = 0;
    int64_t inW = 0;
    int64_t outH = 0;
    int64_t outW = 0;
    int64_t kernelH = 1;
    int64_t kernelW = 1;
    int64_t strideH = 1;
    int64_t strideW = 1;
    int64_t padTop = 0;
    int64_t padBottom = 0;
    int64_t padLeft = 0;
    int64_t padRight = 0;

    /// One output position's input range [begin, end) and its unclipped extent.
    struct Window
    {
        int64_t begin = 0;
        int64_t end = 0;
        int64_t extent = 0;
    };

    /// `input` as stored (4-D), `kernelSize` the kernel_size operand values (1 or 2 values; the
    /// output size when adaptive). Throws RuntimeError on a bad rank, kernel or empty output.
    static PoolSpec fromContext(
        const KernelContext &ctx, const std::vector<int64_t> &input, const std::vector<int64_t> &kernelSize);

    /// The window of output position `o` along a dim of `in` inputs and `out` outputs.
    PS_HOST_DEVICE static Window window(int64_t o, int64_t in, int64_t out, int64_t k, int64_t stride, int64_t pad,
        bool adaptive)
    {
        Window w;
        if (adaptive) {
            w.begin = o * in / out;
            w.end = ((o + 1) * in + out - 1) / out;
            w.extent = w.end - w.begin;
            return w;
        }
        const int64_t start = o * stride - pad;
        const int64_t end = km::min(start + k, in + pad);
        w.extent = end - start;
        w.begin = km::max<int64_t>(start, 0);
        w.end = km::min(end, in);
        return w;
    }
    PS_HOST_DEVICE Window rowWindow(int64_t oh) const { return window(oh, inH, outH, kernelH, strideH, padTop, adaptive); }
    PS_HOST_DEVICE Window colWindow(int64_t ow) const { return window(ow, inW, outW, kernelW, strideW, padLeft, adaptive); }
    /// The avg-pooling divisor of one window pair.
    PS_HOST_DEVICE double divisor(const Window &rows, const Window &cols) const
    {
        if (exclusive || adaptive)
            return double(km::max<int64_t>(rows.end - rows.begin, 0) * km::max<int64_t>(cols.end - cols.begin, 0));
        return double(rows.extent * cols.extent);
    }
    std::vector<int64_t> outputShape() const;
};

} // namespace ps
