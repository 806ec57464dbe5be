#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ps {

/// NumPy broadcasting of two shapes (Paddle's rule with axis = -1): dims are right-aligned and
/// each pair must be equal or hold a 1. Throws RuntimeError "cannot broadcast [2, 3] with [4]".
std::vector<int64_t> broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b);

/// Element strides of a contiguous tensor of `shape` read through `outShape` (right-aligned, 0 on
/// the dims it broadcasts over); result size is outShape.size(). `shape` must broadcast to it.
std::vector<int64_t> broadcastStrides(
    const std::vector<int64_t> &shape, const std::vector<int64_t> &outShape);

/// A row-major walk over a contiguous output of `outShape` that reads N contiguous operands
/// broadcast to it. Dims of size 1 are dropped and neighbouring dims merged wherever every
/// operand allows, so a same-shape or scalar operand costs one row. Usage:
///
///     BroadcastPlan plan(out.shape(), {x.shape(), y.shape()});
///     plan.forEachRow([&](int64_t o, const int64_t *off) {
///         for (int64_t i = 0; i < plan.rowSize(); ++i)
///             po[o + i] = px[off[0] + i * plan.rowStride(0)] + py[off[1] + i * plan.rowStride(1)];
///     });
///
/// The grad kernels can reduce a gradient to an operand's shape the same way (accumulate into
/// `off[k]` instead of reading from it).
class BroadcastPlan
{
public:
    /// Throws RuntimeError when an operand shape does not broadcast to `outShape`.
    BroadcastPlan(
        const std::vector<int64_t> &outShape, const std::vector<std::vector<int64_t>> &operandShapes);

    size_t numOperands() const { return m_strides.size(); }
    /// Elements in one row (the innermost merged dim); 1 for a 0-d output.
    int64_t rowSize() const { return m_shape.back(); }
    /// Stride of operand `k` along a row: 0 (broadcast) or 1 (contiguous).
    int64_t rowStride(size_t k) const { return m_strides[k].back(); }
    int64_t numElements() const { return m_total; }

    /// Calls fn(outOffset, operandOffsets) for each row in row-major order; operandOffsets[k] is
    /// the element offset of the row's first element in operand k. Nothing for an empty output.
    template<class Fn> void forEachRow(Fn &&fn) const
    {
        if (m_total == 0)
            return;
        const size_t n = m_strides.size(), outer = m_shape.size() - 1;
        const int64_t row = m_shape.back();
        std::vector<int64_t> index(outer, 0), offsets(n, 0);
        for (int64_t o = 0; o < m_total; o += row) {
            fn(o, static_cast<const int64_t *>(offsets.data()));
            for (size_t d = outer; d-- > 0;) {
                for (size_t k = 0; k < n; ++k)
                    offsets[k] += m_strides[k][d];
                if (++index[d] < m_shape[d])
                    break;
                for (size_t k = 0; k < n; ++k)
                    offsets[k] -= m_strides[k][d] * m_shape[d];
                index[d] = 0;
            }
        }
    }

private:
    std::vector<int64_t> m_shape; ///< merged dims, never empty
    std::vector<std::vector<int64_t>> m_strides; ///< [operand][merged dim]
    int64_t m_total = 0;
};

} // namespace ps
