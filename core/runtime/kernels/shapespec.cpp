#include "core/runtime/kernels/shapespec.h"

#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <algorithm>

namespace ps {

std::vector<int64_t> broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b)
{
    const size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> out(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            throw RuntimeError("cannot broadcast " + shapeText(a) + " with " + shapeText(b));
        out[i] = da == 1 ? db : da;
    }
    return out;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &shape, const std::vector<int64_t> &outShape)
{
    if (shape.size() > outShape.size())
        throw RuntimeError("cannot broadcast " + shapeText(shape) + " to " + shapeText(outShape));
    const size_t lead = outShape.size() - shape.size();
    std::vector<int64_t> strides(outShape.size(), 0);
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        const int64_t d = shape[i], o = outShape[lead + i];
        if (d != o && d != 1)
            throw RuntimeError("cannot broadcast " + shapeText(shape) + " to " + shapeText(outShape));
        strides[lead + i] = d == 1 ? 0 : stride;
        stride *= d;
    }
    return strides;
}

std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape)
{
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;)
        strides[i - 1] = strides[i] * shape[i];
    return strides;
}

std::vector<int64_t> alignShape(const std::vector<int64_t> &shape, size_t rank, int64_t axis)
{
    if (shape.size() >= rank)
        return shape;
    const size_t pad = rank - shape.size();
    const size_t before = axis < 0 || size_t(axis) > pad ? pad : size_t(axis);
    std::vector<int64_t> out(before, 1);
    out.insert(out.end(), shape.begin(), shape.end());
    out.resize(rank, 1);
    return out;
}

AxisRange normalizeRange(int64_t start, int64_t end, int64_t step, int64_t dim)
{
    if (step == 0)
        throw RuntimeError("slice step is 0");
    const auto adjust = [&](int64_t v) {
        if (v < 0)
            v += dim;
        return step > 0 ? std::clamp<int64_t>(v, 0, dim) : std::clamp<int64_t>(v, -1, dim - 1);
    };
    AxisRange r;
    r.step = step;
    r.start = adjust(start);
    const int64_t e = adjust(end);
    // ceil(distance / |step|) without overflow: |step| may be 2^63 (INT64_MIN) and distance + |step|
    // may pass INT64_MAX (a step of INT64_MAX takes one element).
    const uint64_t stride = step > 0 ? uint64_t(step) : uint64_t(-(step + 1)) + 1;
    const int64_t distance = step > 0 ? e - r.start : r.start - e; // both in [-1, dim]
    r.count = distance > 0 ? int64_t(1 + (uint64_t(distance) - 1) / stride) : 0;
    return r;
}

StridedView sliceView(const std::vector<int64_t> &shape, const std::vector<int64_t> &axes,
    const std::vector<int64_t> &starts, const std::vector<int64_t> &ends, const std::vector<int64_t> &steps,
    const std::string &what)
{
    if (starts.size() != axes.size() || ends.size() != axes.size()
        || (!steps.empty() && steps.size() != axes.size()))
        throw RuntimeError(what + ": axes " + shapeText(axes) + ", starts " + shapeText(starts) + ", ends "
            + shapeText(ends) + " differ in length");
    const std::vector<int64_t> strides = contiguousStrides(shape);
    StridedView view { shape, strides, 0 };
    for (size_t i = 0; i < axes.size(); ++i) {
        const size_t axis = size_t(kernels::normalizeAxis(axes[i], int64_t(shape.size()), what + " axis"));
        const AxisRange r = normalizeRange(starts[i], ends[i], steps.empty() ? 1 : steps[i], shape[axis]);
        view.base += r.start * strides[axis];
        view.shape[axis] = r.count;
        view.strides[axis] = strides[axis] * r.step;
    }
    return view;
}

std::vector<int64_t> withoutAxes(
    const std::vector<int64_t> &shape, const std::vector<int64_t> &axes, const std::string &what)
{
    std::vector<bool> drop(shape.size(), false);
    for (int64_t a : axes) {
        const size_t axis = size_t(kernels::normalizeAxis(a, int64_t(shape.size()), what + " decrease axis"));
        if (shape[axis] != 1)
            throw RuntimeError(what + ": cannot drop dim " + std::to_string(axis) + " of size "
                + std::to_string(shape[axis]));
        drop[axis] = true;
    }
    std::vector<int64_t> out;
    for (size_t i = 0; i < shape.size(); ++i)
        if (!drop[i])
            out.push_back(shape[i]);
    return out;
}

