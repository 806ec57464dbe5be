#include "ui/inspector/tensorslice.h"

#include "core/ir/datatypekind.h"
#include "core/runtime/dtypedispatch.h"

#include <algorithm>

namespace ps {

namespace {

template<class T> double readAs(const void *data, int64_t i)
{
    return convertElement<double>(static_cast<const T *>(data)[i]);
}

} // namespace

TensorSlice::TensorSlice(Tensor tensor)
    : m_tensor(std::move(tensor))
{
    if (!canRead(m_tensor))
        return;
    m_data = m_tensor.rawData();
    m_floating = isFloatingPoint(m_tensor.dtype());
    m_read
        = dispatchDtype(m_tensor.dtype(), "slice", [](auto tag) -> Reader { return &readAs<decltype(tag)>; });
    const size_t rank = m_tensor.rank();
    m_fixed.assign(rank, 0);
    m_strides.assign(rank, 1);
    for (size_t i = rank; i-- > 1;)
        m_strides[i - 1] = m_strides[i] * m_tensor.dim(i);
    m_rowAxis = rank >= 2 ? int(rank) - 2 : (rank == 1 ? 0 : -1);
    m_columnAxis = rank >= 2 ? int(rank) - 1 : -1;
    update();
}

bool TensorSlice::canRead(const Tensor &t)
{
    if (!t.defined() || !t.device().isCpu())
        return false;
    switch (t.dtype()) {
    case DataType::Float32:
    case DataType::Float64:
    case DataType::Float16:
    case DataType::BFloat16:
    case DataType::Int8:
    case DataType::UInt8:
    case DataType::Int16:
    case DataType::Int32:
    case DataType::Int64:
    case DataType::Bool:
        return true;
    default:
        return false;
    }
}

void TensorSlice::setAxes(int rowAxis, int columnAxis)
{
    const int rank = int(m_tensor.rank());
    m_rowAxis = rowAxis >= 0 && rowAxis < rank ? rowAxis : -1;
    m_columnAxis = columnAxis >= 0 && columnAxis < rank && columnAxis != m_rowAxis ? columnAxis : -1;
    update();
}

void TensorSlice::setFixedIndex(int axis, int64_t index)
{
    if (axis < 0 || size_t(axis) >= m_fixed.size())
        return;
    m_fixed[size_t(axis)]
        = std::clamp<int64_t>(index, 0, std::max<int64_t>(0, m_tensor.dim(size_t(axis)) - 1));
    update();
}

int64_t TensorSlice::integerValue(int64_t row, int64_t column) const
{
    const int64_t i = flatIndex(row, column);
    switch (m_tensor.dtype()) {
    case DataType::Int8:
        return m_tensor.data<int8_t>()[i];
    case DataType::UInt8:
        return m_tensor.data<uint8_t>()[i];
    case DataType::Int16:
        return m_tensor.data<int16_t>()[i];
    case DataType::Int32:
        return m_tensor.data<int32_t>()[i];
    case DataType::Int64:
        return m_tensor.data<int64_t>()[i];
    case DataType::Bool:
        return m_tensor.data<bool>()[i] ? 1 : 0;
    default:
        return 0;
    }
}

std::vector<int64_t> TensorSlice::fullIndex(int64_t row, int64_t column) const
{
    std::vector<int64_t> index = m_fixed;
    if (m_rowAxis >= 0)
        index[size_t(m_rowAxis)] = row;
    if (m_columnAxis >= 0)
        index[size_t(m_columnAxis)] = column;
    return index;
}

std::vector<int64_t> TensorSlice::unflatten(int64_t flat, const std::vector<int64_t> &shape)
{
    std::vector<int64_t> index(shape.size(), 0);
    for (size_t i = shape.size(); i-- > 0;) {
        if (shape[i] > 0) {
            index[i] = flat % shape[i];
            flat /= shape[i];
        }
    }
    return index;
}

void TensorSlice::update()
{
    m_base = 0;
    for (size_t i = 0; i < m_fixed.size(); ++i)
        if (int(i) != m_rowAxis && int(i) != m_columnAxis)
            m_base += m_fixed[i] * m_strides[i];
    const bool empty = m_tensor.numElements() == 0;
    m_rows = empty ? 0 : (m_rowAxis >= 0 ? m_tensor.dim(size_t(m_rowAxis)) : 1);
    m_columns = empty ? 0 : (m_columnAxis >= 0 ? m_tensor.dim(size_t(m_columnAxis)) : 1);
    m_rowStride = m_rowAxis >= 0 ? m_strides[size_t(m_rowAxis)] : 0;
    m_columnStride = m_columnAxis >= 0 ? m_strides[size_t(m_columnAxis)] : 0;
}

} // namespace ps
