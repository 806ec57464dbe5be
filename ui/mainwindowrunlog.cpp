#include "ui/mainwindowrunlog.h"

#include "core/io/paddlerunlog.h"
#include "core/io/tracebundle.h"
#include "core/ir/operation.h"
#include "core/session/debugtarget.h"
#include "core/session/pipelinesource.h"
#include "core/transform/pipelineresult.h"
#include "ui/common/dialogdirectory.h"
#include "ui/common/workerpool.h"
#include "ui/debugger/debuggeractions.h"
#include "ui/debugger/debuggertoolbar.h"
#include "ui/debugger/debugsession.h"
#include "ui/diagnosticsmodel.h"
#include "ui/dockcollapser.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/intermediatesmodel.h"
#include "ui/intermediatesresult.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/pipelinerunner.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"
#include "ui/runlogmodel.h"
#include "ui/runlogpanel.h"
#include "ui/runlogresult.h"
#include "ui/selectionmodel.h"

#include <QAction>
#include <QDockWidget>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QStatusBar>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent>

namespace ps {

namespace {

/// The run-log checks: one thread with a roomy stack (the interpreter and the readers recurse on
/// deep programs); lives until the application exits, so a closing window does not wait.
QThreadPool *runLogPool()
{
    static QThreadPool *pool = makeWorkerPool(QStringLiteral("run log"), 1);
    return pool;
}

} // namespace

MainWindowRunLog::MainWindowRunLog(
    MainWindow *window, QMenu *fileMenu, MainWindowDebugger *debugger, std::array<GraphView *, 3> graphViews)
    : QObject(window)
    , m_window(window)
    , m_debugger(debugger)
    , m_views(graphViews)
    , m_panel(new RunLogPanel(window))
    , m_dock(new QDockWidget(tr("Compare with Paddle"), window))
    , m_open(new QAction(tr("Compare with Paddle &Run Log\u2026"), this))
    , m_clear(new QAction(tr("Clear Comparison with Paddle"), this))
    , m_runTo(new QAction(tr("Run to First &Divergence"), this))
    , m_referee(new QAction(tr("Referee in &Float64"), this))
    , m_compareIntermediates(new QAction(tr("Compare with Paddle's &Intermediates"), this))
{
    m_compareIntermediates->setObjectName(QStringLiteral("compareIntermediatesAction"));
    m_compareIntermediates->setIconText(tr("Intermediates"));
    m_compareIntermediates->setToolTip(
        tr("Compare every value Paddle computed in the bundle's run "
           "(export_paddle_trace.py --intermediates) with PIRScope's CPU run"));
    m_compareIntermediates->setStatusTip(m_compareIntermediates->toolTip());
    connect(m_compareIntermediates, &QAction::triggered, this, &MainWindowRunLog::compareIntermediates);
    m_referee->setObjectName(QStringLiteral("refereeAction"));
    m_referee->setIconText(tr("Referee f64"));
    m_referee->setToolTip(tr("Recompute the selected divergent record's op (else the first divergent one) in "
                             "float64 on the CPU and say whether Paddle's or PIRScope's value is closer"));
    m_referee->setStatusTip(m_referee->toolTip());
    connect(m_referee, &QAction::triggered, this, &MainWindowRunLog::referee);
    m_open->setObjectName(QStringLiteral("compareRunLogAction"));
    m_open->setStatusTip(tr("Compare a Paddle FLAGS_check_nan_inf_level=3 log of this program's run with "
                            "PIRScope's CPU run, op by op"));
    m_clear->setObjectName(QStringLiteral("clearRunLogAction"));
    m_clear->setIconText(tr("Clear"));
    m_open->setIconText(tr("Run Log\u2026"));
    m_runTo->setObjectName(QStringLiteral("runToDivergenceAction"));
    m_runTo->setIconText(tr("To divergence"));
    m_runTo->setToolTip(tr("Run the debugger to the op of the Paddle run log's first record beyond "
                           "tolerance (it stops before the op runs: Step Over shows its result)"));
    m_runTo->setStatusTip(m_runTo->toolTip());
    connect(m_open, &QAction::triggered, this, &MainWindowRunLog::openDialog);
    connect(m_clear, &QAction::triggered, this, &MainWindowRunLog::clear);
    connect(m_runTo, &QAction::triggered, this, &MainWindowRunLog::runToFirstDivergence);

    // File menu: after Open Recent, before the exports.
    QAction *before = nullptr;
    for (QAction *a : fileMenu->actions())
        if (a->isSeparator()) {
            before = a;
            break;
        }
    fileMenu->insertAction(before, m_open);
    fileMenu->insertAction(before, m_compareIntermediates);
    fileMenu->insertAction(before, m_clear);

    // Beside Break on NaN/Inf in the Debug toolbar, and in the Debug menu.
    DebuggerToolBar *bar = debugger->toolBar();
    const QList<QAction *> barActions = bar->actions();
    const qsizetype nan = barActions.indexOf(debugger->actions()->breakOnNanInfAction());
    bar->insertAction(nan >= 0 ? barActions.value(nan + 1) : nullptr, m_runTo);
    debugger->menu()->addSeparator();
    debugger->menu()->addAction(m_runTo);

    m_panel->addButtons({ m_runTo, m_referee, m_open, m_compareIntermediates, m_clear });
    m_dock->setObjectName(QStringLiteral("runLogDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();

    connect(m_panel, &RunLogPanel::opActivated, this,
        [this](const Operation *op) { m_window->selection()->selectOp(op); });
    connect(window, &MainWindow::documentChanged, this, [this] {
        if (m_result || m_intermediates || m_busy || m_waitingForPipeline)
            clear();
        apply();
    });
    connect(window, &MainWindow::pipelineChanged, this, [this] {
        if (m_waitingForPipeline) {
            m_waitingForPipeline = false;
            if (m_waitingWithIntermediates)
                startIntermediates(m_waitingAutomatic);
            else
                start();
        } else if (const std::shared_ptr<const ProgramDocument> document = m_window->document(); document
                   && m_autoCompared.lock() != document && !m_result && !m_intermediates && !m_busy
                   && IntermediatesResult::available(targetNow())) {
            // A bundle with Paddle's intermediates: compared once, as soon as its programs are shown.
            m_autoCompared = document;
            startIntermediates(true);
        }
        apply();
    });
    connect(window, &MainWindow::programShown, this, &MainWindowRunLog::apply);
    connect(debugger->session(), &DebugSession::targetChanged, this, &MainWindowRunLog::apply);
    connect(debugger->session(), &DebugSession::stateChanged, this, &MainWindowRunLog::apply);
    apply();
}

MainWindowRunLog::~MainWindowRunLog()
{
    ++m_generation; // a check still running is dropped and stopped
    m_latest->store(~quint64(0));
}

void MainWindowRunLog::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Compare with Paddle Run Log"),
        DialogDirectory::get(QStringLiteral("runlogs")), tr("Paddle run logs (*.log *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    DialogDirectory::remember(QStringLiteral("runlogs"), path);
    openLog(path);
}

void MainWindowRunLog::problem(const QString &text)
{
    m_window->statusBar()->showMessage(text, 15000);
    Diagnostic d;
    d.severity = Diagnostic::Severity::Error;
    d.location.file = m_path.toStdString();
    d.message = text.toStdString();
    m_window->diagnosticsModel()->addDiagnostic(std::move(d));
    m_window->diagnosticsDock()->show();
}

void MainWindowRunLog::showDock()
{
    DockCollapser::unfoldToShow(m_dock);
    if (m_dock->isHidden()) {
        m_dock->show();
        // A quarter of the window: the graphs keep most of the height.
        m_window->resizeDocks({ m_dock }, { qMax(200, m_window->height() / 4) }, Qt::Vertical);
    }
    m_dock->raise();
}

bool MainWindowRunLog::openLog(const QString &path)
{
    m_path = path;
    if (!m_window->document()) {
        problem(tr("%1 is a Paddle run log: open the program or trace bundle of that run first, then "
                   "File \u25b8 Compare with Paddle Run Log\u2026")
                    .arg(QFileInfo(path).fileName()));
        return false;
    }
    ++m_generation;
    m_result.reset();
    m_intermediates.reset();
    m_accuracy.clear();
    apply();
    showDock();
    if (m_window->pipelineRunner()->isBusy()) {
        // The split programs are on their way: check against them once they are shown.
        m_waitingForPipeline = true;
        m_waitingWithIntermediates = false;
        m_busy = true;
        m_panel->setResult(nullptr);
        m_panel->setBusy(
            tr("Waiting for the pipeline before checking %1\u2026").arg(QFileInfo(path).fileName()));
        return true;
    }
    start();
    return true;
}

DebugTarget MainWindowRunLog::targetNow() const
{
    DebugTarget target;
    const std::shared_ptr<const PipelineSource> source = m_window->pipelineSource();
    const std::shared_ptr<const ProgramDocument> document = m_window->documentOf(ProgramSide::Origin);
    const std::shared_ptr<const PipelineSnapshot> snapshot = m_window->snapshot();
    target.bundle = source ? source->bundle : nullptr;
    target.programPath = document ? document->path().toStdString() : std::string();
    if (snapshot && snapshot->ok())
        target.pipeline = std::shared_ptr<const PipelineResult>(snapshot, &snapshot->result);
    else if (document)
        target.program = document->sharedProgram();
    if (!target.bundle && !target.programPath.empty() && target.programPath[0] != ':') {
        DiagnosticList warnings;
        target.findCompanions(warnings);
    }
    return target;
}

void MainWindowRunLog::start()
{
    const quint64 generation = ++m_generation;
    m_busy = true;
    m_panel->setResult(nullptr);
    m_panel->setBusy(tr("Checking %1 against PIRScope's CPU run\u2026").arg(QFileInfo(m_path).fileName()));
    m_window->statusBar()->showMessage(
        tr("Checking the Paddle run log %1\u2026").arg(QFileInfo(m_path).fileName()));
    auto *watcher = new QFutureWatcher<std::shared_ptr<const RunLogResult>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        deliver(generation, watcher->result());
    });
    m_latest->store(generation);
    watcher->setFuture(
        QtConcurrent::run(runLogPool(), [path = m_path, target = targetNow(), latest = m_latest, generation] {
            return RunLogResult::compute(
                path, target, [latest, generation] { return latest->load() != generation; });
        }));
}

bool MainWindowRunLog::compareIntermediates()
{
    const std::shared_ptr<const PipelineSource> source = m_window->pipelineSource();
    if (!m_window->document() || !source || !source->bundle || source->bundle->intermediates().empty()) {
        m_window->statusBar()->showMessage(
            tr("The program shown has no Paddle intermediates: open a trace bundle exported with "
               "tools/export_paddle_trace.py --intermediates"),
            8000);
        return false;
    }
    startIntermediates(false);
    return true;
}

void MainWindowRunLog::startIntermediates(bool automatic)
{
    const quint64 generation = ++m_generation;
    const std::shared_ptr<const PipelineSource> source = m_window->pipelineSource();
    m_path = source && source->bundle ? QString::fromStdString(source->bundle->dir()) : QString();
    m_result.reset();
    m_intermediates.reset();
    m_accuracy.clear();
    m_busy = true;
    apply();
    if (!automatic)
        showDock();
    m_panel->setResult(nullptr);
    if (m_window->pipelineRunner()->isBusy()) {
        m_waitingForPipeline = true;
        m_waitingWithIntermediates = true;
        m_waitingAutomatic = automatic;
        m_panel->setBusy(tr("Waiting for the pipeline before comparing with Paddle's intermediates\u2026"));
        return;
    }
    m_panel->setBusy(tr("Comparing PIRScope's CPU run with Paddle's intermediates\u2026"));
    m_window->statusBar()->showMessage(tr("Comparing with Paddle's intermediates\u2026"));
    auto *watcher = new QFutureWatcher<std::shared_ptr<const IntermediatesResult>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, automatic] {
        watcher->deleteLater();
        deliverIntermediates(generation, automatic, watcher->result());
    });
    m_latest->store(generation);
    watcher->setFuture(QtConcurrent::run(runLogPool(), [target = targetNow(), latest = m_latest, generation] {
        return IntermediatesResult::compute(
            target, [latest, generation] { return latest->load() != generation; });
    }));
}

