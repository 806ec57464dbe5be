#pragma once

// Float and double overloads of the device math functions (CUDA's float versions carry an `f`
// suffix); the compute type picks the precision, as std:: does in the CPU kernels.

#include <cuda_runtime.h>

namespace ps::cuda::dm {

#define PS_DEVICE_MATH(name, f32, f64)                                                                       \
    __device__ __forceinline__ float name(float x)                                                           \
    {                                                                                                        \
        return f32(x);                                                                                       \
    }                                                                                                        \
    __device__ __forceinline__ double name(double x)                                                         \
    {                                                                                                        \
        return f64(x);                                                                                       \
    }
PS_DEVICE_MATH(exp, ::expf, ::exp)
PS_DEVICE_MATH(expm1, ::expm1f, ::expm1)
PS_DEVICE_MATH(log, ::logf, ::log)
PS_DEVICE_MATH(log2, ::log2f, ::log2)
PS_DEVICE_MATH(log10, ::log10f, ::log10)
PS_DEVICE_MATH(log1p, ::log1pf, ::log1p)
PS_DEVICE_MATH(sqrt, ::sqrtf, ::sqrt)
PS_DEVICE_MATH(sin, ::sinf, ::sin)
PS_DEVICE_MATH(cos, ::cosf, ::cos)
PS_DEVICE_MATH(tan, ::tanf, ::tan)
PS_DEVICE_MATH(asin, ::asinf, ::asin)
PS_DEVICE_MATH(acos, ::acosf, ::acos)
PS_DEVICE_MATH(atan, ::atanf, ::atan)
PS_DEVICE_MATH(sinh, ::sinhf, ::sinh)
PS_DEVICE_MATH(cosh, ::coshf, ::cosh)
PS_DEVICE_MATH(tanh, ::tanhf, ::tanh)
PS_DEVICE_MATH(floor, ::floorf, ::floor)
PS_DEVICE_MATH(ceil, ::ceilf, ::ceil)
PS_DEVICE_MATH(trunc, ::truncf, ::trunc)
PS_DEVICE_MATH(nearbyint, ::nearbyintf, ::nearbyint)
PS_DEVICE_MATH(erf, ::erff, ::erf)
PS_DEVICE_MATH(fabs, ::fabsf, ::fabs)
#undef PS_DEVICE_MATH

__device__ __forceinline__ float pow(float a, float b)
{
    return ::powf(a, b);
}
__device__ __forceinline__ double pow(double a, double b)
{
    return ::pow(a, b);
}
__device__ __forceinline__ float fmod(float a, float b)
{
    return ::fmodf(a, b);
}
__device__ __forceinline__ double fmod(double a, double b)
{
    return ::fmod(a, b);
}
__device__ __forceinline__ float copysign(float a, float b)
{
    return ::copysignf(a, b);
}
__device__ __forceinline__ double copysign(double a, double b)
{
    return ::copysign(a, b);
}

} // namespace ps::cuda::dm
