#pragma once

#include <QSortFilterProxyModel>

namespace ps {

/// Filters an OpListModel by a search query (see OpListModel::matches()).
class OpFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit OpFilterProxyModel(QObject *parent = nullptr);

    void setQuery(const QString &query);
    QString query() const { return m_query; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_query;
};

} // namespace ps
