#pragma once

// Small helpers shared by the CPU nn kernel files (cpu*kernels.cpp of registerCpuNnKernels).

#include "core/ir/datatype.h"
#include "core/runtime/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ps {

class KernelContext;

/// "conv2d" for pd_op.conv2d: the prefix of kernel error messages.
std::string nnOpLabel(const KernelContext &ctx);

/// `axis` in [-rank, rank) mapped to [0, rank); throws RuntimeError naming `what` otherwise.
/// A 0-d tensor accepts axis 0 and -1 (rank treated as 1).
int64_t normalizeAxis(int64_t axis, int64_t rank, const std::string &what);

/// A shape seen as [outer, size, inner] around `axis`.
struct AxisSplit
{
    int64_t outer = 1;
    int64_t size = 1;
    int64_t inner = 1;
};
AxisSplit splitAtAxis(const std::vector<int64_t> &shape, int64_t axis);

/// Float16 / BFloat16.
bool isHalfType(DataType dtype);

/// A host copy of `t` converted to `dtype` (the same handle when the dtype already matches).
Tensor convertTensor(const Tensor &t, DataType dtype);

/// A 4-D host tensor permuted NHWC -> NCHW (toChannelsFirst) or NCHW -> NHWC (a copy).
Tensor permuteChannels(const Tensor &t, bool toChannelsFirst);

/// Data format attribute ("NCHW", "NHWC", "AnyLayout", "NCL", ...) is channels-last.
bool isChannelsLast(const std::string &format);

} // namespace ps
