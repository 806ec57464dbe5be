// Binary elementwise ops with NumPy broadcasting: arithmetic, comparisons, logical ops, where.
// The unary ops live in cpuelementwiseunary.cpp, the tensor-creating ones in
// cpuelementwisecreate.cpp.

#include "core/runtime/cpu/cpuelementwisecommon.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <cmath>
#include <cstring>

namespace ps {
namespace {

using namespace cpuew;

template<class C> void requireNonZeroDivisor(C b)
{
    if (b == C(0))
        throw RuntimeError("integer division by zero");
}

/// a / b, a % b without the overflow trap of INT_MIN / -1 (wraps as two's complement).
template<class C> C wrappingQuotient(C a, C b)
{
    if constexpr (std::is_signed_v<C>)
        if (b == C(-1))
            return C(std::make_unsigned_t<C>(0) - std::make_unsigned_t<C>(a));
    return C(a / b);
}

template<class C> C wrappingRemainder(C a, C b)
{
    if constexpr (std::is_signed_v<C>)
        if (b == C(-1))
            return C(0);
    return C(a % b);
}

// Each op: `kBool` whether bool operands are accepted, and a call operator on the compute type
// (float for float16/bfloat16/float32, double, or the integer type itself).

struct AddOp
{
    static constexpr bool kBool = true;
    template<class C> auto operator()(C a, C b) const { return a + b; }
};

struct SubtractOp
{
    static constexpr bool kBool = false;
    template<class C> auto operator()(C a, C b) const { return a - b; }
};

struct MultiplyOp
{
    static constexpr bool kBool = true;
    template<class C> auto operator()(C a, C b) const { return a * b; }
};

/// Integers truncate toward zero as in C++ (and Paddle's integer kernel).
struct DivideOp
{
    static constexpr bool kBool = false;
    template<class C> C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>) {
            requireNonZeroDivisor(b);
            return wrappingQuotient(a, b);
        } else {
            return a / b;
        }
    }
};

/// Python/NumPy floor division; x / 0 follows IEEE for floats.
struct FloorDivideOp
{
    static constexpr bool kBool = false;
    template<class C> C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>) {
            requireNonZeroDivisor(b);
            const C q = wrappingQuotient(a, b);
            return (wrappingRemainder(a, b) != 0 && ((a < 0) != (b < 0))) ? C(q - 1) : q;
        } else {
            if (b == C(0))
                return a / b;
            const C mod = std::fmod(a, b);
            C div = (a - mod) / b;
            if (mod != C(0) && ((b < C(0)) != (mod < C(0))))
                div -= C(1);
            if (div == C(0))
                return std::copysign(C(0), a / b);
            C floorDiv = std::floor(div);
            if (div - floorDiv > C(0.5))
                floorDiv += C(1);
            return floorDiv;
        }
    }
};

/// The result takes the divisor's sign (Python's %); x % 0 is NaN for floats.
struct RemainderOp
{
    static constexpr bool kBool = false;
    template<class C> C operator()(C a, C b) const
    {
        C r;
        if constexpr (std::is_integral_v<C>) {
            requireNonZeroDivisor(b);
            r = wrappingRemainder(a, b);
        } else {
            r = std::fmod(a, b);
        }
        return (r != C(0) && ((r < C(0)) != (b < C(0)))) ? C(r + b) : r;
    }
};

/// NaN propagates (as Paddle and NumPy).
struct MaximumOp
{
    static constexpr bool kBool = true;
    template<class C> C operator()(C a, C b) const
    {
        if constexpr (std::is_floating_point_v<C>)
            if (std::isnan(a) || std::isnan(b))
                return std::isnan(a) ? a : b;
        return a > b ? a : b;
    }
};

struct MinimumOp
{
    static constexpr bool kBool = true;
    template<class C> C operator()(C a, C b) const
    {
        if constexpr (std::is_floating_point_v<C>)
            if (std::isnan(a) || std::isnan(b))
                return std::isnan(a) ? a : b;
        return a < b ? a : b;
    }
};

