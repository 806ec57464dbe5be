#pragma once

#include <QAbstractTableModel>

namespace ps {

class DebugSession;
class Operation;
struct OpRecord;

/// The timeline of a debug session: one row per executed op (sequence, marks, op, position,
/// segment, wall and device milliseconds, output shapes), then, while paused, a row for the op the
/// session stands at ("next", or the failed op). Marks: ● breakpoint, NaN for a non-finite
/// result, ≠ for a divergence from the CPU, ▶ the current op, ✖ the failed op. Rows grow in
/// batches while the session runs. OpRole gives the op.
class ExecutedOpsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        SequenceColumn,
        MarksColumn,
        OpColumn,
        PositionColumn,
        SegmentColumn,
        WallColumn,
        DeviceColumn,
        OutputsColumn,
        ColumnCount
    };

    explicit ExecutedOpsModel(DebugSession *session, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Rows for executed ops (the trailing current-op row excluded).
    int recordRows() const { return m_count; }
    /// The row of the op the session stands at, or -1 (running, finished, not started).
    int currentRow() const { return m_current ? m_count : -1; }
    /// The row showing `op`: the current-op row when the session stands at it, else its latest
    /// execution; -1 when it has not run. O(rows).
    int rowOf(const Operation *op) const;
    /// "●", "NaN ▶", ... as shown in the Marks column.
    QString marks(int row) const;

private:
    void onAppended(int first, int count);
    void onReset();
    void updateCurrentRow();
    QVariant recordData(const OpRecord &record, int column, int role) const;
    QVariant currentData(int column, int role) const;

    DebugSession *m_session;
    int m_count = 0;
    bool m_current = false;
};

} // namespace ps
