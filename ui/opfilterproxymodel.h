#pragma once

#include <QSortFilterProxyModel>

namespace ps {

/// Filters an OpListModel by a search query (see OpListModel::matches()) and, optionally, leaves
/// out the builtin.parameter ops (hundreds in a real model, all first in program order).
class OpFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit OpFilterProxyModel(QObject *parent = nullptr);

    void setQuery(const QString &query);
    QString query() const { return m_query; }
    /// Off by default.
    void setHideParameters(bool hide);
    bool hidesParameters() const { return m_hideParameters; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_query;
    bool m_hideParameters = false;
};

} // namespace ps