/// Integers: llrint(pow(double, double)), as Paddle's integer kernel.
struct PowOp
{
    static constexpr bool kBool = false;
    template<class C> C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>)
            return C(std::llrint(std::pow(double(a), double(b))));
        else
            return std::pow(a, b);
    }
};

struct EqualOp
{
    template<class C> bool operator()(C a, C b) const { return a == b; }
};
struct NotEqualOp
{
    template<class C> bool operator()(C a, C b) const { return a != b; }
};
struct LessThanOp
{
    template<class C> bool operator()(C a, C b) const { return a < b; }
};
struct LessEqualOp
{
    template<class C> bool operator()(C a, C b) const { return a <= b; }
};
struct GreaterThanOp
{
    template<class C> bool operator()(C a, C b) const { return a > b; }
};
struct GreaterEqualOp
{
    template<class C> bool operator()(C a, C b) const { return a >= b; }
};
struct LogicalAndOp
{
    template<class C> bool operator()(C a, C b) const { return a != C(0) && b != C(0); }
};
struct LogicalOrOp
{
    template<class C> bool operator()(C a, C b) const { return a != C(0) || b != C(0); }
};
struct LogicalXorOp
{
    template<class C> bool operator()(C a, C b) const { return (a != C(0)) != (b != C(0)); }
};

void requireSameDtype(const Tensor &x, const Tensor &y, std::string_view what)
{
    if (x.dtype() != y.dtype())
        throw RuntimeError(std::string(what) + ": x is " + x.describe() + " but y is " + y.describe()
            + "; both operands need one dtype");
}

/// The broadcast result shape of x and y; names both shapes (and the op) on failure.
std::vector<int64_t> resultShape(const KernelContext &ctx, const Tensor &x, const Tensor &y)
{
    try {
        return broadcastShapes(x.shape(), y.shape());
    } catch (const RuntimeError &e) {
        throw RuntimeError(
            shortName(ctx) + ": " + e.what() + " (x " + x.describe() + ", y " + y.describe() + ")");
    }
}

/// Runs `body(out)` writing result 0; for an inplace op whose other operands share x's storage at
/// another offset or shape, writes into a scratch tensor first and copies it into x afterwards.
template<class Body>
void writeResult(KernelContext &ctx, const std::vector<int64_t> &shape, DataType dtype,
    std::initializer_list<const Tensor *> others, Body &&body)
{
    Tensor out = resultTensor(ctx, shape, dtype);
    bool overlap = false;
    if (isInplaceOp(ctx))
        for (const Tensor *t : others)
            overlap = overlap
                || (sharesStorage(*t, out)
                    && (t->byteOffset() != out.byteOffset() || t->shape() != out.shape()));
    if (!overlap) {
        body(out);
    } else {
        Tensor scratch = ctx.allocate(shape, dtype);
        body(scratch);
        std::memcpy(out.rawData(), scratch.rawData(), out.byteSize());
    }
    ctx.setOutput(0, out);
}

/// Arithmetic: result dtype = operand dtype.
template<class Op> void arithmeticKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &y = ctx.input(1);
    const std::string name = shortName(ctx);
    requireSameDtype(x, y, name);
    writeResult(ctx, resultShape(ctx, x, y), x.dtype(), { &y }, [&](Tensor &out) {
        dispatchDtype(x.dtype(), name.c_str(), [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_same_v<T, bool> && !Op::kBool)
                throw RuntimeError(name + ": bool tensors are not supported");
            else
                mapBinary<T, T>(x, y, out, Op {});
        });
    });
}

/// Comparisons and logical ops: bool result. Logical ops accept any dtype (nonzero is true).
template<class Op> void predicateKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &y = ctx.input(1);
    const std::string name = shortName(ctx);
    requireSameDtype(x, y, name);
    Tensor out = ctx.allocate(resultShape(ctx, x, y), DataType::Bool);
    dispatchDtype(x.dtype(), name.c_str(), [&](auto tag) {
        using T = decltype(tag);
        mapBinary<T, bool>(x, y, out, Op {});
    });
    ctx.setOutput(0, out);
}

