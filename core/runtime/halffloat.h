#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace ps {

/// IEEE binary16 storage with round-to-nearest-even conversion from float.
struct Float16
{
    uint16_t bits = 0;

    Float16() = default;
    explicit Float16(float f)
        : bits(fromFloat(f))
    {
    }
    explicit operator float() const { return toFloat(bits); }

    static uint16_t fromFloat(float f)
    {
        const uint32_t x = std::bit_cast<uint32_t>(f);
        const uint32_t sign = (x >> 16) & 0x8000u;
        const uint32_t absx = x & 0x7fffffffu;
        if (absx >= 0x7f800000u) // Inf or NaN (NaN keeps a quiet payload bit)
            return uint16_t(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
        if (absx >= 0x477ff000u) // rounds to >= 65520: overflow to Inf
            return uint16_t(sign | 0x7c00u);
        if (absx < 0x38800000u) { // subnormal or zero in half
            const float magic = std::bit_cast<float>(0x3f000000u); // 0.5: shifts the bits into place
            const float v = std::bit_cast<float>(absx) + magic;
            return uint16_t(sign | (std::bit_cast<uint32_t>(v) - 0x3f000000u));
        }
        const uint32_t mantOdd = (absx >> 13) & 1u;
        uint32_t v = absx + 0xc8000fffu + mantOdd; // rebias exponent (-112 << 23) and round
        return uint16_t(sign | (v >> 13));
    }
    static float toFloat(uint16_t h)
    {
        const uint32_t sign = uint32_t(h & 0x8000u) << 16;
        const uint32_t exp = (h >> 10) & 0x1fu;
        const uint32_t mant = h & 0x3ffu;
        if (exp == 0x1f)
            return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
        if (exp == 0) {
            const float v = float(mant) * (1.0f / 16777216.0f); // mant * 2^-24
            return sign ? -v : v;
        }
        return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
    }
};

/// bfloat16 storage (the high half of a float32), round-to-nearest-even from float.
struct BFloat16
{
    uint16_t bits = 0;

    BFloat16() = default;
    explicit BFloat16(float f)
        : bits(fromFloat(f))
    {
    }
    explicit operator float() const { return toFloat(bits); }

    static uint16_t fromFloat(float f)
    {
        const uint32_t x = std::bit_cast<uint32_t>(f);
        if ((x & 0x7fffffffu) > 0x7f800000u)
            return uint16_t((x >> 16) | 0x40u);
        return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
    }
    static float toFloat(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }
};

} // namespace ps