std::vector<int64_t> reshapeTarget(
    const std::vector<int64_t> &input, std::vector<int64_t> shape, const std::string &describe)
{
    int inferred = -1;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) {
            if (i >= input.size())
                throw RuntimeError("reshape: shape " + shapeText(shape) + " copies dim " + std::to_string(i)
                    + " that " + describe + " does not have");
            shape[i] = input[i];
        }
        if (shape[i] == -1) {
            if (inferred >= 0)
                throw RuntimeError("reshape: shape " + shapeText(shape) + " has more than one -1");
            inferred = int(i);
        } else if (shape[i] < 0) {
            throw RuntimeError("reshape: shape " + shapeText(shape) + " has a negative dim");
        } else {
            known *= shape[i];
        }
    }
    const int64_t count = numElementsOf(input);
    if (inferred >= 0) {
        if (known == 0 || count % known != 0)
            throw RuntimeError("reshape: cannot reshape " + describe + " to " + shapeText(shape));
        shape[size_t(inferred)] = count / known;
    }
    if (numElementsOf(shape) != count)
        throw RuntimeError("reshape: cannot reshape " + describe + " to " + shapeText(shape));
    return shape;
}

std::vector<int64_t> flattenShape(
    const std::vector<int64_t> &input, int64_t startAxis, int64_t stopAxis, const std::string &describe)
{
    if (input.empty())
        return { 1 };
    const int64_t rank = int64_t(input.size());
    const size_t start = size_t(kernels::normalizeAxis(startAxis, rank, "flatten start_axis"));
    const size_t stop = size_t(kernels::normalizeAxis(stopAxis, rank, "flatten stop_axis"));
    if (start > stop)
        throw RuntimeError("flatten: start_axis " + std::to_string(start) + " is after stop_axis "
            + std::to_string(stop) + " for " + describe);
    std::vector<int64_t> shape(input.begin(), input.begin() + std::ptrdiff_t(start));
    int64_t merged = 1;
    for (size_t i = start; i <= stop; ++i)
        merged *= input[i];
    shape.push_back(merged);
    shape.insert(shape.end(), input.begin() + std::ptrdiff_t(stop) + 1, input.end());
    return shape;
}

std::vector<int64_t> squeezeShape(const std::vector<int64_t> &input, const std::vector<int64_t> &axes)
{
    if (input.empty())
        return {};
    std::vector<bool> drop(input.size(), false);
    for (int64_t a : axes) {
        const size_t axis = size_t(kernels::normalizeAxis(a, int64_t(input.size()), "squeeze axis"));
        drop[axis] = input[axis] == 1;
    }
    std::vector<int64_t> shape;
    for (size_t i = 0; i < input.size(); ++i)
        if (!(axes.empty() ? input[i] == 1 : bool(drop[i])))
            shape.push_back(input[i]);
    return shape;
}

std::vector<int64_t> unsqueezeShape(std::vector<int64_t> shape, const std::vector<int64_t> &axes)
{
    for (int64_t a : axes) {
        const size_t at = size_t(kernels::normalizeAxis(a, int64_t(shape.size()) + 1, "unsqueeze axis"));
        shape.insert(shape.begin() + std::ptrdiff_t(at), 1);
    }
    return shape;
}

StridedView transposeView(const std::vector<int64_t> &input, const std::vector<int64_t> &perm)
{
    if (perm.size() != input.size())
        throw RuntimeError("transpose: perm " + shapeText(perm) + " does not match " + shapeText(input));
    const std::vector<int64_t> inStrides = contiguousStrides(input);
    StridedView view;
    std::vector<bool> seen(input.size(), false);
    for (int64_t p : perm) {
        const size_t axis = size_t(kernels::normalizeAxis(p, int64_t(input.size()), "transpose perm entry"));
        if (seen[axis])
            throw RuntimeError(
                "transpose: perm " + shapeText(perm) + " repeats axis " + std::to_string(axis));
        seen[axis] = true;
        view.shape.push_back(input[axis]);
        view.strides.push_back(inStrides[axis]);
    }
    return view;
}

std::vector<int64_t> inversePermutation(const std::vector<int64_t> &perm, const std::string &what)
{
    std::vector<int64_t> inverse(perm.size(), -1);
    for (size_t i = 0; i < perm.size(); ++i) {
        const size_t axis
            = size_t(kernels::normalizeAxis(perm[i], int64_t(perm.size()), what + " perm entry"));
        if (inverse[axis] >= 0)
            throw RuntimeError(what + ": perm " + shapeText(perm) + " repeats axis " + std::to_string(axis));
        inverse[axis] = int64_t(i);
    }
    return inverse;
}