void MainWindowRunLog::deliverIntermediates(
    quint64 generation, bool automatic, std::shared_ptr<const IntermediatesResult> result)
{
    if (generation != m_generation)
        return;
    m_busy = false;
    m_intermediates = std::move(result);
    m_accuracy = m_intermediates->opAccuracy();
    for (GraphView *view : m_views)
        view->graphScene()->setOpAccuracy({});
    m_window->statusBar()->clearMessage();
    if (!m_intermediates->ok()) {
        showDock();
        problem(m_intermediates->error);
    } else {
        if (automatic && m_intermediates->report->divergent > 0)
            showDock();
        m_window->statusBar()->showMessage(m_intermediates->summary(), 10000);
    }
    apply();
    emit resultChanged();
}

void MainWindowRunLog::deliver(quint64 generation, std::shared_ptr<const RunLogResult> result)
{
    if (generation != m_generation)
        return; // cleared or superseded meanwhile
    m_busy = false;
    m_result = std::move(result);
    m_accuracy = m_result->opAccuracy();
    for (GraphView *view : m_views) // a new log over the old one: the same ops, new colours
        view->graphScene()->setOpAccuracy({});
    m_window->statusBar()->clearMessage();
    if (!m_result->ok())
        problem(m_result->error);
    else if (m_result->check->report.match.matched == 0)
        problem(tr("%1: no record matches an op of the programs shown: is it a log of another program?")
                    .arg(QFileInfo(m_path).fileName()));
    else
        m_window->statusBar()->showMessage(tr("Paddle run log: %1").arg(m_result->summary()), 10000);
    apply();
    emit resultChanged();
}

