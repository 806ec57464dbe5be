#include "ui/oplistmodel.h"

#include "core/analysis/valuenames.h"
#include "core/ir/operation.h"
#include "ui/itemroles.h"
#include "ui/programdocument.h"

namespace ps {

OpListModel::OpListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void OpListModel::setDocument(std::shared_ptr<const ProgramDocument> document)
{
    beginResetModel();
    m_document = std::move(document);
    m_rows.clear();
    if (m_document) {
        m_rows.reserve(m_document->ops().size());
        for (const Operation *op : m_document->ops()) {
            Row row;
            row.name = QString::fromUtf8(op->name().data(), qsizetype(op->name().size()));
            QStringList results, names;
            for (unsigned i = 0; i < op->numResults(); ++i) {
                Value v = op->result(i);
                results << m_document->valueId(v);
                for (const std::string &n : ValueNames::allNameStrings(v))
                    names << QString::fromStdString(n);
            }
            for (unsigned i = 0; i < op->numOperands(); ++i)
                if (Value v = op->operand(i))
                    row.ids << m_document->valueId(v);
            row.ids << results;
            row.results = results.join(QStringLiteral(", "));
            names.removeDuplicates();
            row.names = names.join(QStringLiteral(", "));
            row.layer = QString::fromStdString(op->stringAttribute("struct_name"));
            m_rows.push_back(std::move(row));
        }
    }
    endResetModel();
}

int OpListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OpListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[size_t(index.row())];
    if (role == OpRole)
        return opVariant(m_document->ops()[size_t(index.row())]);
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case IndexColumn:
            return index.row();
        case NameColumn:
            return row.name;
        case ResultsColumn:
            return row.results;
        case NamesColumn:
            return row.names;
        case LayerColumn:
            return row.layer;
        }
    }
    return {};
}

QVariant OpListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IndexColumn:
        return tr("#");
    case NameColumn:
        return tr("Op");
    case ResultsColumn:
        return tr("Results");
    case NamesColumn:
        return tr("Names");
    case LayerColumn:
        return tr("Layer");
    }
    return {};
}

int OpListModel::rowOf(const Operation *op) const
{
    return m_document ? m_document->indexOf(op) : -1;
}

bool OpListModel::matches(int row, const QString &query) const
{
    if (query.isEmpty())
        return true;
    if (row < 0 || size_t(row) >= m_rows.size())
        return false;
    const Row &r = m_rows[size_t(row)];
    if (query.startsWith(QLatin1Char('%')))
        return r.ids.contains(query);
    return r.name.contains(query, Qt::CaseInsensitive) || r.names.contains(query, Qt::CaseInsensitive)
        || r.results.contains(query, Qt::CaseInsensitive);
}

} // namespace ps
