#pragma once

// Host-side glue shared by the CUDA kernels (no CUDA headers): op names, the inplace
// convention, and PIR's IntArray/Scalar operands that older programs carry as attributes. The
// conventions are the CPU kernels' (core/runtime/cpu/cpuelementwisecommon.h).

#include "core/runtime/kernelcontext.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::cuda {

/// "add" for pd_op.add.
std::string shortName(const KernelContext &ctx);
/// `relu_`, `add_`: the op writes its result into operand 0.
bool isInplaceOp(const KernelContext &ctx);
/// Operand `i` on the device (uploaded when it is a host tensor); RuntimeError when absent.
Tensor deviceInput(KernelContext &ctx, size_t i);
/// Result 0: `x` itself for an inplace op (which must have `shape` and `dtype`), else a new
/// device tensor.
Tensor resultTensor(KernelContext &ctx, const Tensor &x, const std::vector<int64_t> &shape, DataType dtype);
bool sharesStorage(const Tensor &a, const Tensor &b);

/// Operand `i` as integers when present, else attribute `name`, else `fallback`.
std::vector<int64_t> intsOperandOrAttr(const KernelContext &ctx, size_t i, std::string_view name,
    std::optional<std::vector<int64_t>> fallback = std::nullopt);
/// Operand `i` as one number when present, else attribute `name`, else `fallback`.
double scalarOperandOrAttr(
    const KernelContext &ctx, size_t i, std::string_view name, std::optional<double> fallback = std::nullopt);
/// `axis` in [-rank, rank) mapped to [0, rank); RuntimeError naming `what` otherwise.
size_t normalizeAxis(int64_t axis, size_t rank, std::string_view what = "axis");
/// Result `i` exists and its declared type is not null (a grad the program may read).
bool wanted(const KernelContext &ctx, size_t i);
/// The dtype of result `i` declared in the IR (Undefined when the type has none).
DataType declaredDtype(const KernelContext &ctx, size_t i);

} // namespace ps::cuda