void MainWindowRunLog::clear()
{
    ++m_generation;
    const bool had = m_result || m_intermediates || m_busy;
    m_busy = false;
    m_waitingForPipeline = false;
    m_result.reset();
    m_intermediates.reset();
    m_accuracy.clear();
    apply();
    if (had)
        emit resultChanged();
}

bool MainWindowRunLog::waitUntilDone(int milliseconds)
{
    if (!m_busy)
        return true;
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &MainWindowRunLog::resultChanged, &loop, &QEventLoop::quit);
    timeout.start(milliseconds);
    loop.exec();
    return !m_busy;
}

const DebugTarget *MainWindowRunLog::resultTarget() const
{
    if (m_result)
        return &m_result->target;
    return m_intermediates ? &m_intermediates->target : nullptr;
}

bool MainWindowRunLog::showsResultPrograms() const
{
    const DebugTarget *target = resultTarget();
    if (!target)
        return false;
    const DebugTarget &t = *target;
    if (t.pipeline) {
        const std::shared_ptr<const PipelineSnapshot> snapshot = m_window->snapshot();
        return snapshot && &snapshot->result == t.pipeline.get();
    }
    const std::shared_ptr<const ProgramDocument> document = m_window->documentOf(ProgramSide::Origin);
    return document && document->sharedProgram() == t.program;
}

