#include "ui/valuenamemapmodel.h"

#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/programdocument.h"

namespace ps {

ValueNameMapModel::ValueNameMapModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ValueNameMapModel::setDocument(std::shared_ptr<const ProgramDocument> document)
{
    beginResetModel();
    m_document = std::move(document);
    endResetModel();
}

int ValueNameMapModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_document ? 0 : int(m_document->nameMap().entries().size());
}

int ValueNameMapModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ValueNameMapModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ValueNameEntry &e = m_document->nameMap().entries()[size_t(index.row())];
    if (role == ValueRole)
        return valueVariant(e.value);
    if (role == OpRole)
        return opVariant(e.op);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case ValueColumn:
        return e.value ? m_document->valueId(e.value) : tr("(fake)");
    case NameColumn:
        return QString::fromStdString(e.name);
    case SourceColumn: {
        std::string_view s = nameSourceText(e.source);
        return QString::fromUtf8(s.data(), qsizetype(s.size()));
    }
    case OpColumn:
        if (!e.op)
            return QString();
        return QString::fromUtf8(e.op->name().data(), qsizetype(e.op->name().size()))
            + QStringLiteral("  #%1").arg(m_document->indexOf(e.op));
    }
    return {};
}

QVariant ValueNameMapModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ValueColumn:
        return tr("Value");
    case NameColumn:
        return tr("Name");
    case SourceColumn:
        return tr("Source");
    case OpColumn:
        return tr("Op");
    }
    return {};
}

} // namespace ps
