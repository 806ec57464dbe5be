#pragma once

// The index space a shared elementwise kernel walks: output dims and, per operand, the element
// stride of each dim (0 where the operand is broadcast, negative where it is read backwards) and
// a base offset. Both launchers take it: the CPU loop walks it row by row with running offsets,
// the CUDA grid divides each linear index into coordinates (cuda/cudaloops.cuh).

#include "core/runtime/kernels/hostdevice.h"
#include "core/runtime/kernels/shapespec.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ps {

/// The element offsets of one index in each operand of an IndexSpace.
template<int N> struct Offsets
{
    int64_t v[N];
};

template<int N> struct IndexSpace
{
    std::vector<int64_t> sizes;
    std::vector<std::array<int64_t, N>> strides;
    std::array<int64_t, N> base {};

    int64_t count() const
    {
        int64_t n = 1;
        for (int64_t s : sizes)
            n *= s;
        return n;
    }
    /// Drops size-1 dims and merges neighbours that are contiguous for every operand.
    void coalesce()
    {
        std::vector<int64_t> s;
        std::vector<std::array<int64_t, N>> st;
        for (size_t d = 0; d < sizes.size(); ++d) {
            if (sizes[d] == 1)
                continue;
            if (!s.empty()) {
                bool merge = true;
                for (int a = 0; a < N; ++a)
                    merge = merge && st.back()[a] == strides[d][a] * sizes[d];
                if (merge) {
                    s.back() *= sizes[d];
                    st.back() = strides[d];
                    continue;
                }
            }
            s.push_back(sizes[d]);
            st.push_back(strides[d]);
        }
        sizes = std::move(s);
        strides = std::move(st);
    }
    /// Every index and offset fits 32-bit arithmetic.
    bool fits32() const
    {
        const int64_t limit = int64_t(1) << 31;
        if (count() >= limit)
            return false;
        for (int a = 0; a < N; ++a) {
            int64_t hi = base[a], lo = base[a];
            for (size_t d = 0; d < sizes.size(); ++d) {
                const int64_t span = strides[d][a] * (sizes[d] - 1);
                (span > 0 ? hi : lo) += span;
                if (sizes[d] >= limit)
                    return false;
            }
            if (hi >= limit || lo < 0)
                return false;
        }
        return true;
    }
};

/// An output of `out` reading N operands of the given shapes broadcast to it (NumPy rules),
/// coalesced. Throws RuntimeError when a shape does not broadcast.
template<int N>
IndexSpace<N> broadcastSpace(const std::vector<int64_t> &out, const std::array<std::vector<int64_t>, N> &operands)
{
    IndexSpace<N> space;
    space.sizes = out;
    std::array<std::vector<int64_t>, N> strides;
    for (int a = 0; a < N; ++a)
        strides[a] = broadcastStrides(operands[a], out);
    for (size_t d = 0; d < out.size(); ++d) {
        std::array<int64_t, N> s;
        for (int a = 0; a < N; ++a)
            s[a] = strides[a][d];
        space.strides.push_back(s);
    }
    space.coalesce();
    return space;
}

/// The one-operand space of a strided view (gather: read the view into a contiguous tensor;
/// scatter: write a contiguous tensor through it), coalesced.
inline IndexSpace<1> viewSpace(const StridedView &view)
{
    IndexSpace<1> space;
    space.sizes = view.shape;
    for (int64_t s : view.strides)
        space.strides.push_back({ s });
    space.base = { view.base };
    space.coalesce();
    return space;
}

} // namespace ps
