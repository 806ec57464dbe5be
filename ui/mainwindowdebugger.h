#pragma once

#include "core/ir/value.h"

#include <QObject>
#include <array>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;

namespace ps {

struct InferredShape;

class DebugSession;
class DebuggerActions;
class DebuggerPanel;
class DebuggerToolBar;
class DiagnosticsModel;
class GraphMarks;
class GraphView;
class MainWindow;
class RunOverlayLegend;
class Operation;
class SelectionModel;
class ValueSummary;

/// Puts the debugger into the main window: the Debug menu, the Debug toolbar and the Debugger
/// dock. It chooses what to debug while no session runs (in Train mode the train step, forward +
/// backward, from every tab; in Infer mode the origin program on the Program tab and the infer
/// pipeline on the split tab), maps the Program tab's ops onto their clones in a pipeline
/// debugged (breakpoints, Run to Cursor, the Values shown, the marks), marks the
/// current op, breakpoints and op times on the three graph views, selects the current op in the
/// graph and the op list at every stop (through the window's SelectionModel, which the debugger
/// panel's Values and inspector follow too), and lets F9 and Run to Cursor act on the selection.
/// The status bar shows the shapes the inputs will get.
class MainWindowDebugger : public QObject
{
    Q_OBJECT

public:
    /// The parts of the window the debugger works with, besides the window's menus, toolbars,
    /// docks, status bar and the programs it shows.
    struct WindowParts
    {
        SelectionModel *selection;
        /// The Problems panel: failed ops and starts are listed there.
        DiagnosticsModel *problems;
        QDockWidget *problemsDock;
        /// The central tabs: in Infer mode the split tab debugs the pipeline, the others the Program
        /// tab's program (Train mode debugs the train step from every tab).
        QTabWidget *tabs;
        /// The Program tab's graph, then the forward and backward graphs: they show the marks.
        std::array<GraphView *, 3> graphViews;
    };

    MainWindowDebugger(MainWindow *window, const WindowParts &parts);
    ~MainWindowDebugger() override;

    DebugSession *session() const { return m_session; }
    DebuggerActions *actions() const { return m_actions; }
    DebuggerToolBar *toolBar() const { return m_toolBar; }
    DebuggerPanel *panel() const { return m_panel; }
    GraphMarks *marks() const { return m_marks; }
    QDockWidget *dock() const { return m_dock; }
    QMenu *menu() const { return m_menu; }
    /// The status bar's "Input shapes: x 1×3×736×736 (.yml)"; hidden when no input is dynamic.
    QLabel *shapesStatus() const { return m_shapesStatus; }
    /// What the session holds for a value, for hover tooltips.
    ValueSummary *valueSummary() const { return m_summary; }
    /// The shape inferred for `value` (a value of any tab: the Program tab's stand for their
    /// clones in a pipeline) from the session's input shapes; nullptr when none.
    const InferredShape *inferredShape(Value value) const;
    /// View ▸ Time Overlay (also on the debugger toolbar): executed ops coloured by their share
    /// of the run's time (GraphMarks::setTimeOverlay); kept in QSettings "debugger/timeOverlay".
    QAction *timeOverlayAction() const { return m_timeOverlay; }
    /// The overlay's colours, in the status bar while it is on.
    RunOverlayLegend *overlayLegend() const { return m_overlayLegend; }

private:
    /// Sets the session's target from the window; `force` replaces a running session's target.
    void updateTarget(bool force);
    void onStopped();
    void applyMarks();
    /// What the session runs for a selected op or value: its clone when it is an op (a result)
    /// of the loaded program a pipeline was built from (DebugSession::opMap()), else itself.
    const Operation *debuggedOp(const Operation *op) const;
    Value debuggedValue(Value value) const;
    void showDock();
    void updateShapesStatus();

    MainWindow *m_window;
    const WindowParts m_parts;
    DebugSession *m_session;
    DebuggerActions *m_actions;
    GraphMarks *m_marks;
    ValueSummary *m_summary;
    DebuggerToolBar *m_toolBar;
    DebuggerPanel *m_panel;
    QDockWidget *m_dock;
    QMenu *m_menu;
    QLabel *m_shapesStatus;
    QAction *m_timeOverlay;
    RunOverlayLegend *m_overlayLegend;
};

} // namespace ps
