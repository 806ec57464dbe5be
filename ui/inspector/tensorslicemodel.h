#pragma once

#include "ui/inspector/tensorslice.h"

#include <QAbstractTableModel>

namespace ps {

/// A 2-D slice of a host tensor as a table: one cell per element, header labels are indices.
/// data() is O(1) per cell (stride arithmetic, nothing precomputed per element), so a tensor of
/// any size opens at once; rows appear in pages of PageRows through canFetchMore/fetchMore, up
/// to MaxRows (and at most MaxColumns columns) so the views' headers stay small.
class TensorSliceModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int PageRows = 65536;
    static constexpr int MaxRows = 1 << 20;
    static constexpr int MaxColumns = 1 << 16;

    enum Role {
        ValueRole = Qt::UserRole + 64, ///< the element as double
        FlatIndexRole, ///< qint64 row-major offset in the tensor
        FullIndexRole, ///< QList<qint64> N-d index
    };

    explicit TensorSliceModel(QObject *parent = nullptr);

    /// Resets the model to the default slice of `tensor` (see TensorSlice); an undefined,
    /// device or unreadable tensor gives an empty model.
    void setTensor(const Tensor &tensor);
    /// New row/column axes (see TensorSlice::setAxes) and, when given, every fixed index.
    void setAxes(int rowAxis, int columnAxis, const std::vector<int64_t> &fixed = {});
    void setFixedIndex(int axis, int64_t index);
    const TensorSlice &slice() const { return m_slice; }

    /// Rows and columns of the slice before the caps.
    int64_t sliceRows() const { return m_slice.rows(); }
    int64_t sliceColumns() const { return m_slice.columns(); }
    /// True when the slice has more rows than MaxRows or more columns than MaxColumns.
    bool truncated() const;

    /// "1.5", "nan", "-inf", "42", "true": floats as %.6g (halves through float), integers exact.
    static QString valueText(const TensorSlice &slice, int64_t row, int64_t column);
    QString text(int64_t row, int64_t column) const { return valueText(m_slice, row, column); }
    /// "(0, 2, 1)".
    static QString indexText(const std::vector<int64_t> &index);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

private:
    void resetRows();
    int rowLimit() const;

    TensorSlice m_slice;
    int m_loadedRows = 0;
    bool m_changing = false; ///< inside our own reset/insert signals: no re-entrant fetchMore
};

} // namespace ps
