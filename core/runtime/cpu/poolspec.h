#pragma once

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

    Window rowWindow(int64_t oh) const;
    Window colWindow(int64_t ow) const;
    /// The avg-pooling divisor of one window pair.
    double divisor(const Window &rows, const Window &cols) const;
    std::vector<int64_t> outputShape() const;
};

} // namespace ps
