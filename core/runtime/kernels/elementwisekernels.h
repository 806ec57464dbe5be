#pragma once

// The elementwise kernels of both backends, written once over an execution policy `Exec`
// (cpu/cpuexec.h runs a functor in a host loop, cuda/cudaexec.cuh in a CUDA grid; see
// kernels/README.md): unary ops, cast, binary arithmetic and comparisons with NumPy
// broadcasting, where. The per-element math is in unaryfunctors.h and binaryfunctors.h.

#include "core/dialect/opregistry.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/binaryfunctors.h"
#include "core/runtime/kernels/elementtraits.h"
#include "core/runtime/kernels/indexspace.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/unaryfunctors.h"
#include "core/runtime/runtimeerror.h"

#include <string>

namespace ps::kernels {

template<Domain D, class T>
inline constexpr bool kAccepts
    = D == Domain::Any || (D == Domain::Numeric && !std::is_same_v<T, bool>) || kIsFloatingElement<T>;

template<class Op> Op makeOp(const KernelContext &ctx)
{
    if constexpr (std::is_constructible_v<Op, const KernelContext &>)
        return Op(ctx);
    else
        return Op {};
}

/// out[i] = op(x[i]) in the compute type of T, stored as R. `out` may be `x`.
template<class T, class R, class Op> struct UnaryMap
{
    const T *x;
    R *out;
    Op op;
    PS_HOST_DEVICE void operator()(int64_t i) const { out[i] = storeElement<R>(op(loadElement(x[i]))); }
};

/// out[i] = op(x[o0], y[o1]) over a broadcast index space.
template<class T, class R, class Op> struct BinaryMap
{
    const T *x;
    const T *y;
    R *out;
    Op op;
    PS_HOST_DEVICE void operator()(int64_t i, Offsets<2> o) const
    {
        out[i] = storeElement<R>(op(loadElement(x[o.v[0]]), loadElement(y[o.v[1]])));
    }
};

/// out[i] = cond[o0] ? x[o1] : y[o2], moved as E (an unsigned type of the element's size).
template<class E> struct WhereMap
{
    const bool *cond;
    const E *x;
    const E *y;
    E *out;
    PS_HOST_DEVICE void operator()(int64_t i, Offsets<3> o) const
    {
        out[i] = cond[o.v[0]] ? x[o.v[1]] : y[o.v[2]];
    }
};

/// Paddle's cast: floats to integers as x86 converts them (floatToInteger), bool through int.
template<class To, class From> PS_HOST_DEVICE PS_INLINE To castElement(From v)
{
    if constexpr (kIsFloatingElement<From> && kIsIntegerElement<To>)
        return floatToInteger<To>(double(loadElement(v)));
    else if constexpr (std::is_same_v<From, bool>)
        return storeElement<To>(int(v));
    else
        return storeElement<To>(loadElement(v));
}

template<class From, class To> struct CastMap
{
    const From *x;
    To *out;
    PS_HOST_DEVICE void operator()(int64_t i) const { out[i] = castElement<To>(x[i]); }
};

/// `x` converted into `out` (same element count, any dtypes; the same dtype copies).
template<class Exec> void castInto(const Exec &exec, const Tensor &x, Tensor &out)
{
    if (x.numElements() != out.numElements())
        throw RuntimeError("cast: " + x.describe() + " into " + out.describe());
    if (x.dtype() == out.dtype()) {
        if (x.rawData() != out.rawData())
            exec.copy(out, x);
        return;
    }
    Exec::dispatchAll(x.dtype(), "cast", [&](auto fromTag) {
        using From = decltype(fromTag);
        Exec::dispatchAll(out.dtype(), "cast", [&](auto toTag) {
            using To = decltype(toTag);
            exec.launch(x.numElements(),
                CastMap<From, To> {
                    static_cast<const From *>(x.rawData()), static_cast<To *>(out.rawData()) },
                "cast");
        });
    });
}

/// `x` converted to `dtype` on the exec's device (the same handle when it already has it).
template<class Exec> Tensor castTo(const Exec &exec, const Tensor &x, DataType dtype)
{
    if (x.dtype() == dtype)
        return x;
    Tensor out = exec.allocate(x.shape(), dtype);
    castInto(exec, x, out);
    return out;
}

template<class Exec, class Op> void unaryKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    const std::string name = shortName(ctx);
    const Op op = makeOp<Op>(ctx);
    Tensor out = resultTensor(ctx, x, x.shape(), Op::kBoolResult ? DataType::Bool : x.dtype());
    Exec::dispatchAll(x.dtype(), name.c_str(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!kAccepts<Op::kDomain, T>) {
            throw RuntimeError(name + ": " + x.describe() + " is not supported"
                + (Op::kDomain == Domain::Floating ? " (floating-point tensors only)" : ""));
        } else {
            using R = std::conditional_t<Op::kBoolResult, bool, T>;
            exec.launch(x.numElements(),
                UnaryMap<T, R, Op> {
                    static_cast<const T *>(x.rawData()), static_cast<R *>(out.rawData()), op },
                "unary");
        }
    });
    ctx.setOutput(0, out);
}

