#pragma once

// How shared kernel code reads and writes one stored element. Kernels compute in
// ElementTraits<T>::Compute (float for the 16-bit floats, the stored type otherwise) and convert
// once when they store, as Paddle's kernels do. The host specialisations for ps::Float16 and
// ps::BFloat16 are here; the CUDA backend adds __half and __nv_bfloat16 (cuda/cudadtype.cuh), so
// one functor serves the CPU loop (Float16) and the CUDA grid (__half).

#include "core/ir/datatype.h"
#include "core/runtime/halffloat.h"
#include "core/runtime/kernels/hostdevice.h"

#include <type_traits>

namespace ps {

/// Arithmetic types and bool: computed as themselves; bool stores `v != 0`.
template<class T> struct ElementTraits
{
    using Compute = T;
    static constexpr bool kHalf = false;
    PS_HOST_DEVICE static PS_INLINE T load(T v) { return v; }
    template<class C> PS_HOST_DEVICE static PS_INLINE T store(C v)
    {
        if constexpr (std::is_same_v<T, bool>)
            return v != C(0);
        else
            return static_cast<T>(v);
    }
};

template<> struct ElementTraits<Float16>
{
    using Compute = float;
    static constexpr bool kHalf = true;
    static float load(Float16 v) { return float(v); }
    template<class C> static Float16 store(C v) { return Float16(float(v)); }
};

template<> struct ElementTraits<BFloat16>
{
    using Compute = float;
    static constexpr bool kHalf = true;
    static float load(BFloat16 v) { return float(v); }
    template<class C> static BFloat16 store(C v) { return BFloat16(float(v)); }
};

/// The type a kernel computes element `T` in.
template<class T> using ComputeOf = typename ElementTraits<T>::Compute;

template<class T> PS_HOST_DEVICE PS_INLINE ComputeOf<T> loadElement(T v)
{
    return ElementTraits<T>::load(v);
}
template<class T, class C> PS_HOST_DEVICE PS_INLINE T storeElement(C v)
{
    return ElementTraits<T>::store(v);
}

/// A stored element type that is a float (any width).
template<class T>
inline constexpr bool kIsFloatingElement = ElementTraits<T>::kHalf || std::is_floating_point_v<T>;
/// An integer element type (bool excluded).
template<class T> inline constexpr bool kIsIntegerElement = std::is_integral_v<T> && !std::is_same_v<T, bool>;

} // namespace ps
