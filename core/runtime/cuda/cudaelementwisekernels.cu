// Binary elementwise ops with NumPy broadcasting: arithmetic, comparisons, logical ops, where.
// Semantics follow core/runtime/cpu/cpuelementwisekernels.cpp; integer division by zero cannot
// throw on the device, so it sets a deferred device error (reported by synchronize()).

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudakernelutil.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudamath.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelregistry.h"

namespace ps {
namespace {

using namespace cuda;

/// Integer division helpers without the INT_MIN / -1 trap; a zero divisor flags a device error.
template<class C> __device__ __forceinline__ C quotient(C a, C b, volatile uint32_t *err)
{
    if (b == C(0)) {
        *err = uint32_t(CudaDeviceError::DivideByZero);
        return C(0);
    }
    if constexpr (std::is_signed_v<C>)
        if (b == C(-1))
            return C(std::make_unsigned_t<C>(0) - std::make_unsigned_t<C>(a));
    return C(a / b);
}

template<class C> __device__ __forceinline__ C remainderOf(C a, C b, volatile uint32_t *err)
{
    if (b == C(0)) {
        *err = uint32_t(CudaDeviceError::DivideByZero);
        return C(0);
    }
    if constexpr (std::is_signed_v<C>)
        if (b == C(-1))
            return C(0);
    return C(a % b);
}

struct ArithmeticBase
{
    volatile uint32_t *err = nullptr;
};

struct AddOp : ArithmeticBase
{
    static constexpr bool kBool = true;
    template<class C> __device__ C operator()(C a, C b) const { return C(a + b); }
};
struct SubtractOp : ArithmeticBase
{
    static constexpr bool kBool = false;
    template<class C> __device__ C operator()(C a, C b) const { return C(a - b); }
};
struct MultiplyOp : ArithmeticBase
{
    static constexpr bool kBool = true;
    template<class C> __device__ C operator()(C a, C b) const { return C(a * b); }
};
struct DivideOp : ArithmeticBase
{
    static constexpr bool kBool = false;
    template<class C> __device__ C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>)
            return quotient(a, b, err);
        else
            return a / b;
    }
};
/// Python/NumPy floor division.
struct FloorDivideOp : ArithmeticBase
{
    static constexpr bool kBool = false;
    template<class C> __device__ C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>) {
            const C q = quotient(a, b, err);
            return (b != C(0) && remainderOf(a, b, err) != 0 && (isNegative(a) != isNegative(b))) ? C(q - 1)
                                                                                                  : q;
        } else {
            if (b == C(0))
                return a / b;
            const C mod = dm::fmod(a, b);
            C div = (a - mod) / b;
            if (mod != C(0) && ((b < C(0)) != (mod < C(0))))
                div -= C(1);
            if (div == C(0))
                return dm::copysign(C(0), a / b);
            C floorDiv = dm::floor(div);
            if (div - floorDiv > C(0.5))
                floorDiv += C(1);
            return floorDiv;
        }
    }
};
/// The result takes the divisor's sign (Python's %).
struct RemainderOp : ArithmeticBase
{
    static constexpr bool kBool = false;
    template<class C> __device__ C operator()(C a, C b) const
    {
        C r;
        if constexpr (std::is_integral_v<C>)
            r = remainderOf(a, b, err);
        else
            r = dm::fmod(a, b);
        return (r != C(0) && (isNegative(r) != isNegative(b))) ? C(r + b) : r;
    }
};
/// NaN propagates.
struct MaximumOp : ArithmeticBase
{
    static constexpr bool kBool = true;
    template<class C> __device__ C operator()(C a, C b) const
    {
        if constexpr (std::is_floating_point_v<C>)
            if (a != a || b != b)
                return a != a ? a : b;
        return a > b ? a : b;
    }
};
struct MinimumOp : ArithmeticBase
{
    static constexpr bool kBool = true;
    template<class C> __device__ C operator()(C a, C b) const
    {
        if constexpr (std::is_floating_point_v<C>)
            if (a != a || b != b)
                return a != a ? a : b;
        return a < b ? a : b;
    }
};
/// Integers: llrint(pow(double, double)).
struct PowOp : ArithmeticBase
{
    static constexpr bool kBool = false;
    template<class C> __device__ C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>)
            return C(llrint(::pow(double(a), double(b))));
        else
            return dm::pow(a, b);
    }
};

