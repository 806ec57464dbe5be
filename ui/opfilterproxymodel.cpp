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

bool OpFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid())
        return false;
    const auto *ops = qobject_cast<const OpListModel *>(sourceModel());
    return !ops || ops->matches(sourceRow, m_query);
}

} // namespace ps