void MainWindowRunLog::apply()
{
    const bool shown = showsResultPrograms();
    const bool stale = resultTarget() && !shown;
    // The table is reset only when what it shows changes (not at every debugger stop).
    if (!m_busy) {
        if (m_intermediates) {
            if (m_panel->intermediatesModel()->result() != m_intermediates || stale != m_panelStale)
                m_panel->setIntermediates(m_intermediates, stale);
        } else if (m_panel->model()->result() != m_result || m_panel->intermediatesModel()->result()
            || stale != m_panelStale) {
            m_panel->setResult(m_result, stale);
        }
        m_panelStale = stale;
    }
    const bool coloured = shown && (m_result ? m_result->ok() : m_intermediates->ok());
    for (GraphView *view : m_views) {
        GraphScene *scene = view->graphScene();
        if (coloured && scene->opAccuracy().size() != m_accuracy.size())
            scene->setOpAccuracy(m_accuracy);
        else if (!coloured && !scene->opAccuracy().empty())
            scene->setOpAccuracy({});
    }
    m_open->setEnabled(m_window->document() != nullptr);
    const std::shared_ptr<const PipelineSource> source = m_window->pipelineSource();
    m_compareIntermediates->setEnabled(m_window->document() && source && source->bundle
        && !source->bundle->intermediates().empty() && !m_busy);
    m_clear->setEnabled(m_result || m_intermediates || m_busy);
    const DebugSession::State state = m_debugger->session()->state();
    m_runTo->setEnabled(shown && firstDivergentOp() && state != DebugSession::State::Running);
    m_referee->setEnabled(m_result && m_result->ok() && m_result->firstDivergentRecord() >= 0 && !m_judging);
}