struct EqualOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return a == b; }
};
struct NotEqualOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return a != b; }
};
struct LessThanOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return a < b; }
};
struct LessEqualOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return a <= b; }
};
struct GreaterThanOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return a > b; }
};
struct GreaterEqualOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return a >= b; }
};
struct LogicalAndOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return a != C(0) && b != C(0); }
};
struct LogicalOrOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return a != C(0) || b != C(0); }
};
struct LogicalXorOp
{
    template<class C> __device__ bool operator()(C a, C b) const { return (a != C(0)) != (b != C(0)); }
};

/// out = op(x, y) broadcast to out's shape, computed in Acc<T>, stored as R.
template<class T, class R, class Op>
void runBinary(const CudaRuntime &rt, const Op op, const Tensor &x, const Tensor &y, Tensor &out)
{
    IndexSpace<2> space;
    space.sizes = out.shape();
    const std::vector<int64_t> sx = broadcastStrides(x.shape(), out.shape());
    const std::vector<int64_t> sy = broadcastStrides(y.shape(), out.shape());
    for (size_t d = 0; d < space.sizes.size(); ++d)
        space.strides.push_back({ sx[d], sy[d] });
    space.coalesce();
    const T *px = static_cast<const T *>(x.rawData());
    const T *py = static_cast<const T *>(y.rawData());
    R *po = static_cast<R *>(out.rawData());
    launchIndexed(
        rt, space,
        [=] __device__(int64_t i, Offsets<2> o) { po[i] = store<R>(op(load(px[o.v[0]]), load(py[o.v[1]]))); },
        "binary elementwise");
}

void requireSameDtype(const Tensor &x, const Tensor &y, const std::string &what)
{
    if (x.dtype() != y.dtype())
        throw RuntimeError(
            what + ": x is " + x.describe() + " but y is " + y.describe() + "; both operands need one dtype");
}

std::vector<int64_t> resultShape(const KernelContext &ctx, const Tensor &x, const Tensor &y)
{
    try {
        return broadcastShape(x.shape(), y.shape(), "broadcast");
    } catch (const RuntimeError &e) {
        throw RuntimeError(
            shortName(ctx) + ": " + e.what() + " (x " + x.describe() + ", y " + y.describe() + ")");
    }
}

/// Runs body(out) for result 0; an inplace op whose other operand overlaps x differently goes
/// through a scratch tensor copied into x afterwards.
template<class Body>
void writeResult(KernelContext &ctx, CudaRuntime &rt, const Tensor &x, const std::vector<int64_t> &shape,
    DataType dtype, std::initializer_list<const Tensor *> others, Body &&body)
{
    Tensor out = resultTensor(ctx, x, shape, dtype);
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
        checkCuda(cudaMemcpyAsync(
                      out.rawData(), scratch.rawData(), out.byteSize(), cudaMemcpyDeviceToDevice, rt.stream),
            "inplace copy");
    }
    ctx.setOutput(0, out);
}

template<class Op> void arithmeticKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0), y = deviceInput(ctx, 1);
    const std::string name = shortName(ctx);
    requireSameDtype(x, y, name);
    Op op;
    op.err = rt.deviceError;
    writeResult(ctx, rt, x, resultShape(ctx, x, y), x.dtype(), { &y }, [&](Tensor &out) {
        dispatchAll(x.dtype(), name.c_str(), [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_same_v<T, bool> && !Op::kBool)
                throw RuntimeError(name + ": bool tensors are not supported");
            else
                runBinary<T, T>(rt, op, x, y, out);
        });
    });
}

template<class Op> void predicateKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0), y = deviceInput(ctx, 1);
    const std::string name = shortName(ctx);
    requireSameDtype(x, y, name);
    Tensor out = ctx.allocate(resultShape(ctx, x, y), DataType::Bool);
    dispatchAll(x.dtype(), name.c_str(), [&](auto tag) {
        using T = decltype(tag);
        runBinary<T, bool>(rt, Op {}, x, y, out);
    });
    ctx.setOutput(0, out);
}

