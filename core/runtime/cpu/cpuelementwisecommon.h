#pragma once

// Helpers shared by the CPU elementwise and shape kernels (internal to core/runtime/cpu): the
// inplace convention, IntArray/Scalar arguments that are operands in PIR but attributes in older
// programs, axis normalisation, and the typed unary/binary loops.

#include "core/runtime/cpu/cpubroadcast.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ps {
class KernelRegistry;
}

namespace ps::cpuew {

/// The parts of registerCpuElementwiseKernels, one per source file.
void registerUnaryKernels(KernelRegistry &registry);
void registerCreationKernels(KernelRegistry &registry);
/// The parts of registerCpuShapeKernels.
void registerIndexingKernels(KernelRegistry &registry);

template<class T>
inline constexpr bool kIsFloating
    = std::is_floating_point_v<T> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;
template<class T> inline constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// "add" for pd_op.add: the label put in front of dtype errors.
std::string shortName(const KernelContext &ctx);
/// `relu_`, `add_`, `scale_`: the op writes its result into operand 0.
bool isInplaceOp(const KernelContext &ctx);
/// Where result 0 goes: operand 0 itself for an inplace op (which must have `shape` and `dtype`;
/// otherwise RuntimeError), a new tensor otherwise.
Tensor resultTensor(const KernelContext &ctx, const std::vector<int64_t> &shape, DataType dtype);
/// Both tensors view the same storage (an inplace write could clobber an unread input).
bool sharesStorage(const Tensor &a, const Tensor &b);

/// Operand `i` as integers when the op has it (PIR makes IntArray/Scalar arguments operands),
/// else attribute `name` (older programs), else `fallback`; RuntimeError when none applies.
std::vector<int64_t> intsOperandOrAttr(const KernelContext &ctx, size_t i, std::string_view name,
    std::optional<std::vector<int64_t>> fallback = std::nullopt);
/// As intsOperandOrAttr for one number (a 0-d or 1-element operand).
double scalarOperandOrAttr(
    const KernelContext &ctx, size_t i, std::string_view name, std::optional<double> fallback = std::nullopt);
/// `axis` in [-rank, rank) mapped to [0, rank); RuntimeError naming `what` otherwise.
size_t normalizeAxis(int64_t axis, size_t rank, std::string_view what = "axis");
/// Numbers of an array attribute (ints, floats or bools; a Scalar[] such as `values`).
std::vector<double> numbersAttr(const KernelContext &ctx, std::string_view name);

/// out[i] = fn(x[i]) computed in ComputeType<T>, stored as R. `out` may be `x` itself.
template<class T, class R, class Fn> void mapUnary(const Tensor &x, Tensor &out, Fn &&fn)
{
    using C = ComputeType<T>;
    const T *px = x.data<T>();
    R *po = out.data<R>();
    const int64_t n = x.numElements();
    for (int64_t i = 0; i < n; ++i)
        po[i] = convertElement<R>(fn(convertElement<C>(px[i])));
}

/// out = fn(x, y) with NumPy broadcasting to out.shape(), computed in ComputeType<T>, stored as R.
/// `out` may alias `x` when it has x's shape and y does not share its storage.
template<class T, class R, class Fn> void mapBinary(const Tensor &x, const Tensor &y, Tensor &out, Fn &&fn)
{
    using C = ComputeType<T>;
    const BroadcastPlan plan(out.shape(), { x.shape(), y.shape() });
    const T *px = x.data<T>();
    const T *py = y.data<T>();
    R *po = out.data<R>();
    const int64_t n = plan.rowSize(), sx = plan.rowStride(0), sy = plan.rowStride(1);
    plan.forEachRow([&](int64_t o, const int64_t *off) {
        const T *a = px + off[0];
        const T *b = py + off[1];
        R *r = po + o;
        if (sx == 1 && sy == 1) {
            for (int64_t i = 0; i < n; ++i)
                r[i] = convertElement<R>(fn(convertElement<C>(a[i]), convertElement<C>(b[i])));
        } else {
            for (int64_t i = 0; i < n; ++i)
                r[i] = convertElement<R>(fn(convertElement<C>(a[i * sx]), convertElement<C>(b[i * sy])));
        }
    });
}

} // namespace ps::cpuew
