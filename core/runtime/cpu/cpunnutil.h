#pragma once

// Small helpers shared by the CPU nn kernel files (cpu*kernels.cpp of registerCpuNnKernels).

#include "core/ir/datatype.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ps {

class KernelContext;

/// A host copy of `t` converted to `dtype` (the same handle when the dtype already matches).
Tensor convertTensor(const Tensor &t, DataType dtype);

/// A 4-D host tensor permuted NHWC -> NCHW (toChannelsFirst) or NCHW -> NHWC (a copy).
Tensor permuteChannels(const Tensor &t, bool toChannelsFirst);

using kernels::isChannelsLast;

} // namespace ps
