#include "ui/mainwindowmemory.h"

#include "core/ir/block.h"
#include "core/ir/program.h"
#include "core/session/memorymodel.h"
#include "core/session/targetshapes.h"
#include "ui/debugger/debugsession.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/memorychart.h"
#include "ui/memorypanel.h"
#include "ui/pipelinesnapshot.h"
#include "ui/selectionmodel.h"
#include "ui/splitview.h"

#include <QCheckBox>
#include <QDockWidget>
#include <algorithm>

namespace ps {

MainWindowMemory::MainWindowMemory(MainWindow *window, DebugSession *session)
    : QObject(window)
    , m_window(window)
    , m_session(session)
    , m_panel(new MemoryPanel(window))
    , m_dock(new QDockWidget(tr("Memory"), window))
{
    m_dock->setObjectName(QStringLiteral("memoryDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_snapshot != m_window->snapshot())
            refresh();
    });
    connect(window, &MainWindow::pipelineChanged, this, [this] {
        if (m_dock->isVisible())
            refresh();
    });
    connect(m_panel->chart(), &MemoryChart::pointActivated, this, [this](long index) {
        if (const Operation *op = opAt(index))
            m_window->selection()->selectOp(op);
    });
    connect(m_panel, &MemoryPanel::valueActivated, this, [this](const QString &label) {
        if (const Operation *op = opAt(indexOfLabel(label)))
            m_window->selection()->selectOp(op);
    });
    connect(m_panel, &MemoryPanel::showOnGraphChanged, this, &MainWindowMemory::showOnGraph);
    session->setFreeAsPaddle(m_panel->freeAsPaddle()->isChecked());
    connect(m_panel, &MemoryPanel::freeAsPaddleChanged, session, &DebugSession::setFreeAsPaddle);
    connect(session, &DebugSession::recordsAppended, this, [this](int first, int) { measure(first); });
    connect(session, &DebugSession::recordsReset, this, [this] { measure(0); });
    connect(session, &DebugSession::stateChanged, this, &MainWindowMemory::followDebugger);
    connect(session, &DebugSession::stoppedAt, this, &MainWindowMemory::followDebugger);
}

void MainWindowMemory::setShapes(std::shared_ptr<const TargetShapes> shapes)
{
    m_shapes = std::move(shapes);
    if (m_dock->isVisible())
        refresh();
}

long MainWindowMemory::indexOfLabel(const QString &label) const
{
    auto it = m_indexOfLabel.find(label.toStdString());
    return it == m_indexOfLabel.end() ? -1 : it->second;
}

const Operation *MainWindowMemory::opAt(long index) const
{
    return index >= 0 && size_t(index) < m_ops.size() ? m_ops[size_t(index)] : nullptr;
}

void MainWindowMemory::refresh()
{
    m_snapshot = m_window->snapshot();
    m_ops.clear();
    m_indexOf.clear();
    m_indexOfLabel.clear();
    if (!m_snapshot || !m_snapshot->ok() || !m_snapshot->result.forward) {
        m_report.reset();
        m_panel->setReport(nullptr,
            m_snapshot ? tr("No memory model: the pipeline failed") : tr("No memory model: open a program"));
        showOnGraph();
        return;
    }
    const PipelineResult &result = m_snapshot->result;
    std::shared_ptr<const MemoryReport> report = m_snapshot->memory;
    if (!report)
        report = std::make_shared<const MemoryReport>(
            result.training ? MemoryModel::train(result) : MemoryModel::infer(*result.forward));
    // Values of dynamic size take the shapes inferred from the input shapes, when those are the
    // shapes of this pipeline's values.
    const Operation *first = result.forward->block().empty() ? nullptr : result.forward->block().op(0);
    if (m_shapes && !report->unknown.empty() && first && first->numResults() > 0
        && m_shapes->shape(first->result(0))) {
        const MemoryModel::Measured sizes = m_shapes->knownBytes();
        report = std::make_shared<const MemoryReport>(result.training
                ? MemoryModel::train(result, MemoryModel::kCpu, &sizes)
                : MemoryModel::infer(*result.forward, MemoryModel::kCpu, &sizes));
    }
    // The timeline follows the top-level ops: the forward's, then the backward's.
    for (const Operation *op : result.forward->block().ops())
        m_ops.push_back(op);
    if (result.training && result.backward)
        for (const Operation *op : result.backward->block().ops())
            m_ops.push_back(op);
    m_ops.resize(std::min(m_ops.size(), report->timeline.size()));
    for (size_t i = 0; i < m_ops.size(); ++i)
        m_indexOf[m_ops[i]] = long(i);
    for (size_t i = 0; i < report->timeline.size(); ++i)
        m_indexOfLabel.emplace(report->timeline[i].op, long(i));
    m_report = std::move(report);
    m_panel->setReport(m_report);
    measure(0);
    followDebugger();
    showOnGraph();
}

void MainWindowMemory::showOnGraph()
{
    OpKeptBytes kept;
    if (m_report && m_panel->onGraph()->isChecked())
        for (const MemoryValue &v : m_report->kept)
            if (const Operation *op = opAt(indexOfLabel(QString::fromStdString(v.op))))
                kept[op] += v.bytes;
    m_window->splitView()->forwardView()->graphScene()->setOpKeptBytes(kept);
}

void MainWindowMemory::measure(int first)
{
    if (!m_report)
        return;
    const std::vector<OpRecord> &records = m_session->records();
    const size_t cut = m_report->cut;
    if (first == 0 || m_measured.size() != m_report->timeline.size())
        m_measured.assign(m_report->timeline.size(), -1);
    // The records' positions are the session's programs': the snapshot's forward, then backward.
    const bool same = !m_ops.empty() && m_session->opAt(ProgramPosition { 0, { 0 } }) == m_ops.front();
    for (size_t i = size_t(std::max(first, 0)); same && i < records.size(); ++i) {
        const OpRecord &r = records[i];
        if (r.position.path.empty() || r.position.segment > 1)
            continue;
        const size_t index = (r.position.segment == 0 ? 0 : cut) + r.position.path.front();
        if (index < m_measured.size())
            m_measured[index] = std::max(m_measured[index], r.liveBytes);
    }
    const bool any = std::any_of(m_measured.begin(), m_measured.end(), [](int64_t b) { return b >= 0; });
    m_panel->setMeasured(any ? m_measured : std::vector<int64_t> {}, m_session->freeAsPaddle());
}

void MainWindowMemory::followDebugger()
{
    const Operation *op = m_session->isActive() ? m_session->currentOp() : nullptr;
    auto it = op ? m_indexOf.find(op) : m_indexOf.end();
    m_panel->chart()->setCurrent(it == m_indexOf.end() ? -1 : it->second);
}

} // namespace ps
