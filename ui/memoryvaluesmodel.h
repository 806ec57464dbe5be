#pragma once

#include <QAbstractTableModel>
#include <vector>

namespace ps {

struct MemoryValue;

/// Buffers of a memory report (MemoryValue), one row each: their bytes, the op that allocates
/// them ("fwd:9 pd_op.matmul"), the value, its scope name and its layer. SortRole sorts bytes
/// numerically.
class MemoryValuesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Bytes, Op, ValueColumn, Name, Layer, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 100;
    /// The row's op label ("fwd:9"), for the window to find the op.
    static constexpr int OpLabelRole = Qt::UserRole + 101;

    explicit MemoryValuesModel(QObject *parent = nullptr);

    void setValues(std::vector<MemoryValue> values);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<MemoryValue> m_values;
};

} // namespace ps
