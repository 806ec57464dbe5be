#pragma once

#include "core/ir/value.h"

#include <QMainWindow>
#include <memory>

class QDockWidget;
class QLabel;
class QMenu;
class QTableView;
class QTreeView;

namespace ps {

class DiagnosticsModel;
class GraphView;
class InplaceGroupsModel;
class OpListPanel;
class Operation;
class ProgramDocument;
class PropertiesModel;
class ValueNameMapModel;

/// The PIRScope main window: the graph in the centre, op list, properties, value-name map,
/// inplace groups and diagnostics in docks, with the selection kept in sync between them.
/// A file that fails to load leaves the previous program open and lists its errors.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Loads a program (a file path or a ":/" resource). Returns false, keeping the current
    /// program, when the load has errors; they are listed in the Problems dock.
    bool openFile(const QString &path);
    /// Opens the first bundled example (":/.../examples/*.json"); false when none is bundled.
    bool openDefaultExample();
    std::shared_ptr<const ProgramDocument> document() const { return m_document; }

    /// Saves what the graph view shows, at twice the screen resolution.
    bool exportPng(const QString &path);
    bool exportSvg(const QString &path);

    /// Selects an op in the graph, the op list and the properties.
    void selectOp(const Operation *op);
    /// Shows a value's properties and highlights its edges.
    void selectValue(Value value);

    GraphView *graphView() const { return m_graphView; }
    OpListPanel *opListPanel() const { return m_opList; }
    PropertiesModel *propertiesModel() const { return m_properties; }
    QTreeView *propertiesView() const { return m_propertiesView; }
    ValueNameMapModel *valueNameMapModel() const { return m_nameMap; }
    InplaceGroupsModel *inplaceGroupsModel() const { return m_inplace; }
    QTreeView *inplaceGroupsView() const { return m_inplaceView; }
    DiagnosticsModel *diagnosticsModel() const { return m_diagnostics; }
    QDockWidget *diagnosticsDock() const { return m_diagnosticsDock; }
    QStringList recentFiles() const;

signals:
    void documentChanged();
    /// `message` names the file and the first error ("file:line:col: message").
    void loadFailed(const QString &message);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    QDockWidget *addDock(
        const QString &title, const QString &objectName, QWidget *widget, Qt::DockWidgetArea area);
    void setDocument(std::shared_ptr<const ProgramDocument> document);
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void onLayoutFinished(double seconds, bool fromCache);
    void onNavigate(const QModelIndex &index);
    void onInplaceGroupSelected(const QModelIndex &index);
    void openDialog();
    void exportDialog(bool svg);

    std::shared_ptr<const ProgramDocument> m_document;
    GraphView *m_graphView;
    OpListPanel *m_opList;
    PropertiesModel *m_properties;
    QTreeView *m_propertiesView;
    ValueNameMapModel *m_nameMap;
    QTableView *m_nameMapView;
    InplaceGroupsModel *m_inplace;
    QTreeView *m_inplaceView;
    DiagnosticsModel *m_diagnostics;
    QTableView *m_diagnosticsView;
    QDockWidget *m_diagnosticsDock = nullptr;
    QMenu *m_recentMenu = nullptr;
    QLabel *m_loadStatus;
    QLabel *m_layoutStatus;
};

} // namespace ps
