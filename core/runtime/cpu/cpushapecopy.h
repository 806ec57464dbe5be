#pragma once

// Dtype-agnostic element moves for the CPU shape kernels (internal to core/runtime/cpu): every
// layout op is a strided gather into, or scatter out of, a contiguous tensor.

#include "core/runtime/tensor.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ps::cpuew {

/// Row-major element strides of a contiguous tensor of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape);

/// A strided walk over a tensor's elements: element (i0, i1, ...) of `shape` lives at
/// `base + sum(i_d * strides[d])` elements from the data pointer. Strides may be 0 (repeat) or
/// negative (reverse).
struct StridedView
{
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    int64_t base = 0;
};

/// dst[i] (contiguous, view.shape) = src[view(i)]; elements of `elementSize` bytes.
void gatherStrided(const void *src, const StridedView &view, void *dst, size_t elementSize);
/// dst[view(i)] = src[i] (src contiguous, view.shape). `view` must not map two indices to one
/// element (no 0 strides) unless they carry equal values.
void scatterStrided(const void *src, void *dst, const StridedView &view, size_t elementSize);

/// A new contiguous tensor, made by allocate(shape, dtype), holding `view` of `src`.
template<class Allocate> Tensor gatherTensor(const Tensor &src, const StridedView &view, Allocate &&allocate)
{
    Tensor out = allocate(view.shape, src.dtype());
    gatherStrided(src.rawData(), view, out.rawData(), src.elementSize());
    return out;
}

/// The element size of `t`, throwing RuntimeError naming `what` for dtypes without one.
size_t elementBytes(const Tensor &t, const char *what);

} // namespace ps::cpuew
