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

/// The type a convolution computes in for `input` and `filter` (float64 for float64, else float32,
/// half types widened); throws, naming `label`, when their dtypes differ or are not floating point.
DataType convComputeType(const std::string &label, const Tensor &input, const Tensor &filter);

using kernels::isChannelsLast;

} // namespace ps
