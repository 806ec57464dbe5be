#pragma once

#include <QObject>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

class QDockWidget;

namespace ps {

class DebugSession;
class MainWindow;
class MemoryPanel;
class Operation;
class TargetShapes;
struct MemoryReport;
struct PipelineSnapshot;

/// Puts the memory model (MemoryModel) of the programs shown into the main window: the "Memory"
/// dock (View menu) charts the live bytes of a train step (the pipeline's forward then backward)
/// or of an inference run (its forward), op by op: the pipeline snapshot's model
/// (PipelineSnapshot::memory, computed with it on the pipeline's worker thread), shown when the
/// dock is and for every new snapshot while it is. Clicking the chart selects the op; while
/// debugging, the chart marks the op the session is at and draws what the run has measured.
class MainWindowMemory : public QObject
{
    Q_OBJECT

public:
    MainWindowMemory(MainWindow *window, DebugSession *session);

    QDockWidget *dock() const { return m_dock; }
    MemoryPanel *panel() const { return m_panel; }
    /// The report shown, or null (no pipeline, the dock never shown).
    std::shared_ptr<const MemoryReport> report() const { return m_report; }
    /// The op of timeline point `index` of the report, or null.
    const Operation *opAt(long index) const;
    /// The timeline index of the op labelled `label` ("fwd:9"), or -1.
    long indexOfLabel(const QString &label) const;
    /// Computes the report for the current snapshot now (what showing the dock does).
    void refresh();
    /// Shapes inferred from the input shapes (GraphMarks::shapes()): the model sizes values of
    /// dynamic size by them. Refreshes the dock when it is shown.
    void setShapes(std::shared_ptr<const TargetShapes> shapes);

private:
    void followDebugger();
    /// Folds the debugger's records from `first` into the measured bytes (all after a reset).
    void measure(int first);
    /// Puts the kept bytes on the forward graph (or takes them off).
    void showOnGraph();

    MainWindow *m_window;
    DebugSession *m_session;
    MemoryPanel *m_panel;
    QDockWidget *m_dock;
    std::shared_ptr<const MemoryReport> m_report;
    std::shared_ptr<const TargetShapes> m_shapes;
    /// The snapshot the report models (kept alive: opAt's ops live in it).
    std::shared_ptr<const PipelineSnapshot> m_snapshot;
    std::vector<const Operation *> m_ops;
    std::unordered_map<const Operation *, long> m_indexOf;
    /// Timeline index by op label ("fwd:9"): the table's rows and the graph bars look ops up by it.
    std::unordered_map<std::string, long> m_indexOfLabel;
    /// The debugger's live bytes per timeline point (-1: not run yet).
    std::vector<int64_t> m_measured;
};

} // namespace ps
