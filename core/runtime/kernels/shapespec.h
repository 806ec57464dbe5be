#pragma once

// Shape geometry shared by the CPU and CUDA kernels (host code): NumPy broadcasting, strides,
// strided views (transpose, slice, tile, expand, flip are all one), Python slice ranges and the
// reshape family's shape rules. Kernels compute a view here and hand it to their backend's
// gather/scatter (kernels/exec.h).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// NumPy broadcasting of two shapes (Paddle's rule with axis = -1): dims are right-aligned and
/// each pair must be equal or hold a 1. Throws RuntimeError "cannot broadcast [2, 3] with [4]".
std::vector<int64_t> broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b);

/// Element strides of a contiguous tensor of `shape` read through `outShape` (right-aligned, 0 on
/// the dims it broadcasts over); result size is outShape.size(). Throws RuntimeError "cannot
/// broadcast S to O" when `shape` does not broadcast to it.
std::vector<int64_t> broadcastStrides(
    const std::vector<int64_t> &shape, const std::vector<int64_t> &outShape);

/// Row-major element strides of a contiguous tensor of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape);

/// `shape` padded with 1s to `rank` dims: right-aligned, or (legacy elementwise `axis` >= 0) with
/// its first dim at `axis`.
std::vector<int64_t> alignShape(const std::vector<int64_t> &shape, size_t rank, int64_t axis = -1);

/// A strided walk over a tensor's elements: element (i0, i1, ...) of `shape` lives at
/// `base + sum(i_d * strides[d])` elements from the data pointer. Strides may be 0 (repeat) or
/// negative (reverse).
struct StridedView
{
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    int64_t base = 0;
};

/// One axis of a Python-style slice after normalisation: first index, step, element count.
struct AxisRange
{
    int64_t start = 0, step = 1, count = 0;
};

/// Python/NumPy slice semantics (PySlice_AdjustIndices): negative start/end count from the end,
/// then clamp to the dim ([-1, dim-1] for a negative step). RuntimeError for step 0.
AxisRange normalizeRange(int64_t start, int64_t end, int64_t step, int64_t dim);

/// The view of a contiguous tensor of `shape` selected by per-axis (start, end, step) on `axes`
/// (steps empty: all 1); other dims whole. `what` names the op in errors.
StridedView sliceView(const std::vector<int64_t> &shape, const std::vector<int64_t> &axes,
    const std::vector<int64_t> &starts, const std::vector<int64_t> &ends, const std::vector<int64_t> &steps,
    const std::string &what);

/// `shape` without the dims listed in `axes` (each must be 1).
std::vector<int64_t> withoutAxes(
    const std::vector<int64_t> &shape, const std::vector<int64_t> &axes, const std::string &what);

/// reshape's target: 0 copies the input's dim at that index, one -1 is inferred. RuntimeError
/// "reshape: cannot reshape float32[2, 3] to [4, 2]" (`describe` names the input).
std::vector<int64_t> reshapeTarget(
    const std::vector<int64_t> &input, std::vector<int64_t> shape, const std::string &describe);
/// flatten's result: dims start..stop merged; 0-d becomes [1].
std::vector<int64_t> flattenShape(
    const std::vector<int64_t> &input, int64_t startAxis, int64_t stopAxis, const std::string &describe);
/// squeeze's result: the listed size-1 dims removed (a listed dim of another size stays, as in
/// Paddle); no axes removes every size-1 dim.
std::vector<int64_t> squeezeShape(const std::vector<int64_t> &input, const std::vector<int64_t> &axes);
/// unsqueeze's result: a 1 inserted per axis, in order, each read against the rank so far.
std::vector<int64_t> unsqueezeShape(std::vector<int64_t> input, const std::vector<int64_t> &axes);

/// transpose: out dim i is input dim perm[i]; RuntimeError for a bad or repeated entry.
StridedView transposeView(const std::vector<int64_t> &input, const std::vector<int64_t> &perm);
/// The permutation that undoes `perm` (transpose_grad); RuntimeError "WHAT: perm [..] ..." for a
/// bad or repeated entry.
std::vector<int64_t> inversePermutation(const std::vector<int64_t> &perm, const std::string &what);
/// tile: repeats padded with leading 1s; the view is [r0, d0, r1, d1, ...] (0 strides on the
/// repeat dims) and `outShape` the merged result.
StridedView tileView(
    const std::vector<int64_t> &input, std::vector<int64_t> repeats, std::vector<int64_t> &outShape);
/// expand: input broadcast to `shape` (-1 keeps the input's dim).
StridedView expandView(
    const std::vector<int64_t> &input, std::vector<int64_t> shape, const std::string &describe);
/// tile_grad's sum: out_grad (`tiled`) seen as [r0, d0, r1, d1, ...] (`split`) summed to
/// [1, d0, 1, d1, ...] (`kept`), `input` right-aligned to the rank of `tiled`. RuntimeError naming
/// both shapes when `tiled` is not a tiling of `input`.
struct TileGradShapes
{
    std::vector<int64_t> split, kept;
};
TileGradShapes tileGradShapes(const std::vector<int64_t> &input, const std::vector<int64_t> &tiled);
/// flip: the listed dims reversed.
StridedView flipView(const std::vector<int64_t> &input, const std::vector<int64_t> &axes);

/// Per dim of a rank-`rank` tensor: whether a reduction over `axes` reduces it (empty `axes` or
/// `reduceAll`: all dims; a 0-d tensor accepts axis 0 and -1).
std::vector<bool> reducedDims(
    const std::vector<int64_t> &axes, int64_t rank, bool reduceAll, std::string_view what);
/// `shape` with the reduced dims set to 1.
std::vector<int64_t> keptShape(const std::vector<int64_t> &shape, const std::vector<bool> &reduced);

/// A shape seen as [outer, size, inner] around `axis` (a 0-d shape is [1, 1, 1]).
struct AxisSplit
{
    int64_t outer = 1;
    int64_t size = 1;
    int64_t inner = 1;
};
AxisSplit splitAtAxis(const std::vector<int64_t> &shape, int64_t axis);

/// A tensor with a channel dim (batch/instance norm) seen as [outer, channels, inner]: channel c's
/// elements are (o * channels + c) * inner + i. Channels-last puts the channels in the last dim.
struct ChannelView
{
    int64_t outer = 1;
    int64_t channels = 1;
    int64_t inner = 1;
};
/// RuntimeError "WHAT: x must have at least 2 dims, got [5]" for a shorter shape.
ChannelView channelView(const std::vector<int64_t> &shape, bool channelsLast, std::string_view what);

} // namespace ps
