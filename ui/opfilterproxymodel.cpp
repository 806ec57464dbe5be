#include "ui/opfilterproxymodel.h"

#include "ui/oplistmodel.h"

namespace ps {

OpFilterProxyModel::OpFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
}

void OpFilterProxyModel::setQuery(const QString &query)
{
    const QString trimmed = query.trimmed();
    if (trimmed == m_query)
        return;
    m_query = trimmed;
    invalidateFilter();
}

void OpFilterProxyModel::setHideParameters(bool hide)
{
    if (hide == m_hideParameters)
        return;
    m_hideParameters = hide;
    invalidateFilter();
}

bool OpFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid())
        return false;
    const auto *ops = qobject_cast<const OpListModel *>(sourceModel());
    if (!ops)
        return true;
    return (!m_hideParameters || !ops->isParameter(sourceRow)) && ops->matches(sourceRow, m_query);
}

} // namespace ps
