#pragma once

#include "core/ir/diagnostic.h"
#include "core/ir/value.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/itemroles.h"
#include "ui/selectionmodel.h"

#include <QMainWindow>
#include <memory>

class QAction;
class QDockWidget;
class QMenu;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTreeView;

namespace ps {

class DiagnosticsModel;
class GraphView;
class HelpMenu;
class InplaceGroupsModel;
class MainWindowDebugger;
class MainWindowPasses;
class MainWindowMemory;
class MainWindowPirText;
class MainWindowRunLog;
class OpListPanel;
class Operation;
class PassPanel;
class PipelineRunner;
class ProgramAttributesModel;
class DockCollapser;
class FocusMode;
class ProgramDocument;
class ProgramPickerPanel;
class PropertiesModel;
class RecentFiles;
class SplitView;
class StartPage;
class ValueNameMapModel;
struct OpenedFile;
struct PipelineSnapshot;
struct PipelineSource;

/// The PIRScope main window. The centre has two tabs: the origin program's graph and the split
/// view (forward graph, cut, backward graph). A toolbar switches between the train and infer
/// pipelines, which PipelineRunner computes off the UI thread; docks show the op list,
/// properties, value names and inplace groups (of the program last clicked, or chosen), the
/// passes, the program attributes and the problems, with the selection kept in sync. Opens
/// programs (PIR JSON or text) and trace bundles (folder or manifest.json); a file that fails
/// to open leaves the previous document open and lists its errors.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    enum class Tab { Program, Split, Passes };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens a program (a file path or a ":/" resource), a trace bundle (its folder or
    /// manifest.json), or a pass log or folder of per-pass dumps (MainWindowPasses). The file is
    /// read and its document built off the UI thread (FileLoader); returns once it is open: false,
    /// keeping the current document, when it has errors; they are listed in the Problems dock.
    bool openFile(const QString &path);
    /// Makes the file's source and document the window's program, listing its diagnostics; without
    /// a source it keeps the current program and reports the failure (as openFile does).
    bool adoptFile(const OpenedFile &file);
    /// Shows `result` (the program after the passes the user switched) on the Program tab and
    /// in the panels of the origin side; null shows the loaded program again.
    void showProgramResult(std::shared_ptr<const ProgramDocument> result);
    /// Opens the first bundled example (":/.../examples/*.json"); false when none is bundled.
    bool openDefaultExample();
    /// The first bundled example's resource path, or empty.
    static QString defaultExample();
    /// The origin program.
    std::shared_ptr<const ProgramDocument> document() const { return m_document; }
    std::shared_ptr<const PipelineSource> pipelineSource() const { return m_source; }
    /// The pipeline shown now (null until the first one is computed).
    std::shared_ptr<const PipelineSnapshot> snapshot() const { return m_snapshot; }
    /// The document of a side (null for a split side without a snapshot).
    std::shared_ptr<const ProgramDocument> documentOf(ProgramSide side) const;

    /// Saves the whole graph of the current tab (every layer open): PNG at twice the screen
    /// resolution, SVG with its labels as text. The split tab is saved as shown.
    bool exportPng(const QString &path);
    bool exportSvg(const QString &path);

    /// The one selection every panel shows and changes (graphs, Ops list, Properties, split view,
    /// debugger).
    SelectionModel *selection() const { return m_selection; }
    /// Selects an op in its program (origin, forward or backward, found from the op): shorthand
    /// for selection()->selectOp(op).
    void selectOp(const Operation *op);
    /// Selects a value (its edges highlighted, its properties shown): selection()->selectValue().
    void selectValue(Value value);

    /// Train or infer pipeline; recomputes (off the UI thread) unless cached.
    void setTraining(bool training);
    bool isTraining() const;
    void showTab(Tab tab);
    Tab currentTab() const;