/// cast and cast_ (cast_ writes into x when the dtype does not change, else makes a new tensor).
template<class Exec> void castKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    const DataType to = ctx.dtypeAttr("dtype");
    if (isInplaceOp(ctx) && to == x.dtype()) {
        ctx.setOutput(0, x);
        return;
    }
    Tensor out = exec.allocate(x.shape(), to);
    castInto(exec, x, out);
    ctx.setOutput(0, out);
}

/// Runs `body(out)` writing result 0; for an inplace op whose other operands share x's storage
/// at another offset or shape, writes into a scratch tensor first and copies it into x after.
template<class Exec, class Body>
void writeResult(const Exec &exec, KernelContext &ctx, const Tensor &x, const std::vector<int64_t> &shape,
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
        Tensor scratch = exec.allocate(shape, dtype);
        body(scratch);
        exec.copy(out, scratch);
    }
    ctx.setOutput(0, out);
}

template<class Exec, class T, class R, class Op>
void runBinary(const Exec &exec, const Op &op, const Tensor &x, const Tensor &y, Tensor &out)
{
    const IndexSpace<2> space = broadcastSpace<2>(out.shape(), { x.shape(), y.shape() });
    exec.launchIndexed(space,
        BinaryMap<T, R, Op> { static_cast<const T *>(x.rawData()), static_cast<const T *>(y.rawData()),
            static_cast<R *>(out.rawData()), op },
        "binary elementwise");
}

/// Arithmetic: result dtype = operand dtype.
template<class Exec, class Op> void arithmeticKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0), y = exec.input(1);
    const std::string name = shortName(ctx);
    requireSameDtype(x, y, name);
    Op op;
    op.fault = exec.fault();
    writeResult(exec, ctx, x, binaryResultShape(ctx, x, y), x.dtype(), { &y }, [&](Tensor &out) {
        Exec::dispatchAll(x.dtype(), name.c_str(), [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_same_v<T, bool> && !Op::kBool)
                throw RuntimeError(name + ": bool tensors are not supported");
            else
                runBinary<Exec, T, T>(exec, op, x, y, out);
        });
    });
    exec.raiseFaults(name);
}

/// Comparisons and logical ops: bool result. Logical ops accept any dtype (nonzero is true).
template<class Exec, class Op> void predicateKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0), y = exec.input(1);
    const std::string name = shortName(ctx);
    requireSameDtype(x, y, name);
    Tensor out = exec.allocate(binaryResultShape(ctx, x, y), DataType::Bool);
    Exec::dispatchAll(x.dtype(), name.c_str(), [&](auto tag) {
        using T = decltype(tag);
        runBinary<Exec, T, bool>(exec, Op {}, x, y, out);
    });
    ctx.setOutput(0, out);
}