TileGradShapes tileGradShapes(const std::vector<int64_t> &input, const std::vector<int64_t> &tiled)
{
    const auto notATiling = [&] {
        return RuntimeError(
            "tile_grad: out_grad " + shapeText(tiled) + " is not a tiling of x " + shapeText(input));
    };
    if (input.size() > tiled.size())
        throw notATiling();
    const std::vector<int64_t> aligned = alignShape(input, tiled.size());
    TileGradShapes s;
    for (size_t d = 0; d < aligned.size(); ++d) {
        const int64_t size = aligned[d], total = tiled[d];
        if (size == 0 ? total != 0 : total % size != 0)
            throw notATiling();
        s.split.insert(s.split.end(), { size == 0 ? 1 : total / size, size });
        s.kept.insert(s.kept.end(), { 1, size });
    }
    return s;
}

StridedView tileView(
    const std::vector<int64_t> &input, std::vector<int64_t> repeats, std::vector<int64_t> &outShape)
{
    std::vector<int64_t> shape = input;
    const size_t rank = std::max(repeats.size(), shape.size());
    repeats.insert(repeats.begin(), rank - repeats.size(), 1);
    shape.insert(shape.begin(), rank - shape.size(), 1);
    const std::vector<int64_t> strides = contiguousStrides(shape);
    StridedView view;
    outShape.clear();
    for (size_t i = 0; i < rank; ++i) {
        if (repeats[i] < 0)
            throw RuntimeError("tile: repeat_times " + shapeText(repeats) + " has a negative entry");
        view.shape.insert(view.shape.end(), { repeats[i], shape[i] });
        view.strides.insert(view.strides.end(), { 0, strides[i] });
        outShape.push_back(repeats[i] * shape[i]);
    }
    return view;
}

StridedView expandView(
    const std::vector<int64_t> &input, std::vector<int64_t> shape, const std::string &describe)
{
    if (shape.size() < input.size())
        throw RuntimeError("expand: shape " + shapeText(shape) + " has fewer dims than " + describe);
    const size_t lead = shape.size() - input.size();
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1 && i >= lead)
            shape[i] = input[i - lead];
        if (shape[i] < 0)
            throw RuntimeError("expand: shape " + shapeText(shape) + " has a negative dim");
    }
    StridedView view;
    view.shape = shape;
    try {
        view.strides = broadcastStrides(input, shape);
    } catch (const RuntimeError &) {
        throw RuntimeError("expand: cannot expand " + describe + " to " + shapeText(shape));
    }
    return view;
}

StridedView flipView(const std::vector<int64_t> &input, const std::vector<int64_t> &axes)
{
    StridedView view { input, contiguousStrides(input), 0 };
    std::vector<bool> flipped(input.size(), false);
    for (int64_t a : axes) {
        const size_t axis = size_t(kernels::normalizeAxis(a, int64_t(input.size()), "flip axis"));
        if (flipped[axis] || input[axis] == 0)
            continue;
        flipped[axis] = true;
        view.base += (input[axis] - 1) * view.strides[axis];
        view.strides[axis] = -view.strides[axis];
    }
    return view;
}

std::vector<bool> reducedDims(
    const std::vector<int64_t> &axes, int64_t rank, bool reduceAll, std::string_view what)
{
    std::vector<bool> reduced(size_t(rank), axes.empty() || reduceAll);
    if (reduceAll)
        return reduced;
    for (int64_t a : axes) {
        if (rank == 0 && (a == 0 || a == -1))
            continue;
        reduced[size_t(kernels::normalizeAxis(a, rank, what))] = true;
    }
    return reduced;
}

std::vector<int64_t> keptShape(const std::vector<int64_t> &shape, const std::vector<bool> &reduced)
{
    std::vector<int64_t> out = shape;
    for (size_t d = 0; d < out.size(); ++d)
        if (reduced[d])
            out[d] = 1;
    return out;
}

AxisSplit splitAtAxis(const std::vector<int64_t> &shape, int64_t axis)
{
    AxisSplit s;
    if (shape.empty())
        return s;
    for (int64_t i = 0; i < axis; ++i)
        s.outer *= shape[size_t(i)];
    s.size = shape[size_t(axis)];
    for (size_t i = size_t(axis) + 1; i < shape.size(); ++i)
        s.inner *= shape[i];
    return s;
}

ChannelView channelView(const std::vector<int64_t> &shape, bool channelsLast, std::string_view what)
{
    if (shape.size() < 2)
        throw RuntimeError(std::string(what) + ": x must have at least 2 dims, got " + shapeText(shape));
    ChannelView v;
    if (channelsLast) {
        v.channels = shape.back();
        v.outer = v.channels == 0 ? 0 : numElementsOf(shape) / v.channels;
    } else {
        v.outer = shape[0];
        v.channels = shape[1];
        for (size_t i = 2; i < shape.size(); ++i)
            v.inner *= shape[i];
    }
    return v;
}

} // namespace ps