/// out = condition ? x : y, the three broadcast together.
void whereKernel(KernelContext &ctx)
{
    const Tensor &cond = ctx.input(0), &x = ctx.input(1), &y = ctx.input(2);
    if (cond.dtype() != DataType::Bool)
        throw RuntimeError("where: condition must be bool, got " + cond.describe());
    requireSameDtype(x, y, "where");
    const size_t bytes = x.elementSize();
    if (bytes == 0)
        throw RuntimeError("where: unsupported dtype " + std::string(phiName(x.dtype())));
    std::vector<int64_t> shape;
    try {
        shape = broadcastShapes(broadcastShapes(cond.shape(), x.shape()), y.shape());
    } catch (const RuntimeError &e) {
        throw RuntimeError(std::string("where: ") + e.what() + " (condition " + cond.describe() + ", x "
            + x.describe() + ", y " + y.describe() + ")");
    }
    // where_ writes into x (operand 1), not operand 0.
    Tensor out;
    if (isInplaceOp(ctx)) {
        if (x.shape() != shape)
            throw RuntimeError(
                "inplace where_ cannot broadcast x " + x.describe() + " to " + shapeText(shape));
        out = (sharesStorage(x, y) || sharesStorage(x, cond)) ? ctx.allocate(shape, x.dtype()) : x;
    } else {
        out = ctx.allocate(shape, x.dtype());
    }
    const BroadcastPlan plan(shape, { cond.shape(), x.shape(), y.shape() });
    const bool *pc = cond.data<bool>();
    const char *px = static_cast<const char *>(x.rawData());
    const char *py = static_cast<const char *>(y.rawData());
    char *po = static_cast<char *>(out.rawData());
    const int64_t n = plan.rowSize();
    const int64_t sc = plan.rowStride(0), sx = plan.rowStride(1), sy = plan.rowStride(2);
    plan.forEachRow([&](int64_t o, const int64_t *off) {
        for (int64_t i = 0; i < n; ++i) {
            const char *src
                = pc[off[0] + i * sc] ? px + (off[1] + i * sx) * bytes : py + (off[2] + i * sy) * bytes;
            std::memcpy(po + (o + i) * bytes, src, bytes);
        }
    });
    if (isInplaceOp(ctx) && out.storage() != x.storage()) {
        Tensor target = x;
        std::memcpy(target.rawData(), out.rawData(), out.byteSize());
        out = target;
    }
    ctx.setOutput(0, out);
}

} // namespace

void registerCpuElementwiseKernels(KernelRegistry &registry)
{
    const auto both = [&registry](const char *name, KernelFn fn) {
        registry.add(std::string("pd_op.") + name, fn);
        registry.add(std::string("pd_op.") + name + "_", fn);
    };
    both("add", &arithmeticKernel<AddOp>);
    both("subtract", &arithmeticKernel<SubtractOp>);
    both("multiply", &arithmeticKernel<MultiplyOp>);
    both("divide", &arithmeticKernel<DivideOp>);
    both("floor_divide", &arithmeticKernel<FloorDivideOp>);
    both("remainder", &arithmeticKernel<RemainderOp>);
    registry.add("pd_op.maximum", &arithmeticKernel<MaximumOp>);
    registry.add("pd_op.minimum", &arithmeticKernel<MinimumOp>);
    registry.add("pd_op.elementwise_pow", &arithmeticKernel<PowOp>);

    registry.add("pd_op.equal", &predicateKernel<EqualOp>);
    registry.add("pd_op.not_equal", &predicateKernel<NotEqualOp>);
    registry.add("pd_op.less_than", &predicateKernel<LessThanOp>);
    registry.add("pd_op.less_equal", &predicateKernel<LessEqualOp>);
    registry.add("pd_op.greater_than", &predicateKernel<GreaterThanOp>);
    registry.add("pd_op.greater_equal", &predicateKernel<GreaterEqualOp>);
    registry.add("pd_op.logical_and", &predicateKernel<LogicalAndOp>);
    registry.add("pd_op.logical_or", &predicateKernel<LogicalOrOp>);
    registry.add("pd_op.logical_xor", &predicateKernel<LogicalXorOp>);

    both("where", &whereKernel);

    cpuew::registerUnaryKernels(registry);
    cpuew::registerCreationKernels(registry);
}

} // namespace ps