/// Calls fn(E{}) with E an unsigned type of `bytes` bytes (moves elements of any dtype).
template<class Fn> void dispatchBySize(size_t bytes, const char *what, Fn &&fn)
{
    switch (bytes) {
    case 1:
        return fn(uint8_t {});
    case 2:
        return fn(uint16_t {});
    case 4:
        return fn(uint32_t {});
    case 8:
        return fn(uint64_t {});
    default:
        throw RuntimeError(std::string(what) + ": unsupported element size " + std::to_string(bytes));
    }
}

/// out = condition ? x : y, the three broadcast together; where_ writes into x (operand 1).
template<class Exec> void whereKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor cond = exec.input(0), x = exec.input(1), y = exec.input(2);
    if (cond.dtype() != DataType::Bool)
        throw RuntimeError("where: condition must be bool, got " + cond.describe());
    requireSameDtype(x, y, "where");
    std::vector<int64_t> shape;
    try {
        shape = broadcastShapes(broadcastShapes(cond.shape(), x.shape()), y.shape());
    } catch (const RuntimeError &e) {
        throw RuntimeError(std::string("where: ") + e.what() + " (condition " + cond.describe() + ", x "
            + x.describe() + ", y " + y.describe() + ")");
    }
    const bool inplace = isInplaceOp(ctx);
    if (inplace && x.shape() != shape)
        throw RuntimeError("inplace where_ cannot broadcast x " + x.describe() + " to " + shapeText(shape));
    Tensor out
        = (inplace && !sharesStorage(x, y) && !sharesStorage(x, cond)) ? x : exec.allocate(shape, x.dtype());
    const IndexSpace<3> space = broadcastSpace<3>(shape, { cond.shape(), x.shape(), y.shape() });
    dispatchBySize(x.elementSize(), "where", [&](auto tag) {
        using E = decltype(tag);
        exec.launchIndexed(space,
            WhereMap<E> { static_cast<const bool *>(cond.rawData()), static_cast<const E *>(x.rawData()),
                static_cast<const E *>(y.rawData()), static_cast<E *>(out.rawData()) },
            "where");
    });
    if (inplace && out.storage() != x.storage()) {
        Tensor target = x;
        exec.copy(target, out);
        out = target;
    }
    ctx.setOutput(0, out);
}

/// Every unary op (and its `_` form where Paddle has one) and cast.
template<class Exec> void registerUnaryKernels(KernelRegistry &registry)
{
    // The `_` form where marked here or where Paddle 3.3.1's op table has it (silu_, which
    // inplace_pass writes, came with 3.x); unaryKernel writes into x for either.
    const auto add = [&registry](const char *name, KernelFn fn, bool inplace) {
        const std::string op = std::string("pd_op.") + name;
        registry.add(op, fn);
        const OpInfo *variant = OpRegistry::instance().lookup(op + "_");
        if (inplace || (variant && variant->inplaceTrait))
            registry.add(op + "_", fn);
    };
    add("relu", &unaryKernel<Exec, ReluOp>, true);
    add("relu6", &unaryKernel<Exec, Relu6Op>, false);
    add("gelu", &unaryKernel<Exec, GeluOp>, false);
    add("tanh", &unaryKernel<Exec, TanhOp>, true);
    add("sigmoid", &unaryKernel<Exec, SigmoidOp>, true);
    add("silu", &unaryKernel<Exec, SiluOp>, false);
    add("swish", &unaryKernel<Exec, SiluOp>, false);
    add("hardswish", &unaryKernel<Exec, HardswishOp>, false);
    add("hardsigmoid", &unaryKernel<Exec, HardsigmoidOp>, false);
    add("leaky_relu", &unaryKernel<Exec, LeakyReluOp>, true);
    add("elu", &unaryKernel<Exec, EluOp>, true);
    add("mish", &unaryKernel<Exec, MishOp>, false);
    add("softplus", &unaryKernel<Exec, SoftplusOp>, false);
    add("exp", &unaryKernel<Exec, ExpOp>, true);
    add("expm1", &unaryKernel<Exec, Expm1Op>, true);
    add("log", &unaryKernel<Exec, LogOp>, true);
    add("log2", &unaryKernel<Exec, Log2Op>, true);
    add("log10", &unaryKernel<Exec, Log10Op>, true);
    add("log1p", &unaryKernel<Exec, Log1pOp>, true);
    add("sqrt", &unaryKernel<Exec, SqrtOp>, true);
    add("rsqrt", &unaryKernel<Exec, RsqrtOp>, true);
    add("sin", &unaryKernel<Exec, SinOp>, true);
    add("cos", &unaryKernel<Exec, CosOp>, true);
    add("tan", &unaryKernel<Exec, TanOp>, true);
    add("asin", &unaryKernel<Exec, AsinOp>, true);
    add("acos", &unaryKernel<Exec, AcosOp>, true);
    add("atan", &unaryKernel<Exec, AtanOp>, true);
    add("sinh", &unaryKernel<Exec, SinhOp>, true);
    add("cosh", &unaryKernel<Exec, CoshOp>, true);
    add("floor", &unaryKernel<Exec, FloorOp>, true);
    add("ceil", &unaryKernel<Exec, CeilOp>, true);
    add("trunc", &unaryKernel<Exec, TruncOp>, true);
    add("round", &unaryKernel<Exec, RoundOp>, true);
    add("reciprocal", &unaryKernel<Exec, ReciprocalOp>, true);
    add("erf", &unaryKernel<Exec, ErfOp>, true);
    add("abs", &unaryKernel<Exec, AbsOp>, true);
    add("sign", &unaryKernel<Exec, SignOp>, false);
    add("square", &unaryKernel<Exec, SquareOp>, true);
    add("logical_not", &unaryKernel<Exec, LogicalNotOp>, false);
    add("isnan", &unaryKernel<Exec, IsNanOp>, false);
    add("isinf", &unaryKernel<Exec, IsInfOp>, false);
    add("isfinite", &unaryKernel<Exec, IsFiniteOp>, false);
    add("pow", &unaryKernel<Exec, PowScalarOp>, true);
    add("scale", &unaryKernel<Exec, ScaleOp>, true);
    add("clip", &unaryKernel<Exec, ClipOp>, true);
    add("cast", &castKernel<Exec>, true);
}

