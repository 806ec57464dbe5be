#pragma once

#include <QAbstractTableModel>

namespace ps {

class DebugSession;

/// The session's breakpoints: a checkbox (enabled) with the description ("pd_op.relu at 0:5",
/// "NaN/Inf in any result", "value name ~ /grad/"), the kind and the hit count. Unchecking a
/// row disables the breakpoint in the running interpreter too. OpRole gives an op breakpoint's op.
class BreakpointsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { BreakpointColumn, KindColumn, HitsColumn, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 120 };

    explicit BreakpointsModel(DebugSession *session, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The breakpoint id of `row`, or -1.
    int idAt(int row) const;

private:
    void onChanged();

    DebugSession *m_session;
    int m_rows = 0;
};

} // namespace ps
