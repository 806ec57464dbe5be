#pragma once

#include "core/ir/value.h"

#include <QAbstractTableModel>
#include <vector>

namespace ps {

class DebugSession;
class Operation;

/// The operands and results of one op with what the paused session holds for each: "operand 0"
/// / "result 0", the value's id and names, its runtime value ("float32[2, 3]", "not computed",
/// "freed (no_need_buffer)") and whether the trace bundle has Paddle's tensor for it. Refreshed
/// at every stop. ValueRole gives the value.
class OpValuesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { RoleColumn, ValueColumn, RuntimeColumn, ReferenceColumn, ColumnCount };

    explicit OpValuesModel(DebugSession *session, QObject *parent = nullptr);

    void setOp(const Operation *op);
    const Operation *op() const { return m_op; }
    Value valueAt(int row) const;
    /// The row of `value`, or -1.
    int rowOf(Value value) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString role;
        Value value;
        QString label;
        QString runtime;
        bool reference = false;
    };
    void refresh();

    DebugSession *m_session;
    const Operation *m_op = nullptr;
    std::vector<Row> m_rows;
};

} // namespace ps
