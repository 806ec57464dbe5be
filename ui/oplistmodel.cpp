#include "ui/oplistmodel.h"

#include "core/analysis/valuenames.h"
#include "core/dialect/ops.h"
#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/displaytext.h"
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
    m_parameters = 0;
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
            row.parameter = ops::isParameter(*op);
            m_parameters += row.parameter ? 1 : 0;
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
    if (role == Qt::ToolTipRole)
        return toolTip(index.row());
    if (role == Qt::DisplayRole) {
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

QString OpListModel::toolTip(int row) const
{
    if (!m_document || row < 0 || size_t(row) >= m_rows.size())
        return {};
    const Operation *op = m_document->ops()[size_t(row)];
    const auto describe = [this](Value v) {
        if (!v)
            return tr("null");
        QString text = m_document->valueId(v) + QStringLiteral(" : ") + DisplayText::type(v.type());
        const std::string name = valueNameOrEmpty(v);
        return name.empty() ? text : text + QStringLiteral("  ") + QString::fromStdString(name);
    };
    QStringList lines { QStringLiteral("%1  #%2").arg(m_rows[size_t(row)].name).arg(row) };
    for (unsigned i = 0; i < op->numOperands(); ++i)
        lines << tr("in %1: %2").arg(i).arg(describe(op->operand(i)));
    for (unsigned i = 0; i < op->numResults(); ++i)
        lines << tr("out %1: %2").arg(i).arg(describe(op->result(i)));
    if (!m_rows[size_t(row)].layer.isEmpty())
        lines << tr("layer %1").arg(m_rows[size_t(row)].layer);
    return lines.join(QLatin1Char('\n'));
}

bool OpListModel::isParameter(int row) const
{
    return row >= 0 && size_t(row) < m_rows.size() && m_rows[size_t(row)].parameter;
}

QVariant OpListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case IndexColumn:
            return tr("Position in program order, nested ops included");
        case ResultsColumn:
            return tr("Value ids of the results, as pirscope-cli print numbers them");
        case NamesColumn:
            return tr("Paddle names of the results: data, parameter, shadow_output and set_parameter names");
        case LayerColumn:
            return tr("The layer that made the op (its struct_name attribute)");
        default:
            return {};
        }
    }
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
