#pragma once

#include <QAbstractTableModel>
#include <memory>

namespace ps {

struct IntermediatesResult;

/// Paddle's intermediates compared with PIRScope's run (IntermediatesResult), one row per
/// compared value in program order: the op shown for it ("fwd:9 pd_op.matmul"), the value, the
/// part of Paddle's program (forward/backward), the elements beyond tolerance, the max absolute
/// and relative errors, the error ratio (|difference| / tolerance) and whether an operand had
/// already differed (the error may be inherited). SortRole gives every column a sortable value;
/// OpRole the op shown.
class IntermediatesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Index, Op, ValueColumn, Part, Mismatches, MaxAbs, MaxRel, Error, Inherited, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 100;

    explicit IntermediatesModel(QObject *parent = nullptr);

    /// Null clears.
    void setResult(std::shared_ptr<const IntermediatesResult> result);
    std::shared_ptr<const IntermediatesResult> result() const { return m_result; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const IntermediatesResult> m_result;
};

} // namespace ps
