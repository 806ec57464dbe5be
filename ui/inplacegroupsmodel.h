#pragma once

#include <QAbstractItemModel>
#include <memory>

namespace ps {

class ProgramDocument;

/// The inplace union-find groups as a tree: one row per group (root id, root name, member
/// count) with one child per member (id, names, defining op), then, when there are any, a
/// "Renames" row with one child per shadow-output rename (value, from → to, the shadow_output
/// op), as `pirscope-cli inplace` lists them. Group rows carry GroupRole and the root in
/// ValueRole; member and rename rows their value and op.
class InplaceGroupsModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { ValueColumn, NameColumn, DetailColumn, ColumnCount };

    explicit InplaceGroupsModel(QObject *parent = nullptr);

    void setDocument(std::shared_ptr<const ProgramDocument> document);
    const ProgramDocument *document() const { return m_document.get(); }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant renamesHeader(const QModelIndex &index, int role) const;
    QVariant renameData(const QModelIndex &index, int role) const;

    std::shared_ptr<const ProgramDocument> m_document;
};

} // namespace ps