bool MainWindowRunLog::referee()
{
    if (!m_result || !m_result->ok() || m_result->firstDivergentRecord() < 0 || m_judging) {
        m_window->statusBar()->showMessage(tr("No divergent record to referee"), 5000);
        return false;
    }
    long record = m_panel->currentRecord();
    const RunLogDifference *selected = record >= 0 ? m_result->differenceAt(size_t(record)) : nullptr;
    if (!selected || selected->error <= 1)
        record = m_result->firstDivergentRecord();
    m_judging = true;
    apply();
    m_panel->setVerdict(
        tr("Recomputing line %1's op in float64\u2026").arg(m_result->log->records[size_t(record)].line));
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, result = m_result] {
        watcher->deleteLater();
        m_judging = false;
        const QString text = watcher->result();
        if (result == m_result)
            m_panel->setVerdict(text);
        m_window->statusBar()->showMessage(text, 15000);
        apply();
        emit verdictReady(text);
    });
    watcher->setFuture(QtConcurrent::run(
        runLogPool(), [result = m_result, record] { return result->referee(size_t(record)); }));
    return true;
}

const Operation *MainWindowRunLog::firstDivergentOp() const
{
    if (m_result)
        return m_result->firstDivergentOp();
    return m_intermediates ? m_intermediates->firstDivergentOp() : nullptr;
}

bool MainWindowRunLog::runToFirstDivergence()
{
    const Operation *op = showsResultPrograms() ? firstDivergentOp() : nullptr;
    if (!op) {
        m_window->statusBar()->showMessage(
            tr("No divergent record of a Paddle run log or value of Paddle's intermediates to run to"), 6000);
        return false;
    }
    DebugSession *session = m_debugger->session();
    // From the start: the op may have run already in the session in progress.
    if (session->isActive())
        session->stop();
    // The debugger debugs what the current tab shows: the split tab for a pipeline.
    m_window->showTab(resultTarget()->pipeline ? MainWindow::Tab::Split : MainWindow::Tab::Program);
    const std::optional<ProgramPosition> position = session->positionOf(op);
    if (!position) {
        m_window->statusBar()->showMessage(
            tr("The first divergent op is not in the debugged programs"), 6000);
        return false;
    }
    const QString opName = QString::fromUtf8(op->name().data(), qsizetype(op->name().size()));
    if (m_result) {
        const RunLogDifference &d = *m_result->check->report.firstDivergent;
        m_window->statusBar()->showMessage(tr("Running to %1 %2, the first divergent record (line %3)")
                                               .arg(m_result->opLabel(d.record), opName)
                                               .arg(m_result->log->records[d.record].line),
            8000);
    } else {
        const size_t i = size_t(m_intermediates->firstDivergentIndex());
        m_window->statusBar()->showMessage(
            tr("Running to %1 %2, the first value that differs from Paddle's (%3)")
                .arg(m_intermediates->opLabel(i), opName,
                    QString::fromStdString(m_intermediates->differenceAt(i).valueId)),
            8000);
    }
    session->runToCursor(*position);
    return true;
}

} // namespace ps
