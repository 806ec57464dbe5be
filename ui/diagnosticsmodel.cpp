#include "ui/diagnosticsmodel.h"

#include "ui/common/themecolors.h"

#include <QBrush>
#include <QColor>

namespace ps {

DiagnosticsModel::DiagnosticsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void DiagnosticsModel::setDiagnostics(const DiagnosticList &diagnostics)
{
    beginResetModel();
    m_diagnostics = diagnostics;
    endResetModel();
}

void DiagnosticsModel::addDiagnostic(Diagnostic diagnostic)
{
    const int row = int(m_diagnostics.size());
    beginInsertRows({}, row, row);
    m_diagnostics.add(std::move(diagnostic));
    endInsertRows();
}

int DiagnosticsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_diagnostics.size());
}

int DiagnosticsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Diagnostic &d = m_diagnostics[size_t(index.row())];
    if (role == Qt::ForegroundRole && index.column() == SeverityColumn)
        return QBrush(d.severity == Diagnostic::Severity::Error ? ThemeColors::current().error
                                                                : ThemeColors::current().warning);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case SeverityColumn:
        switch (d.severity) {
        case Diagnostic::Severity::Error:
            return tr("error");
        case Diagnostic::Severity::Warning:
            return tr("warning");
        case Diagnostic::Severity::Note:
            return tr("note");
        }
        return {};
    case LocationColumn:
        return QString::fromStdString(d.location.toString());
    case MessageColumn:
        return QString::fromStdString(d.message);
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case LocationColumn:
        return tr("Location");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

} // namespace ps
