#include "ui/debugger/opvaluesmodel.h"

#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/debugger/debugsession.h"

namespace ps {

OpValuesModel::OpValuesModel(DebugSession *session, QObject *parent)
    : QAbstractTableModel(parent)
    , m_session(session)
{
    connect(session, &DebugSession::valuesChanged, this, &OpValuesModel::refresh);
    connect(session, &DebugSession::targetChanged, this, [this] { setOp(nullptr); });
}

void OpValuesModel::setOp(const Operation *op)
{
    m_op = op;
    refresh();
}

void OpValuesModel::refresh()
{
    std::vector<Row> rows;
    if (m_op) {
        auto add = [&](const QString &role, Value v) {
            Row r;
            r.role = role;
            r.value = v;
            r.label = m_session->isActive() && !m_session->isRunning() ? m_session->valueLabel(v) : QString();
            if (r.label.isEmpty())
                r.label = v ? QStringLiteral("%?") : QStringLiteral("<null>");
            r.runtime = m_session->isActive() ? m_session->describe(v) : tr("not started");
            r.reference = !m_session->referenceFile(v).isEmpty();
            rows.push_back(r);
        };
        for (unsigned i = 0; i < m_op->numOperands(); ++i)
            add(tr("operand %1").arg(i), m_op->operand(i));
        for (unsigned i = 0; i < m_op->numResults(); ++i)
            add(tr("result %1").arg(i), m_op->result(i));
    }
    // Same rows: update in place. Otherwise remove and insert (a reset would also reset the
    // view's column widths).
    if (rows.size() == m_rows.size()) {
        m_rows = std::move(rows);
        if (!m_rows.empty())
            emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
        return;
    }
    if (!m_rows.empty()) {
        beginRemoveRows({}, 0, int(m_rows.size()) - 1);
        m_rows.clear();
        endRemoveRows();
    }
    if (!rows.empty()) {
        beginInsertRows({}, 0, int(rows.size()) - 1);
        m_rows = std::move(rows);
        endInsertRows();
    }
}

Value OpValuesModel::valueAt(int row) const
{
    return row >= 0 && size_t(row) < m_rows.size() ? m_rows[size_t(row)].value : Value();
}

int OpValuesModel::rowOf(Value value) const
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].value == value)
            return int(i);
    return -1;
}

int OpValuesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OpValuesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpValuesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[size_t(index.row())];
    if (role == ValueRole)
        return valueVariant(r.value);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case RoleColumn:
        return r.role;
    case ValueColumn:
        return r.label;
    case RuntimeColumn:
        return r.runtime;
    case ReferenceColumn:
        if (role == Qt::ToolTipRole)
            return r.reference ? m_session->referenceFile(r.value)
                               : tr("the trace bundle has no tensor for it");
        return r.reference ? tr("yes") : QString();
    default:
        return {};
    }
}

QVariant OpValuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RoleColumn:
        return tr("Role");
    case ValueColumn:
        return tr("Value");
    case RuntimeColumn:
        return tr("Now");
    case ReferenceColumn:
        return tr("Paddle");
    default:
        return {};
    }
}

} // namespace ps
