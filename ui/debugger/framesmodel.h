#pragma once

#include <QAbstractTableModel>

namespace ps {

class DebugSession;
class Operation;

/// The call stack of a paused session: one row per region level at the current position,
/// innermost first ("pd_op.while — iteration 2", "pd_op.if — true branch", "forward — top
/// block"), with the position of the op each level stands at. OpRole gives that op.
class FramesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { FrameColumn, PositionColumn, ColumnCount };

    explicit FramesModel(DebugSession *session, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString frame;
        QString position;
        const Operation *op = nullptr;
    };
    void refresh();

    DebugSession *m_session;
    std::vector<Row> m_rows;
};

} // namespace ps
