#pragma once

#include "core/transform/passmanager.h"
#include "ui/pipelinesnapshot.h"

#include <QAbstractItemModel>
#include <memory>
#include <vector>

namespace ps {

/// The pipeline's passes as a tree: one checkable row per pass (alias and Paddle name, what it
/// changed in the last snapshot, description), one child per PassTimelineStep (the program it ran
/// on: ops before → after, removed, added) and below it the removed (−) and added (+) ops.
/// Unchecking or checking a pass emits passToggled(); the check box shows the new state at
/// once, the records follow with the next setPasses().
class PassListModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { PassColumn, ChangeColumn, DescriptionColumn, ColumnCount };

    explicit PassListModel(QObject *parent = nullptr);
    ~PassListModel() override;

    void setPasses(const std::vector<PassInfo> &passes, const std::vector<PassTimelineStep> &log);
    void clear();
    /// Row of the pass with this name or alias, or -1.
    int passRow(const QString &nameOrAlias) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    /// `name` is the pass's Paddle name.
    void passToggled(const QString &name, bool enabled);

private:
    struct Node;
    Node *nodeOf(const QModelIndex &index) const;

    std::unique_ptr<Node> m_root;
};

} // namespace ps
