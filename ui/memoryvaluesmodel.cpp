#include "ui/memoryvaluesmodel.h"

#include "core/session/memorymodel.h"

#include <QLocale>

namespace ps {

MemoryValuesModel::MemoryValuesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void MemoryValuesModel::setValues(std::vector<MemoryValue> values)
{
    beginResetModel();
    m_values = std::move(values);
    endResetModel();
}

int MemoryValuesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_values.size());
}

int MemoryValuesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemoryValuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Bytes:
        return tr("Bytes");
    case Op:
        return tr("Op");
    case ValueColumn:
        return tr("Value");
    case Name:
        return tr("Name");
    case Layer:
        return tr("Layer");
    default:
        return {};
    }
}

QVariant MemoryValuesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_values.size())
        return {};
    const MemoryValue &v = m_values[size_t(index.row())];
    if (role == OpLabelRole)
        return QString::fromStdString(v.op);
    if (role == SortRole && index.column() == Bytes)
        return qlonglong(v.bytes);
    if (role == Qt::TextAlignmentRole && index.column() == Bytes)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (index.column()) {
    case Bytes:
        return v.bytes < 0 ? tr("unknown")
                           : QLocale().formattedDataSize(v.bytes, 2, QLocale::DataSizeSIFormat);
    case Op:
        return QStringLiteral("%1 %2").arg(QString::fromStdString(v.op), QString::fromStdString(v.opName));
    case ValueColumn:
        return QString::fromStdString(v.value);
    case Name:
        return QString::fromStdString(v.name);
    case Layer:
        return QString::fromStdString(v.layer);
    default:
        return {};
    }
}

} // namespace ps
