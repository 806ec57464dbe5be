#pragma once

// The binary elementwise ops (arithmetic, comparisons, logical), one functor each, shared by the
// CPU loop and the CUDA grid. kBool says whether bool operands are accepted; the call operator
// computes on the compute type C. Integer division by zero cannot throw on a device: it records
// a KernelFault (raised after the loop on the CPU, at the next synchronize on CUDA).

#include "core/runtime/kernels/hostdevice.h"
#include "core/runtime/kernels/kernelfault.h"

#include <type_traits>

namespace ps::kernels {

/// a / b and a % b without the INT_MIN / -1 trap (wraps as two's complement); a zero divisor
/// records a fault and gives 0.
template<class C> PS_HOST_DEVICE PS_INLINE C wrappingQuotient(C a, C b, volatile KernelFault *fault)
{
    if (b == C(0)) {
        raiseFault(fault, KernelFaultCode::DivideByZero);
        return C(0);
    }
    if constexpr (std::is_signed_v<C>)
        if (b == C(-1))
            return C(std::make_unsigned_t<C>(0) - std::make_unsigned_t<C>(a));
    return C(a / b);
}

template<class C> PS_HOST_DEVICE PS_INLINE C wrappingRemainder(C a, C b, volatile KernelFault *fault)
{
    if (b == C(0)) {
        raiseFault(fault, KernelFaultCode::DivideByZero);
        return C(0);
    }
    if constexpr (std::is_signed_v<C>)
        if (b == C(-1))
            return C(0);
    return C(a % b);
}

/// Arithmetic ops carry the fault record integer division writes to.
struct ArithmeticOp
{
    volatile KernelFault *fault = nullptr;
};

struct AddOp : ArithmeticOp
{
    static constexpr bool kBool = true;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const { return C(a + b); }
};
struct SubtractOp : ArithmeticOp
{
    static constexpr bool kBool = false;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const { return C(a - b); }
};
struct MultiplyOp : ArithmeticOp
{
    static constexpr bool kBool = true;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const { return C(a * b); }
};
/// Integers truncate toward zero as in C++ (and Paddle's integer kernel).
struct DivideOp : ArithmeticOp
{
    static constexpr bool kBool = false;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>)
            return wrappingQuotient(a, b, fault);
        else
            return a / b;
    }
};
/// Python/NumPy floor division; x / 0 follows IEEE for floats.
struct FloorDivideOp : ArithmeticOp
{
    static constexpr bool kBool = false;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>) {
            const C q = wrappingQuotient(a, b, fault);
            return (b != C(0) && wrappingRemainder(a, b, fault) != 0 && (km::isNegative(a) != km::isNegative(b)))
                ? C(q - 1)
                : q;
        } else {
            if (b == C(0))
                return a / b;
            const C mod = km::fmod(a, b);
            C div = (a - mod) / b;
            if (mod != C(0) && ((b < C(0)) != (mod < C(0))))
                div -= C(1);
            if (div == C(0))
                return km::copysign(C(0), a / b);
            C floorDiv = km::floor(div);
            if (div - floorDiv > C(0.5))
                floorDiv += C(1);
            return floorDiv;
        }
    }
};
/// The result takes the divisor's sign (Python's %); x % 0 is NaN for floats.
struct RemainderOp : ArithmeticOp
{
    static constexpr bool kBool = false;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const
    {
        C r;
        if constexpr (std::is_integral_v<C>)
            r = wrappingRemainder(a, b, fault);
        else
            r = km::fmod(a, b);
        return (r != C(0) && (km::isNegative(r) != km::isNegative(b))) ? C(r + b) : r;
    }
};
/// NaN propagates (as Paddle and NumPy).
struct MaximumOp : ArithmeticOp
{
    static constexpr bool kBool = true;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const
    {
        if (km::isnan(a) || km::isnan(b))
            return km::isnan(a) ? a : b;
        return a > b ? a : b;
    }
};
struct MinimumOp : ArithmeticOp
{
    static constexpr bool kBool = true;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const
    {
        if (km::isnan(a) || km::isnan(b))
            return km::isnan(a) ? a : b;
        return a < b ? a : b;
    }
};
/// Integers: llrint(pow(double, double)), as Paddle's integer kernel.
struct PowOp : ArithmeticOp
{
    static constexpr bool kBool = false;
    template<class C> PS_HOST_DEVICE C operator()(C a, C b) const
    {
        if constexpr (std::is_integral_v<C>)
            return C(km::llrint(km::pow(double(a), double(b))));
        else
            return km::pow(a, b);
    }
};

struct EqualOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return a == b; }
};
struct NotEqualOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return a != b; }
};
struct LessThanOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return a < b; }
};
struct LessEqualOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return a <= b; }
};
struct GreaterThanOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return a > b; }
};
struct GreaterEqualOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return a >= b; }
};
struct LogicalAndOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return a != C(0) && b != C(0); }
};
struct LogicalOrOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return a != C(0) || b != C(0); }
};
struct LogicalXorOp
{
    template<class C> PS_HOST_DEVICE bool operator()(C a, C b) const { return (a != C(0)) != (b != C(0)); }
};

} // namespace ps::kernels
