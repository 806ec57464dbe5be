#pragma once

#include "core/ir/diagnostic.h"

#include <QAbstractTableModel>

namespace ps {

/// The diagnostics of the last load, then those of the debug session: severity, location
/// ("file:line:col" or a JSON path) and message.
class DiagnosticsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { SeverityColumn, LocationColumn, MessageColumn, ColumnCount };

    explicit DiagnosticsModel(QObject *parent = nullptr);

    void setDiagnostics(const DiagnosticList &diagnostics);
    /// Appends one row (a debug session's error or warning after the load's diagnostics).
    void addDiagnostic(Diagnostic diagnostic);
    const DiagnosticList &diagnostics() const { return m_diagnostics; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    DiagnosticList m_diagnostics;
};

} // namespace ps
