#pragma once

#include "ui/common/nodemarks.h"

#include <QObject>
#include <QString>
#include <array>
#include <atomic>
#include <memory>

class QAction;
class QDockWidget;
class QMenu;

namespace ps {

class GraphView;
class MainWindow;
class MainWindowDebugger;
class Operation;
class ProgramDocument;
class RunLogPanel;
struct DebugTarget;
struct IntermediatesResult;
struct RunLogResult;

/// Puts Paddle's own run into the main window, two ways (one at a time): a run log
/// (FLAGS_check_nan_inf_level=3; File ▸ "Compare with Paddle run log…", MainWindow::openFile on a
/// log) or a trace bundle's Paddle intermediates (File ▸ "Compare with Paddle's intermediates",
/// and by itself when a bundle with intermediates opens). Either is checked against the programs
/// shown (the split pipeline's forward + backward when there is one, else the Program tab's
/// program) on a worker thread (RunLogResult::compute, IntermediatesResult::compute: PIRScope's
/// CPU run with the target's own inputs and parameters); the "Compare with Paddle" dock lists the
/// records or values (RunLogPanel), the three graphs colour every compared op by its worst error
/// ratio (GraphScene::setOpAccuracy) and "Run to first divergence" (the Debug menu and toolbar,
/// beside Break on NaN/Inf) runs the debugger to the op of the first record or value beyond
/// tolerance. A new program clears the comparison; a new pipeline snapshot (mode or pass switch)
/// keeps the table but removes the colours until the snapshot it was checked against is shown
/// again. The automatic check of a bundle's intermediates shows the dock only when a value
/// diverges (or the check fails); agreement goes to the status bar.
class MainWindowRunLog : public QObject
{
    Q_OBJECT

public:
    /// `fileMenu` receives the open and clear actions; `graphViews` are the Program tab's graph
    /// and the forward and backward graphs.
    MainWindowRunLog(MainWindow *window, QMenu *fileMenu, MainWindowDebugger *debugger,
        std::array<GraphView *, 3> graphViews);
    ~MainWindowRunLog() override;

    /// Checks the run log at `path` against the programs shown (waiting for the pipeline being
    /// computed, if any). False, with a message in the status bar and the Problems panel, when
    /// no program is open.
    bool openLog(const QString &path);
    /// Compares the programs shown with the bundle's Paddle intermediates (waiting for the
    /// pipeline being computed, if any). False, with a status message, when the program shown
    /// has none.
    bool compareIntermediates();
    /// Removes the log or the intermediates: the table, the colours and the run-to action.
    void clear();
    /// The log's check, or null (none loaded, or still running).
    std::shared_ptr<const RunLogResult> result() const { return m_result; }
    /// The intermediates' check, or null.
    std::shared_ptr<const IntermediatesResult> intermediates() const { return m_intermediates; }
    bool isBusy() const { return m_busy; }
    /// Waits (the event loop running) until the check in progress (or awaiting the pipeline) is
    /// done; false on timeout.
    bool waitUntilDone(int milliseconds = 120000);
    /// Runs the debugger to the op of the first divergent record: paused at it, before it runs
    /// (Step Over shows its result). False with a status message when there is none.
    bool runToFirstDivergence();

    /// The float64 referee (RunLogResult::referee) on the table's current record when it is beyond
    /// tolerance, else on the first divergent one, off the GUI thread; the verdict goes to the
    /// dock and the status bar (verdictReady). False when there is no divergent record.
    bool referee();

    QAction *openAction() const { return m_open; }
    QAction *compareIntermediatesAction() const { return m_compareIntermediates; }
    QAction *refereeAction() const { return m_referee; }
    QAction *clearAction() const { return m_clear; }
    QAction *runToDivergenceAction() const { return m_runTo; }
    RunLogPanel *panel() const { return m_panel; }
    QDockWidget *dock() const { return m_dock; }

signals:
    /// A check finished (result() set, with or without an error) or the log was cleared.
    void resultChanged();
    /// The referee's verdict (or why it could not judge).
    void verdictReady(const QString &text);

private:
    void openDialog();
    void start();
    void deliver(quint64 generation, std::shared_ptr<const RunLogResult> result);
    /// `automatic`: started by opening the bundle, not by the user.
    void startIntermediates(bool automatic);
    void deliverIntermediates(
        quint64 generation, bool automatic, std::shared_ptr<const IntermediatesResult> result);
    /// Shows the dock (a quarter of the window) and raises it.
    void showDock();
    /// The target of the comparison shown, or null.
    const DebugTarget *resultTarget() const;
    /// The programs a new check runs against.
    DebugTarget targetNow() const;
    /// The op of the first divergent record or value, or null.
    const Operation *firstDivergentOp() const;
    /// Whether the window still shows the programs of the comparison's target.
    bool showsResultPrograms() const;
    /// Colours the graphs (or removes the colours) and enables the actions.
    void apply();
    void problem(const QString &text);

    MainWindow *m_window;
    MainWindowDebugger *m_debugger;
    std::array<GraphView *, 3> m_views;
    RunLogPanel *m_panel;
    QDockWidget *m_dock;
    QAction *m_open;
    QAction *m_clear;
    QAction *m_runTo;
    QAction *m_referee;
    QAction *m_compareIntermediates;
    QString m_path;
    std::shared_ptr<const RunLogResult> m_result;
    std::shared_ptr<const IntermediatesResult> m_intermediates;
    /// The colours of m_result or m_intermediates, computed once per result.
    OpAccuracy m_accuracy;
    /// Whether the panel shows m_result as stale.
    bool m_panelStale = false;
    quint64 m_generation = 0;
    /// m_generation for the workers: a check whose generation is no longer the latest (a newer
    /// check, a closed window) stops its run at the next op.
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    bool m_busy = false;
    bool m_judging = false;
    bool m_waitingForPipeline = false;
    /// What waits for the pipeline: the intermediates (else the log).
    bool m_waitingWithIntermediates = false;
    bool m_waitingAutomatic = false;
    /// The document whose intermediates were compared by themselves (once per document).
    std::weak_ptr<const ProgramDocument> m_autoCompared;
};

} // namespace ps
