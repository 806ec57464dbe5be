#pragma once

// Dtype-agnostic element moves of the CPU backend (CpuExec::gather/scatter): row by row, with
// memcpy where a row is contiguous.

#include "core/runtime/kernels/shapespec.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ps::cpuew {

/// dst[i] (contiguous, view.shape) = src[view(i)]; elements of `elementSize` bytes.
void gatherStrided(const void *src, const StridedView &view, void *dst, size_t elementSize);
/// dst[view(i)] = src[i] (src contiguous, view.shape). `view` must not map two indices to one
/// element (no 0 strides) unless they carry equal values.
void scatterStrided(const void *src, void *dst, const StridedView &view, size_t elementSize);

} // namespace ps::cpuew
