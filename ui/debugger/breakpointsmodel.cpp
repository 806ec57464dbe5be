#include "ui/debugger/breakpointsmodel.h"

#include "ui/common/itemroles.h"
#include "ui/debugger/debugsession.h"

namespace ps {

BreakpointsModel::BreakpointsModel(DebugSession *session, QObject *parent)
    : QAbstractTableModel(parent)
    , m_session(session)
    , m_rows(int(session->breakpoints().size()))
{
    connect(session, &DebugSession::breakpointsChanged, this, &BreakpointsModel::onChanged);
}

void BreakpointsModel::onChanged()
{
    const int rows = int(m_session->breakpoints().size());
    if (rows == m_rows) {
        if (rows > 0)
            emit dataChanged(index(0, 0), index(rows - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int BreakpointsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int BreakpointsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int BreakpointsModel::idAt(int row) const
{
    return row >= 0 && row < m_rows ? m_session->breakpoints()[size_t(row)].id : -1;
}

QVariant BreakpointsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const DebugBreakpoint &b = m_session->breakpoints()[size_t(index.row())];
    if (role == IdRole)
        return b.id;
    if (role == OpRole)
        return opVariant(b.op);
    if (role == Qt::CheckStateRole && index.column() == BreakpointColumn)
        return b.enabled ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case BreakpointColumn:
            return QString::fromStdString(b.description());
        case KindColumn:
            return b.kind == DebugBreakpoint::Kind::Op    ? tr("op")
                : b.kind == DebugBreakpoint::Kind::NanInf ? tr("NaN/Inf")
                                                          : tr("name");
        case HitsColumn:
            return b.hits;
        default:
            return {};
        }
    }
    return {};
}

bool BreakpointsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || index.column() != BreakpointColumn || role != Qt::CheckStateRole)
        return false;
    const bool on = value.toInt() == Qt::Checked;
    return m_session->setBreakpointEnabled(idAt(index.row()), on);
}

Qt::ItemFlags BreakpointsModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == BreakpointColumn)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant BreakpointsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case BreakpointColumn:
        return tr("Breakpoint");
    case KindColumn:
        return tr("Kind");
    case HitsColumn:
        return tr("Hits");
    default:
        return {};
    }
}

} // namespace ps
