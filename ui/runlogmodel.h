#pragma once

#include <QAbstractTableModel>
#include <memory>

namespace ps {

struct RunLogResult;

/// The records of a checked Paddle run log (RunLogResult), one row each in log order: line,
/// kernel, tensor, the op and value it matched ("fwd:9", "%30"), the statistic that differs
/// most, Paddle's and PIRScope's value of it and the error ratio (|difference| / tolerance).
/// An unmatched row says why in the op column; a matched one PIRScope did not compute says so.
/// SortRole gives every column a sortable value (an unmatched row's error sorts lowest); OpRole
/// the matched op.
class RunLogModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Line, Kernel, Tensor, Op, ValueColumn, Stat, Paddle, Pirscope, Error, ColumnCount };
    /// The sort key of a cell (numbers for line, values and error; -1 error when not compared).
    static constexpr int SortRole = Qt::UserRole + 100;

    explicit RunLogModel(QObject *parent = nullptr);

    /// Null clears.
    void setResult(std::shared_ptr<const RunLogResult> result);
    std::shared_ptr<const RunLogResult> result() const { return m_result; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const RunLogResult> m_result;
};

} // namespace ps
