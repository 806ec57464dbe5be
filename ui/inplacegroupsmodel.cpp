#include "ui/inplacegroupsmodel.h"

#include "core/analysis/inplacegroups.h"
#include "core/analysis/valuenames.h"
#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/programdocument.h"

namespace ps {

// Top-level rows: the groups, then (when there are any) one "Shadow-output renames" row. Internal
// ids: 0 for top-level rows, parent row + 1 for children (a group's members, the renames).

InplaceGroupsModel::InplaceGroupsModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void InplaceGroupsModel::setDocument(std::shared_ptr<const ProgramDocument> document)
{
    beginResetModel();
    m_document = std::move(document);
    endResetModel();
}

QModelIndex InplaceGroupsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : quintptr(0));
}

QModelIndex InplaceGroupsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int InplaceGroupsModel::rowCount(const QModelIndex &parent) const
{
    if (!m_document)
        return 0;
    const auto &groups = m_document->inplaceGroups().groups();
    const auto &renames = m_document->inplaceGroups().renames();
    if (!parent.isValid())
        return int(groups.size()) + (renames.empty() ? 0 : 1);
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    if (size_t(parent.row()) == groups.size())
        return int(renames.size());
    return int(groups[size_t(parent.row())].members.size());
}

int InplaceGroupsModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant InplaceGroupsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto &groups = m_document->inplaceGroups().groups();
    const bool topLevel = index.internalId() == 0;
    const size_t top = topLevel ? size_t(index.row()) : size_t(index.internalId() - 1);
    if (top == groups.size())
        return topLevel ? renamesHeader(index, role) : renameData(index, role);
    const bool isGroup = topLevel;
    const InplaceGroup &group = groups[top];
    if (isGroup) {
        if (role == GroupRole)
            return index.row();
        if (role == ValueRole)
            return valueVariant(group.root);
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        switch (index.column()) {
        case ValueColumn:
            return m_document->valueId(group.root);
        case NameColumn:
            return group.rootName ? QString::fromStdString(*group.rootName) : QString();
        case DetailColumn:
            return tr("%n member(s)", nullptr, int(group.members.size()));
        }
        return {};
    }
    const Value member = group.members[size_t(index.row())];
    if (role == ValueRole)
        return valueVariant(member);
    if (role == OpRole)
        return opVariant(member.definingOp());
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case ValueColumn:
        return m_document->valueId(member);
    case NameColumn:
        return QString::fromStdString(valueNameOrEmpty(member));
    case DetailColumn:
        if (const Operation *op = member.definingOp())
            return QString::fromUtf8(op->name().data(), qsizetype(op->name().size()))
                + QStringLiteral("  #%1").arg(m_document->indexOf(op));
        return tr("argument");
    }
    return {};
}

QVariant InplaceGroupsModel::renamesHeader(const QModelIndex &index, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const size_t count = m_document->inplaceGroups().renames().size();
    if (index.column() == ValueColumn)
        return tr("Renames");
    if (index.column() == NameColumn)
        return count == 1 ? tr("1 shadow output") : tr("%1 shadow outputs").arg(count);
    if (role == Qt::ToolTipRole)
        return tr("A shadow_output of a group member is renamed to the group's root name, as "
                  "Paddle's deal_inplace_values does before the program runs");
    return tr("renamed to the root's name");
}

QVariant InplaceGroupsModel::renameData(const QModelIndex &index, int role) const
{
    const ShadowOutputRename &rename = m_document->inplaceGroups().renames()[size_t(index.row())];
    if (role == ValueRole)
        return valueVariant(rename.value);
    if (role == OpRole)
        return opVariant(rename.op);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case ValueColumn:
        return m_document->valueId(rename.value);
    case NameColumn:
        return QStringLiteral("%1 → %2").arg(
            QString::fromStdString(rename.from), QString::fromStdString(rename.to));
    case DetailColumn:
        return QStringLiteral("builtin.shadow_output  #%1").arg(m_document->indexOf(rename.op));
    }
    return {};
}

QVariant InplaceGroupsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ValueColumn:
        return tr("Value");
    case NameColumn:
        return tr("Name");
    case DetailColumn:
        return tr("Members / defined by");
    }
    return {};
}

} // namespace ps