    /// Parts of the window, for SceneSetup, ScreenshotRunner and the tests.
    GraphView *graphView() const { return m_graphView; }
    SplitView *splitView() const { return m_splitView; }
    PipelineRunner *pipelineRunner() const { return m_runner; }
    OpListPanel *opListPanel() const { return m_opList; }
    PropertiesModel *propertiesModel() const { return m_properties; }
    QTreeView *propertiesView() const { return m_propertiesView; }
    ValueNameMapModel *valueNameMapModel() const { return m_nameMap; }
    ProgramPickerPanel *valueNamesPicker() const { return m_namesPicker; }
    InplaceGroupsModel *inplaceGroupsModel() const { return m_inplace; }
    QTreeView *inplaceGroupsView() const { return m_inplaceView; }
    PassPanel *passPanel() const { return m_passPanel; }
    ProgramAttributesModel *attributesModel() const { return m_attributes; }
    QTreeView *attributesView() const { return m_attributesView; }
    DiagnosticsModel *diagnosticsModel() const { return m_diagnostics; }
    QDockWidget *diagnosticsDock() const { return m_diagnosticsDock; }
    QAction *trainAction() const { return m_trainAction; }
    QAction *inferAction() const { return m_inferAction; }
    ElidedLabel *pipelineStatusLabel() const { return m_pipelineStatus; }
    /// Shown until a program is open.
    StartPage *startPage() const { return m_startPage; }
    bool isStartPageShown() const;
    HelpMenu *helpMenu() const { return m_help; }
    /// The Debug menu, toolbar and dock with their session.
    MainWindowDebugger *debugger() const { return m_debugger; }
    /// The Passes tab: the pass timeline and its diffs.
    MainWindowPasses *passes() const { return m_passes; }
    FocusMode *focusMode() const { return m_focusMode; }
    DockCollapser *dockCollapser() const { return m_dockCollapser; }
    /// Paddle run logs: the "Paddle run log" dock, the graphs' colours, Run to first divergence.
    MainWindowRunLog *runLog() const { return m_runLog; }
    MainWindowMemory *memory() const { return m_memory; }
    /// The "PIR Text" dock: the program as text, synced with the selection.
    MainWindowPirText *pirText() const { return m_pirText; }
    /// The program the op list and properties show.
    ProgramSide activeSide() const { return m_activeSide; }
    QStringList recentFiles() const;

signals:
    void documentChanged();
    /// `message` names the file and the first error ("file:line:col: message").
    void loadFailed(const QString &message);
    /// A pipeline snapshot was shown (after a new document, a mode switch or a pass switch).
    void pipelineChanged();
    /// The Program tab switched between the loaded program and the passes' result.
    void programShown();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    /// Of the dock layout saved in QSettings: a layout saved by an older version is not restored.
    static constexpr int kStateVersion = 2;
    /// 1600x1000, or 90% of the screen where that is smaller.
    QSize defaultSize() const;
    void connectStartPage();
    void createActions();
    void createDocks();
    void connectSelection();
    QDockWidget *addDock(
        const QString &title, const QString &objectName, QWidget *widget, Qt::DockWidgetArea area);
    void failLoad(const QString &path, const DiagnosticList &diagnostics);
    void setDocument(
        std::shared_ptr<const ProgramDocument> document, std::shared_ptr<const PipelineSource> source);
    void onSnapshot(std::shared_ptr<const PipelineSnapshot> snapshot);
    void updatePipelineStatus();
    void setActiveSide(ProgramSide side);
    GraphView *viewOf(ProgramSide side) const;
    /// The graph view holding the focus, else the current tab's (the split tab: forward).
    GraphView *focusedGraphView() const;
    ProgramSide sideOf(const Operation *op) const;
    ProgramSide sideOf(Value value) const;
    void showSelection(const SelectionModel::Selection &selection);
    void onLayoutFinished(double seconds, bool fromCache);
    void onNavigate(const QModelIndex &index, ProgramSide side);
    void onInplaceGroupSelected(const QModelIndex &index);
    void onAttributeSelected(const QModelIndex &index);
    void openDialog();
    void openBundleDialog();
    void exportDialog(bool svg);

    std::shared_ptr<const ProgramDocument> m_document;
    /// The passes' result the Program tab shows instead of m_document; null: m_document.
    std::shared_ptr<const ProgramDocument> m_programResult;
    std::shared_ptr<const PipelineSource> m_source;
    std::shared_ptr<const PipelineSnapshot> m_snapshot;
    DiagnosticList m_loadDiagnostics;
    ProgramSide m_activeSide = ProgramSide::Origin;
    FocusMode *m_focusMode = nullptr;
    DockCollapser *m_dockCollapser = nullptr;
    SelectionModel *m_selection;
    bool m_pickedInGraph = false; ///< the selection being shown was picked in a graph
    QStackedWidget *m_central;
    StartPage *m_startPage;
    QTabWidget *m_tabs;
    GraphView *m_graphView;
    SplitView *m_splitView;
    PipelineRunner *m_runner;
    OpListPanel *m_opList;
    PropertiesModel *m_properties;
    QTreeView *m_propertiesView;
    ValueNameMapModel *m_nameMap;
    QTableView *m_nameMapView;
    ProgramPickerPanel *m_namesPicker;
    InplaceGroupsModel *m_inplace;
    QTreeView *m_inplaceView;
    ProgramPickerPanel *m_inplacePicker;
    PassPanel *m_passPanel;
    ProgramAttributesModel *m_attributes;
    QTreeView *m_attributesView;
    DiagnosticsModel *m_diagnostics;
    QTableView *m_diagnosticsView;
    QDockWidget *m_diagnosticsDock = nullptr;
    RecentFiles *m_recent = nullptr;
    QAction *m_trainAction = nullptr;
    QAction *m_inferAction = nullptr;
    ElidedLabel *m_pipelineStatus;
    ElidedLabel *m_loadStatus;
    ElidedLabel *m_layoutStatus;
    MainWindowDebugger *m_debugger = nullptr;
    HelpMenu *m_help = nullptr;
    MainWindowPasses *m_passes = nullptr;
    MainWindowRunLog *m_runLog = nullptr;
    MainWindowMemory *m_memory = nullptr;
    MainWindowPirText *m_pirText = nullptr;
    QMenu *m_fileMenu = nullptr;
    QAction *m_filterOpsAction = nullptr; ///< View ▸ Filter Ops (PIR Text goes before it)
};

} // namespace ps
