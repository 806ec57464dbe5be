#pragma once

// Host-side argument handling shared by the CPU and CUDA kernels: op names, the inplace
// convention, PIR's IntArray/Scalar arguments (operands in PIR, attributes in older programs),
// axis normalisation and dtype checks. One copy for both backends; the messages are the CPU
// oracle's.

#include "core/ir/datatype.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {
class KernelContext;
}

namespace ps::kernels {

/// "add" for pd_op.add: the label put in front of kernel errors.
std::string shortName(const KernelContext &ctx);
/// `relu_`, `add_`, `scale_`: the op writes its result into an operand.
bool isInplaceOp(const KernelContext &ctx);
/// Both tensors view the same storage (an inplace write could clobber an unread input).
bool sharesStorage(const Tensor &a, const Tensor &b);
/// Where result 0 goes: `x` itself for an inplace op (which must have `shape` and `dtype`;
/// otherwise RuntimeError), a new tensor on the backend's device otherwise.
Tensor resultTensor(
    const KernelContext &ctx, const Tensor &x, const std::vector<int64_t> &shape, DataType dtype);

/// Operand `i` as integers when the op has it, else attribute `name` (older programs), else
/// `fallback`; RuntimeError when none applies. Device operands are read through the backend.
std::vector<int64_t> intsOperandOrAttr(const KernelContext &ctx, size_t i, std::string_view name,
    std::optional<std::vector<int64_t>> fallback = std::nullopt);
/// As intsOperandOrAttr for one number (a 0-d or 1-element operand).
double scalarOperandOrAttr(
    const KernelContext &ctx, size_t i, std::string_view name, std::optional<double> fallback = std::nullopt);
/// Reduction axes: int operand `i` when the op has it (full_int_array), else attribute `axis`
/// (one integer or a list), else none (reduce everything).
std::vector<int64_t> axesOperandOrAttr(const KernelContext &ctx, size_t i);
/// One axis: the first element of int operand `i` when the op has it, else attribute `axis`,
/// else `fallback` (concat/split grads).
int64_t scalarAxis(const KernelContext &ctx, size_t i, int64_t fallback);
/// Numbers of an array attribute (ints, floats or bools; a Scalar[] such as `values`).
std::vector<double> numbersAttr(const KernelContext &ctx, std::string_view name);

/// `axis` in [-rank, rank) mapped to [0, rank); RuntimeError "WHAT AXIS is out of range for rank
/// R" otherwise.
int64_t normalizeAxis(int64_t axis, int64_t rank, std::string_view what = "axis");
/// As normalizeAxis, but a 0-d tensor accepts axis 0 and -1 (reductions, softmax, argmax treat
/// it as a vector of one element).
int64_t normalizeAxisOrScalar(int64_t axis, int64_t rank, std::string_view what = "axis");
/// `shape` as [outer, size, inner] around `axis` (normalised as normalizeAxisOrScalar; the error
/// says "WHAT axis ...").
AxisSplit splitAtAxisChecked(const std::vector<int64_t> &shape, int64_t axis, std::string_view what);

/// Result `i` exists and its declared type is not null (a grad the program may read).
bool wanted(const KernelContext &ctx, size_t i);
/// The dtype of result `i` declared in the IR (Undefined when the type has none).
DataType declaredDtype(const KernelContext &ctx, size_t i);

/// Data format attribute ("NCHW", "NHWC", "AnyLayout", "NCL", ...) is channels-last.
bool isChannelsLast(const std::string &format);

/// float32, float64, float16, bfloat16.
bool isFloatingType(DataType dtype);
/// float16, bfloat16.
bool isHalfType(DataType dtype);
/// RuntimeError "WHAT expects a floating-point tensor, got float32[2]" unless `t` is a float.
void requireFloating(const Tensor &t, std::string_view what);
/// RuntimeError for bool and for dtypes the runtime does not support.
void requireNumeric(const Tensor &t, std::string_view what);
/// The NumPy broadcast of x's and y's shapes; the error names the op and both operands.
std::vector<int64_t> binaryResultShape(const KernelContext &ctx, const Tensor &x, const Tensor &y);
/// The shapes of a broadcasting binary op's grad, aligned to one rank (older programs' `axis`
/// attribute places the lower-rank operand): `out` is out_grad's, `x`/`y` the operands'.
struct BinaryGradShapes
{
    std::vector<int64_t> out, x, y;
};
/// RuntimeError naming all three when out_grad is not the broadcast of x and y.
BinaryGradShapes binaryGradShapes(
    const KernelContext &ctx, const Tensor &x, const Tensor &y, const Tensor &grad);
/// RuntimeError "WHAT: x is ... but y is ...; both operands need one dtype".
void requireSameDtype(const Tensor &x, const Tensor &y, std::string_view what);

/// Every element of host tensor `t` set to `value` (a double, or an int64 for an exact integer
/// fill) converted to its dtype.
template<class V> void fillHost(Tensor &t, V value)
{
    dispatchDtype(t.dtype(), "fill", [&](auto tag) {
        using T = decltype(tag);
        const T v = convertElement<T>(value);
        T *p = t.data<T>();
        const int64_t n = t.numElements();
        for (int64_t i = 0; i < n; ++i)
            p[i] = v;
    });
}

} // namespace ps::kernels