/// Binary arithmetic (with `_` forms), comparisons, logical ops and where.
template<class Exec> void registerBinaryKernels(KernelRegistry &registry)
{
    const auto both = [&registry](const char *name, KernelFn fn) {
        registry.add(std::string("pd_op.") + name, fn);
        registry.add(std::string("pd_op.") + name + "_", fn);
    };
    both("add", &arithmeticKernel<Exec, AddOp>);
    both("subtract", &arithmeticKernel<Exec, SubtractOp>);
    both("multiply", &arithmeticKernel<Exec, MultiplyOp>);
    both("divide", &arithmeticKernel<Exec, DivideOp>);
    both("floor_divide", &arithmeticKernel<Exec, FloorDivideOp>);
    both("remainder", &arithmeticKernel<Exec, RemainderOp>);
    registry.add("pd_op.maximum", &arithmeticKernel<Exec, MaximumOp>);
    registry.add("pd_op.minimum", &arithmeticKernel<Exec, MinimumOp>);
    registry.add("pd_op.elementwise_pow", &arithmeticKernel<Exec, PowOp>);

    registry.add("pd_op.equal", &predicateKernel<Exec, EqualOp>);
    registry.add("pd_op.not_equal", &predicateKernel<Exec, NotEqualOp>);
    registry.add("pd_op.less_than", &predicateKernel<Exec, LessThanOp>);
    registry.add("pd_op.less_equal", &predicateKernel<Exec, LessEqualOp>);
    registry.add("pd_op.greater_than", &predicateKernel<Exec, GreaterThanOp>);
    registry.add("pd_op.greater_equal", &predicateKernel<Exec, GreaterEqualOp>);
    registry.add("pd_op.logical_and", &predicateKernel<Exec, LogicalAndOp>);
    registry.add("pd_op.logical_or", &predicateKernel<Exec, LogicalOrOp>);
    registry.add("pd_op.logical_xor", &predicateKernel<Exec, LogicalXorOp>);

    both("where", &whereKernel<Exec>);
}

} // namespace ps::kernels
