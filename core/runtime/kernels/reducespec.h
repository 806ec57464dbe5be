#pragma once

// What a reduction op (sum, mean, prod, max, min, amax, amin, all, any) reads from its context,
// for the CPU and CUDA reduce kernels alike: which dims of x it reduces, the result's shape and
// its dtype. The reduction loops themselves are written per backend (kernels/README.md).

#include "core/ir/datatype.h"

#include <cstdint>
#include <vector>

namespace ps {
class KernelContext;
}

namespace ps::kernels {

enum class ReduceOp { Sum, Mean, Prod, Max, Min, All, Any };

struct ReduceSpec
{
    std::vector<bool> reduced; // per dim of x
    std::vector<int64_t> outShape; // keepdim leaves a 1 per reduced dim
    int64_t reduceCount = 1; // elements folded into each output
    int64_t outCount = 1;
    DataType outType = DataType::Undefined;
};

/// The result shape and counts of reducing the flagged dims of `shape`.
ReduceSpec reduceShape(const std::vector<int64_t> &shape, std::vector<bool> reduced, bool keepdim);

/// The reduction of x (`shape`, `dtype`) that op `op` of `ctx` asks for. Axes: int operand 1 or
/// attribute `axis` (all/any without operand 1 read only the attribute); none or `reduce_all`
/// reduce every dim. Result dtype: sum's `dtype` attribute, else int64 for bool/int32 sums;
/// bool for all/any; x's otherwise. RuntimeError for a bad axis and for max/min over an empty
/// range that has outputs.
ReduceSpec reduceSpec(
    const KernelContext &ctx, ReduceOp op, const std::vector<int64_t> &shape, DataType dtype);

} // namespace ps::kernels
