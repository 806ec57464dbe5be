#pragma once

#include "core/runtime/tensor.h"

#include <cstdint>
#include <vector>

namespace ps {

/// A 2-D view of an N-d host tensor: one axis along the rows, one along the columns (either may
/// be absent, -1), every other axis held at a fixed index. Element access is O(1) stride
/// arithmetic; nothing is copied. No Qt: shared by the table, the heatmap and the comparison.
class TensorSlice
{
public:
    TensorSlice() = default;
    /// Default axes: the last two (rank >= 2), the only one (rank 1), none (rank 0); fixed indices 0.
    explicit TensorSlice(Tensor tensor);

    /// True when the tensor is a defined host tensor of a dtype the slice can read.
    static bool canRead(const Tensor &t);
    bool valid() const { return m_read != nullptr; }
    const Tensor &tensor() const { return m_tensor; }

    /// Row and column axes (-1: none). Equal axes keep the row axis and drop the column axis;
    /// out-of-range axes become -1.
    void setAxes(int rowAxis, int columnAxis);
    int rowAxis() const { return m_rowAxis; }
    int columnAxis() const { return m_columnAxis; }
    /// The index held for a non-sliced axis (clamped into the axis); ignored for the row/column axes.
    void setFixedIndex(int axis, int64_t index);
    int64_t fixedIndex(int axis) const { return m_fixed[size_t(axis)]; }
    const std::vector<int64_t> &fixedIndices() const { return m_fixed; }

    int64_t rows() const { return m_rows; }
    int64_t columns() const { return m_columns; }
    /// Row-major element offset of (row, column) in the tensor.
    int64_t flatIndex(int64_t row, int64_t column) const
    {
        return m_base + row * m_rowStride + column * m_columnStride;
    }
    /// The element at (row, column) as double (halves through float; int64 may round).
    double value(int64_t row, int64_t column) const { return m_read(m_data, flatIndex(row, column)); }
    /// The exact integer for integer and bool dtypes (0 for floating types).
    int64_t integerValue(int64_t row, int64_t column) const;
    /// The full N-d index of (row, column).
    std::vector<int64_t> fullIndex(int64_t row, int64_t column) const;
    /// The N-d index of a row-major flat offset into `shape`.
    static std::vector<int64_t> unflatten(int64_t flat, const std::vector<int64_t> &shape);

    bool isFloating() const { return m_floating; }
    bool isBool() const { return m_tensor.dtype() == DataType::Bool; }

private:
    void update();

    using Reader = double (*)(const void *, int64_t);
    Tensor m_tensor;
    const void *m_data = nullptr;
    Reader m_read = nullptr;
    bool m_floating = false;
    int m_rowAxis = -1;
    int m_columnAxis = -1;
    std::vector<int64_t> m_fixed;
    std::vector<int64_t> m_strides;
    int64_t m_base = 0;
    int64_t m_rows = 1;
    int64_t m_columns = 1;
    int64_t m_rowStride = 0;
    int64_t m_columnStride = 0;
};

} // namespace ps
