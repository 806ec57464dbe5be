#pragma once

// Device element types of the CUDA kernels: the storage type of each DataType (__half and
// __nv_bfloat16 for the 16-bit floats, bit-identical to ps::Float16/BFloat16), the type to
// compute in, conversions that round like the host's convertElement, and host-side dispatch.

#include "core/ir/datatype.h"
#include "core/runtime/runtimeerror.h"

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <string>
#include <type_traits>

namespace ps::cuda {

template<class T>
inline constexpr bool kIsHalf = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
template<class T> inline constexpr bool kIsFloating = kIsHalf<T> || std::is_floating_point_v<T>;

/// The type arithmetic runs in: float for the 16-bit floats, the storage type otherwise.
template<class T> using Acc = std::conditional_t<kIsHalf<T>, float, T>;
/// The type long reductions accumulate in: double for floats, int64 for integers and bool.
template<class T> using ReduceAcc = std::conditional_t<kIsFloating<T>, double, int64_t>;

template<class T> __host__ __device__ __forceinline__ Acc<T> load(T v)
{
    if constexpr (std::is_same_v<T, __half>)
        return __half2float(v);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>)
        return __bfloat162float(v);
    else
        return v;
}

template<class T, class A> __host__ __device__ __forceinline__ T store(A v)
{
    if constexpr (std::is_same_v<T, __half>)
        return __float2half_rn(float(v));
    else if constexpr (std::is_same_v<T, __nv_bfloat16>)
        return __float2bfloat16_rn(float(v));
    else if constexpr (std::is_same_v<T, bool>)
        return v != A(0);
    else
        return static_cast<T>(v);
}

/// As the host's convertElement: 16-bit floats go through float, bool is `!= 0`.
template<class To, class From> __host__ __device__ __forceinline__ To convert(From v)
{
    if constexpr (std::is_same_v<To, From>)
        return v;
    else if constexpr (kIsHalf<From>)
        return convert<To>(load(v));
    else if constexpr (kIsHalf<To>)
        return store<To>(float(v));
    else if constexpr (std::is_same_v<To, bool>)
        return v != From(0);
    else
        return static_cast<To>(v);
}

/// `v < 0` without a pointless-comparison warning for unsigned types.
template<class C> __host__ __device__ __forceinline__ bool isNegative(C v)
{
    if constexpr (std::is_unsigned_v<C>)
        return false;
    else
        return v < C(0);
}

template<class T> __device__ __forceinline__ bool isNan(T v)
{
    if constexpr (kIsFloating<T>)
        return load(v) != load(v);
    else
        return false;
}

/// Largest / smallest finite-or-infinite value of the compute type (reduction identities).
template<class A> __host__ __device__ __forceinline__ A lowest()
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
template<class A> __host__ __device__ __forceinline__ A highest()
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

[[noreturn]] inline void unsupportedDtype(const char *what, DataType dtype, const char *expected)
{
    throw RuntimeError(std::string(what) + ": the CUDA kernel supports " + expected + ", got "
        + std::string(phiName(dtype)));
}

/// Calls fn(T{}) with T the device storage type of `dtype` (any runtime dtype).
template<class Fn> void dispatchAll(DataType dtype, const char *what, Fn &&fn)
{
    switch (dtype) {
    case DataType::Float32:
        return fn(float {});
    case DataType::Float64:
        return fn(double {});
    case DataType::Float16:
        return fn(__half {});
    case DataType::BFloat16:
        return fn(__nv_bfloat16 {});
    case DataType::Int8:
        return fn(int8_t {});
    case DataType::UInt8:
        return fn(uint8_t {});
    case DataType::Int16:
        return fn(int16_t {});
    case DataType::Int32:
        return fn(int32_t {});
    case DataType::Int64:
        return fn(int64_t {});
    case DataType::Bool:
        return fn(bool {});
    default:
        unsupportedDtype(what, dtype, "float32/64/16, bfloat16, int8/16/32/64, uint8 and bool");
    }
}

/// float32, float64, float16, bfloat16.
template<class Fn> void dispatchFloating(DataType dtype, const char *what, Fn &&fn)
{
    switch (dtype) {
    case DataType::Float32:
        return fn(float {});
    case DataType::Float64:
        return fn(double {});
    case DataType::Float16:
        return fn(__half {});
    case DataType::BFloat16:
        return fn(__nv_bfloat16 {});
    default:
        unsupportedDtype(what, dtype, "float32, float64, float16 and bfloat16");
    }
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
        return ps::cuda::dispatchFloating(dtype, what, fn);
    default:
        unsupportedDtype(what, dtype, "float32/64/16, bfloat16, int32 and int64");
    }
}

/// Integer index tensors (ids, labels): int32 or int64.
template<class Fn> void dispatchIndex(DataType dtype, const char *what, Fn &&fn)
{
    switch (dtype) {
    case DataType::Int32:
        return fn(int32_t {});
    case DataType::Int64:
        return fn(int64_t {});
    default:
        unsupportedDtype(what, dtype, "int32 and int64 indices");
    }
}

/// The DataType of a device storage type.
template<class T> constexpr DataType dataTypeOf()
{
    if constexpr (std::is_same_v<T, float>)
        return DataType::Float32;
    else if constexpr (std::is_same_v<T, double>)
        return DataType::Float64;
    else if constexpr (std::is_same_v<T, __half>)
        return DataType::Float16;
    else if constexpr (std::is_same_v<T, __nv_bfloat16>)
        return DataType::BFloat16;
    else if constexpr (std::is_same_v<T, int8_t>)
        return DataType::Int8;
    else if constexpr (std::is_same_v<T, uint8_t>)
        return DataType::UInt8;
    else if constexpr (std::is_same_v<T, int16_t>)
        return DataType::Int16;
    else if constexpr (std::is_same_v<T, int32_t>)
        return DataType::Int32;
    else if constexpr (std::is_same_v<T, int64_t>)
        return DataType::Int64;
    else
        return DataType::Bool;
}

} // namespace ps::cuda
