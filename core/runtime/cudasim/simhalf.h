#pragma once

// cuda-sim's __half and __nv_bfloat16: bit-identical to CUDA's (IEEE binary16 and bfloat16,
// round-to-nearest-even from float), with the implicit conversions CUDA's types have. Distinct
// types from ps::Float16/BFloat16 (and from CUDA's own) so overloads and templates keep them apart.

#include "core/runtime/halffloat.h"

#include <cstdint>

namespace ps::cudasim {

struct Half
{
    uint16_t bits;

    Half() = default;
    Half(float f)
        : bits(Float16::fromFloat(f))
    {
    }
    Half(double d)
        : Half(float(d))
    {
    }
    Half(int i)
        : Half(float(i))
    {
    }
    operator float() const { return Float16::toFloat(bits); }
};

struct BHalf
{
    uint16_t bits;

    BHalf() = default;
    BHalf(float f)
        : bits(BFloat16::fromFloat(f))
    {
    }
    BHalf(double d)
        : BHalf(float(d))
    {
    }
    BHalf(int i)
        : BHalf(float(i))
    {
    }
    operator float() const { return BFloat16::toFloat(bits); }
};

} // namespace ps::cudasim
