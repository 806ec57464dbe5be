#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace ps {

class KernelContext;

/// Paddle's conv3d attributes resolved against concrete shapes, in NCDHW terms whatever
/// `data_format` says: strides, dilations (3 values, or 1 for all), paddings (3 values, each on
/// both sides, or 6: [front, back, top, bottom, left, right]), padding_algorithm (SAME pads to
/// ceil(in / stride) outputs and resets dilations to 1, VALID drops the padding), groups.
/// Spatial arrays are indexed depth, height, width.
struct Conv3dSpec
{
    bool channelsLast = false; ///< data_format "NDHWC": input/output stored N,D,H,W,C (filter stays OIDHW)
    int64_t groups = 1;
    int64_t batch = 0;
    int64_t inChannels = 0;
    int64_t outChannels = 0;
    std::array<int64_t, 3> in {};
    std::array<int64_t, 3> out {};
    std::array<int64_t, 3> kernel {};
    std::array<int64_t, 3> stride { 1, 1, 1 };
    std::array<int64_t, 3> dilation { 1, 1, 1 };
    std::array<int64_t, 3> padBegin {};
    std::array<int64_t, 3> padEnd {};

    /// `input` as stored (5-D, NCDHW or NDHWC per data_format), `filter` [outC, inC / groups, kD,
    /// kH, kW]. Throws RuntimeError naming the op and both shapes when they do not fit (ranks,
    /// channel mismatch, groups not dividing, an empty output).
    static Conv3dSpec forward(
        const KernelContext &ctx, const std::vector<int64_t> &input, const std::vector<int64_t> &filter);

    std::vector<int64_t> inputShape() const;
    /// The output shape as stored (NCDHW or NDHWC).
    std::vector<int64_t> outputShape() const;
    int64_t inChannelsPerGroup() const { return inChannels / groups; }
    int64_t outChannelsPerGroup() const { return outChannels / groups; }
};

} // namespace ps
