#pragma once

#include <QObject>
#include <memory>
#include <unordered_map>
#include <vector>

class QDockWidget;

namespace ps {

class DebugSession;
class MainWindow;
class MemoryPanel;
class Operation;
struct MemoryReport;
struct PipelineSnapshot;

/// Puts the memory model (MemoryModel) of the programs shown into the main window: the "Memory"
/// dock (View menu) charts the live bytes of a train step (the pipeline's forward then backward)
/// or of an inference run (its forward), op by op. The model is computed on the GUI thread
/// (50-80 ms for a 20k-op train step) when the dock is shown and again for every new pipeline
/// snapshot while it is. Clicking the chart selects the op; while debugging, the chart marks the
/// op the session is at.
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
    /// Computes the report for the current snapshot now (what showing the dock does).
    void refresh();

private:
    void followDebugger();

    MainWindow *m_window;
    DebugSession *m_session;
    MemoryPanel *m_panel;
    QDockWidget *m_dock;
    std::shared_ptr<const MemoryReport> m_report;
    /// The snapshot the report models (kept alive: opAt's ops live in it).
    std::shared_ptr<const PipelineSnapshot> m_snapshot;
    std::vector<const Operation *> m_ops;
    std::unordered_map<const Operation *, long> m_indexOf;
};

} // namespace ps
