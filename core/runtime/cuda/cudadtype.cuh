#pragma once

// Device element types of the CUDA kernels: __half and __nv_bfloat16 join the shared
// ElementTraits (bit-identical to ps::Float16/BFloat16, same rounding), the long-reduction
// accumulator, reduction identities and the host-side dtype dispatch to device storage types.

#include "core/ir/datatype.h"
#include "core/runtime/cuda/cudaapi.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernels/elementtraits.h"
#include "core/runtime/runtimeerror.h"

#include <cstdint>
#include <string>
#include <type_traits>

namespace ps {

template<> struct ElementTraits<__half>
{
    using Compute = float;
    static constexpr bool kHalf = true;
    PS_HOST_DEVICE static PS_INLINE float load(__half v) { return __half2float(v); }
    template<class C> PS_HOST_DEVICE static PS_INLINE __half store(C v) { return __float2half_rn(float(v)); }
};

template<> struct ElementTraits<__nv_bfloat16>
{
    using Compute = float;
    static constexpr bool kHalf = true;
    PS_HOST_DEVICE static PS_INLINE float load(__nv_bfloat16 v) { return __bfloat162float(v); }
    template<class C> PS_HOST_DEVICE static PS_INLINE __nv_bfloat16 store(C v)
    {
        return __float2bfloat16_rn(float(v));
    }
};

} // namespace ps

PS_CUDA_NAMESPACE_BEGIN
namespace cuda {

/// The type long reductions accumulate in: double for floats, int64 for integers and bool.
template<class T> using ReduceAcc = std::conditional_t<kIsFloatingElement<T>, double, int64_t>;

/// Largest / smallest finite-or-infinite value of the compute type (reduction identities).
template<class A> PS_HOST_DEVICE PS_INLINE A lowest()
{
    if constexpr (std::is_floating_point_v<A>)
        return -A(INFINITY);
    else if constexpr (std::is_same_v<A, bool>)
        return false;
    else if constexpr (std::is_signed_v<A>)
        return A(A(1) << (sizeof(A) * 8 - 1));
    else
        return A(0);
}
template<class A> PS_HOST_DEVICE PS_INLINE A highest()
{
    if constexpr (std::is_floating_point_v<A>)
        return A(INFINITY);
    else if constexpr (std::is_same_v<A, bool>)
        return true;
    else if constexpr (std::is_signed_v<A>)
        return A(~(A(1) << (sizeof(A) * 8 - 1)));
    else
        return A(~A(0));
}

/// __half and __nv_bfloat16: the device storage of float16 and bfloat16.
using DeviceHalfTypes = HalfTypes<__half, __nv_bfloat16>;

/// Calls fn(T{}) with T the device storage type of `dtype` (any runtime dtype).
template<class Fn> void dispatchAll(DataType dtype, const char *what, Fn &&fn)
{
    dispatchDtypeAs<DeviceHalfTypes>(dtype, what, fn);
}

/// float32, float64, float16, bfloat16.
template<class Fn> void dispatchFloating(DataType dtype, const char *what, Fn &&fn)
{
    dispatchFloatingAs<DeviceHalfTypes>(dtype, what, fn);
}

/// The floats plus int32 and int64 (arithmetic Paddle registers for integers too).
template<class Fn> void dispatchArithmetic(DataType dtype, const char *what, Fn &&fn)
{
    switch (dtype) {
    case DataType::Int32:
        return fn(int32_t {});
    case DataType::Int64:
        return fn(int64_t {});
    case DataType::Float32:
    case DataType::Float64:
    case DataType::Float16:
    case DataType::BFloat16:
        return cuda::dispatchFloating(dtype, what, fn);
    default:
        throw RuntimeError(std::string(what)
            + ": the CUDA kernel supports float32/64/16, bfloat16, int32 and int64, got "
            + std::string(phiName(dtype)));
    }
}

} // namespace cuda
PS_CUDA_NAMESPACE_END
