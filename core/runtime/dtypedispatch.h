#pragma once

#include "core/ir/datatype.h"
#include "core/runtime/halffloat.h"
#include "core/runtime/runtimeerror.h"

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace ps {

/// The C++ type stored for a DataType: float, double, Float16, BFloat16, int8_t, uint8_t,
/// int16_t, int32_t, int64_t, bool.
template<DataType D> struct StorageTypeOf;
template<> struct StorageTypeOf<DataType::Float32>
{
    using type = float;
};
template<> struct StorageTypeOf<DataType::Float64>
{
    using type = double;
};
template<> struct StorageTypeOf<DataType::Float16>
{
    using type = Float16;
};
template<> struct StorageTypeOf<DataType::BFloat16>
{
    using type = BFloat16;
};
template<> struct StorageTypeOf<DataType::Int8>
{
    using type = int8_t;
};
template<> struct StorageTypeOf<DataType::UInt8>
{
    using type = uint8_t;
};
template<> struct StorageTypeOf<DataType::Int16>
{
    using type = int16_t;
};
template<> struct StorageTypeOf<DataType::Int32>
{
    using type = int32_t;
};
template<> struct StorageTypeOf<DataType::Int64>
{
    using type = int64_t;
};
template<> struct StorageTypeOf<DataType::Bool>
{
    using type = bool;
};

/// A float to an integer as Paddle's x86 kernels convert (cvttss2si/cvttsd2si): truncation
/// toward zero; NaN and values outside int32 (int64 for int64) give the "integer indefinite"
/// minimum; narrower types take the low bits of the int32 result. Defined where a plain
/// static_cast is undefined behaviour.
template<class To, class From> inline To floatToInteger(From v)
{
    using Wide = std::conditional_t<sizeof(To) == 8, int64_t, int32_t>;
    constexpr From lo = From(std::numeric_limits<Wide>::min()); // -2^31 or -2^63: exact
    Wide w = std::numeric_limits<Wide>::min();
    if (v >= lo && v < -lo)
        w = static_cast<Wide>(v);
    return static_cast<To>(w);
}

/// Converts any storage type to/from float-like arithmetic types (halves go through float).
template<class To, class From> inline To convertElement(From v)
{
    if constexpr (std::is_same_v<To, From>)
        return v;
    else if constexpr (std::is_same_v<From, Float16> || std::is_same_v<From, BFloat16>)
        return convertElement<To>(float(v));
    else if constexpr (std::is_same_v<To, Float16> || std::is_same_v<To, BFloat16>)
        return To(float(v));
    else if constexpr (std::is_same_v<To, bool>)
        return v != From(0);
    else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>)
        return floatToInteger<To>(v);
    else
        return static_cast<To>(v);
}

/// The types a backend stores the 16-bit floats in: ps::Float16/BFloat16 on the host; the CUDA
/// backend dispatches with __half/__nv_bfloat16 (cuda/cudadtype.cuh). Everything else is the same
/// C++ type on both sides.
template<class H, class B> struct HalfTypes
{
    using Half = H;
    using BFloat = B;
};
using HostHalfTypes = HalfTypes<Float16, BFloat16>;

/// Calls `fn(T{})` with T the storage type of `dtype` (16-bit floats from `Halves`); throws
/// RuntimeError naming `what` for a dtype the runtime does not support (complex, string, float8,
/// unsigned > 8 bit).
template<class Halves, class Fn> decltype(auto) dispatchDtypeAs(DataType dtype, const char *what, Fn &&fn)
{
    switch (dtype) {
    case DataType::Float32:
        return fn(float {});
    case DataType::Float64:
        return fn(double {});
    case DataType::Float16:
        return fn(typename Halves::Half {});
    case DataType::BFloat16:
        return fn(typename Halves::BFloat {});
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
        throw RuntimeError(std::string(what) + ": unsupported dtype " + std::string(phiName(dtype)));
    }
}

/// As dispatchDtypeAs, restricted to float32/float64/float16/bfloat16.
template<class Halves, class Fn> decltype(auto) dispatchFloatingAs(DataType dtype, const char *what, Fn &&fn)
{
    switch (dtype) {
    case DataType::Float32:
        return fn(float {});
    case DataType::Float64:
        return fn(double {});
    case DataType::Float16:
        return fn(typename Halves::Half {});
    case DataType::BFloat16:
        return fn(typename Halves::BFloat {});
    default:
        throw RuntimeError(
            std::string(what) + ": expects a floating-point tensor, got " + std::string(phiName(dtype)));
    }
}

/// dispatchDtypeAs with the host storage types.
template<class Fn> decltype(auto) dispatchDtype(DataType dtype, const char *what, Fn &&fn)
{
    return dispatchDtypeAs<HostHalfTypes>(dtype, what, std::forward<Fn>(fn));
}

/// dispatchFloatingAs with the host storage types.
template<class Fn> decltype(auto) dispatchFloating(DataType dtype, const char *what, Fn &&fn)
{
    return dispatchFloatingAs<HostHalfTypes>(dtype, what, std::forward<Fn>(fn));
}

/// Integer index tensors (ids, labels, gather indices): int32 or int64, the same on every backend.
template<class Fn> decltype(auto) dispatchIndex(DataType dtype, const char *what, Fn &&fn)
{
    switch (dtype) {
    case DataType::Int32:
        return fn(int32_t {});
    case DataType::Int64:
        return fn(int64_t {});
    default:
        throw RuntimeError(std::string(what) + " must be int32 or int64, got " + std::string(phiName(dtype)));
    }
}

/// float for halves and float, double for double: the type to compute in.
template<class T>
using ComputeType = std::conditional_t<std::is_same_v<T, double>, double,
    std::conditional_t<
        std::is_floating_point_v<T> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>, float, T>>;

} // namespace ps
