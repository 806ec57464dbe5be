#include "ui/inplacegroupsmodel.h"

#include "core/analysis/valuenames.h"
#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/programdocument.h"

namespace ps {

// Internal ids: 0 for group rows, group index + 1 for member rows (their parent group).

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
    if (!parent.isValid())
        return int(groups.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
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
    const bool isGroup = index.internalId() == 0;
    const InplaceGroup &group = groups[isGroup ? size_t(index.row()) : size_t(index.internalId() - 1)];
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