template<class T>
void runWhere(const CudaRuntime &rt, const Tensor &cond, const Tensor &x, const Tensor &y, Tensor &out)
{
    IndexSpace<3> space;
    space.sizes = out.shape();
    const std::vector<int64_t> sc = broadcastStrides(cond.shape(), out.shape());
    const std::vector<int64_t> sx = broadcastStrides(x.shape(), out.shape());
    const std::vector<int64_t> sy = broadcastStrides(y.shape(), out.shape());
    for (size_t d = 0; d < space.sizes.size(); ++d)
        space.strides.push_back({ sc[d], sx[d], sy[d] });
    space.coalesce();
    const bool *pc = static_cast<const bool *>(cond.rawData());
    const T *px = static_cast<const T *>(x.rawData());
    const T *py = static_cast<const T *>(y.rawData());
    T *po = static_cast<T *>(out.rawData());
    launchIndexed(
        rt, space, [=] __device__(int64_t i, Offsets<3> o) { po[i] = pc[o.v[0]] ? px[o.v[1]] : py[o.v[2]]; },
        "where");
}

/// out = condition ? x : y, the three broadcast together; where_ writes into x (operand 1).
void whereKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor cond = deviceInput(ctx, 0), x = deviceInput(ctx, 1), y = deviceInput(ctx, 2);
    if (cond.dtype() != DataType::Bool)
        throw RuntimeError("where: condition must be bool, got " + cond.describe());
    requireSameDtype(x, y, "where");
    std::vector<int64_t> shape;
    try {
        shape = broadcastShape(broadcastShape(cond.shape(), x.shape(), "where"), y.shape(), "where");
    } catch (const RuntimeError &e) {
        throw RuntimeError(std::string(e.what()) + " (condition " + cond.describe() + ", x " + x.describe()
            + ", y " + y.describe() + ")");
    }
    Tensor out;
    const bool inplace = isInplaceOp(ctx);
    if (inplace && x.shape() != shape)
        throw RuntimeError("inplace where_ cannot broadcast x " + x.describe() + " to " + shapeText(shape));
    out = (inplace && !sharesStorage(x, y) && !sharesStorage(x, cond)) ? x : ctx.allocate(shape, x.dtype());
    dispatchAll(x.dtype(), "where", [&](auto tag) { runWhere<decltype(tag)>(rt, cond, x, y, out); });
    if (inplace && out.storage() != x.storage()) {
        Tensor target = x;
        checkCuda(cudaMemcpyAsync(
                      target.rawData(), out.rawData(), out.byteSize(), cudaMemcpyDeviceToDevice, rt.stream),
            "where_");
        out = target;
    }
    ctx.setOutput(0, out);
}

template<class Op> Tensor binaryWith(CudaRuntime &rt, const Tensor &x, const Tensor &y)
{
    requireSameDtype(x, y, "binary");
    Tensor out = rt.allocate(broadcastShape(x.shape(), y.shape(), "binary"), x.dtype());
    Op op;
    op.err = rt.deviceError;
    dispatchArithmetic(
        x.dtype(), "binary", [&](auto tag) { runBinary<decltype(tag), decltype(tag)>(rt, op, x, y, out); });
    return out;
}

} // namespace

namespace cuda {

std::vector<int64_t> broadcastShape(
    const std::vector<int64_t> &a, const std::vector<int64_t> &b, const char *what)
{
    const size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> out(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            throw RuntimeError(
                std::string(what) + ": cannot broadcast " + shapeText(a) + " with " + shapeText(b));
        out[i] = da == 1 ? db : da;
    }
    return out;
}

Tensor binary(CudaRuntime &rt, BinaryOp op, const Tensor &x, const Tensor &y)
{
    switch (op) {
    case BinaryOp::Add:
        return binaryWith<AddOp>(rt, x, y);
    case BinaryOp::Subtract:
        return binaryWith<SubtractOp>(rt, x, y);
    case BinaryOp::Multiply:
        return binaryWith<MultiplyOp>(rt, x, y);
    case BinaryOp::Divide:
        return binaryWith<DivideOp>(rt, x, y);
    case BinaryOp::Maximum:
        return binaryWith<MaximumOp>(rt, x, y);
    case BinaryOp::Minimum:
        return binaryWith<MinimumOp>(rt, x, y);
    case BinaryOp::Pow:
        return binaryWith<PowOp>(rt, x, y);
    case BinaryOp::FloorDivide:
        return binaryWith<FloorDivideOp>(rt, x, y);
    case BinaryOp::Remainder:
        return binaryWith<RemainderOp>(rt, x, y);
    }
    throw RuntimeError("binary: unknown op");
}

} // namespace cuda

void registerCudaElementwiseKernels(KernelRegistry &registry)
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
}

} // namespace ps
