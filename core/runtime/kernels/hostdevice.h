#pragma once

// The one place that says how shared kernel code is compiled. Functors and helpers marked
// PS_HOST_DEVICE run in the CPU backend's loops (g++), in CUDA kernels (nvcc) and in cuda-sim
// (the CUDA sources compiled by g++ with PIRSCOPE_CUDA_SIM, where __host__/__device__ are empty).
// Their math goes through ps::km, which names the C library's float and double functions
// (::expf, ::exp): the host and the device then compute with the same functions, and the CPU
// backend keeps the results it had with std::exp.

#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#    define PS_HOST_DEVICE __host__ __device__
#    define PS_INLINE __forceinline__
#else
#    define PS_HOST_DEVICE
#    define PS_INLINE inline
#endif

namespace ps::km {

#define PS_KM_UNARY(name, f32, f64)                                                                          \
    PS_HOST_DEVICE PS_INLINE float name(float x)                                                             \
    {                                                                                                        \
        return f32(x);                                                                                       \
    }                                                                                                        \
    PS_HOST_DEVICE PS_INLINE double name(double x)                                                           \
    {                                                                                                        \
        return f64(x);                                                                                       \
    }
PS_KM_UNARY(exp, ::expf, ::exp)
PS_KM_UNARY(expm1, ::expm1f, ::expm1)
PS_KM_UNARY(log, ::logf, ::log)
PS_KM_UNARY(log2, ::log2f, ::log2)
PS_KM_UNARY(log10, ::log10f, ::log10)
PS_KM_UNARY(log1p, ::log1pf, ::log1p)
PS_KM_UNARY(sqrt, ::sqrtf, ::sqrt)
PS_KM_UNARY(sin, ::sinf, ::sin)
PS_KM_UNARY(cos, ::cosf, ::cos)
PS_KM_UNARY(tan, ::tanf, ::tan)
PS_KM_UNARY(asin, ::asinf, ::asin)
PS_KM_UNARY(acos, ::acosf, ::acos)
PS_KM_UNARY(atan, ::atanf, ::atan)
PS_KM_UNARY(sinh, ::sinhf, ::sinh)
PS_KM_UNARY(cosh, ::coshf, ::cosh)
PS_KM_UNARY(tanh, ::tanhf, ::tanh)
PS_KM_UNARY(asinh, ::asinhf, ::asinh)
PS_KM_UNARY(acosh, ::acoshf, ::acosh)
PS_KM_UNARY(atanh, ::atanhf, ::atanh)
PS_KM_UNARY(floor, ::floorf, ::floor)
PS_KM_UNARY(ceil, ::ceilf, ::ceil)
PS_KM_UNARY(trunc, ::truncf, ::trunc)
PS_KM_UNARY(nearbyint, ::nearbyintf, ::nearbyint)
PS_KM_UNARY(round, ::roundf, ::round)
PS_KM_UNARY(erf, ::erff, ::erf)
PS_KM_UNARY(fabs, ::fabsf, ::fabs)
#undef PS_KM_UNARY

#define PS_KM_BINARY(name, f32, f64)                                                                         \
    PS_HOST_DEVICE PS_INLINE float name(float a, float b)                                                    \
    {                                                                                                        \
        return f32(a, b);                                                                                    \
    }                                                                                                        \
    PS_HOST_DEVICE PS_INLINE double name(double a, double b)                                                 \
    {                                                                                                        \
        return f64(a, b);                                                                                    \
    }
PS_KM_BINARY(pow, ::powf, ::pow)
PS_KM_BINARY(fmod, ::fmodf, ::fmod)
PS_KM_BINARY(copysign, ::copysignf, ::copysign)
PS_KM_BINARY(atan2, ::atan2f, ::atan2)
#undef PS_KM_BINARY

/// NaN test for any arithmetic type (false for integers).
template<class C> PS_HOST_DEVICE PS_INLINE bool isnan(C x)
{
    if constexpr (std::is_floating_point_v<C>)
        return x != x;
    else
        return false;
}
template<class C> PS_HOST_DEVICE PS_INLINE bool isinf(C x)
{
    if constexpr (std::is_floating_point_v<C>)
        return x == C(INFINITY) || x == -C(INFINITY);
    else
        return false;
}
template<class C> PS_HOST_DEVICE PS_INLINE bool isfinite(C x)
{
    return !isnan(x) && !isinf(x);
}
/// `x < 0` without a pointless-comparison warning for unsigned types.
template<class C> PS_HOST_DEVICE PS_INLINE bool isNegative(C x)
{
    if constexpr (std::is_unsigned_v<C>)
        return false;
    else
        return x < C(0);
}
template<class C> PS_HOST_DEVICE PS_INLINE C min(C a, C b)
{
    return b < a ? b : a;
}
template<class C> PS_HOST_DEVICE PS_INLINE C max(C a, C b)
{
    return a < b ? b : a;
}
template<class C> PS_HOST_DEVICE PS_INLINE C clamp(C v, C lo, C hi)
{
    return v < lo ? lo : (hi < v ? hi : v);
}
/// Round half to even of a double, as std::llrint in the default rounding mode.
PS_HOST_DEVICE PS_INLINE long long llrint(double x)
{
    return ::llrint(x);
}
/// Paddle's TolerableValue: -log(p) of a zero probability clamped to +-1e20 (NaN stays NaN).
PS_HOST_DEVICE PS_INLINE double tolerable(double v)
{
    return isnan(v) ? v : clamp(v, -1e20, 1e20);
}

} // namespace ps::km
