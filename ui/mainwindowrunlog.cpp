#include "ui/mainwindowrunlog.h"

#include "core/io/paddlerunlog.h"
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
#include "ui/graphscene.h"
#include "ui/graphview.h"
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
    , m_dock(new QDockWidget(tr("Paddle run log"), window))
    , m_open(new QAction(tr("Compare with Paddle &Run Log\u2026"), this))
    , m_clear(new QAction(tr("Clear Paddle Run Log"), this))
    , m_runTo(new QAction(tr("Run to First &Divergence"), this))
    , m_referee(new QAction(tr("Referee in &Float64"), this))
{
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
    fileMenu->insertAction(before, m_clear);

    // Beside Stop on NaN in the Debug toolbar, and in the Debug menu.
    DebuggerToolBar *bar = debugger->toolBar();
    const QList<QAction *> barActions = bar->actions();
    const qsizetype nan = barActions.indexOf(debugger->actions()->breakOnNanInfAction());
    bar->insertAction(nan >= 0 ? barActions.value(nan + 1) : nullptr, m_runTo);
    debugger->menu()->addSeparator();
    debugger->menu()->addAction(m_runTo);

    m_panel->addButtons({ m_runTo, m_referee, m_open, m_clear });
    m_dock->setObjectName(QStringLiteral("runLogDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();

    connect(m_panel, &RunLogPanel::opActivated, this,
        [this](const Operation *op) { m_window->selection()->selectOp(op); });
    connect(window, &MainWindow::documentChanged, this, [this] {
        if (m_result || m_busy || m_waitingForPipeline)
            clear();
        apply();
    });
    connect(window, &MainWindow::pipelineChanged, this, [this] {
        if (m_waitingForPipeline) {
            m_waitingForPipeline = false;
            start();
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
    ++m_generation; // a check still running is dropped
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
    m_accuracy.clear();
    apply();
    if (m_dock->isHidden()) {
        m_dock->show();
        // A quarter of the window: the graphs keep most of the height.
        m_window->resizeDocks({ m_dock }, { qMax(200, m_window->height() / 4) }, Qt::Vertical);
    }
    m_dock->raise();
    if (m_window->pipelineRunner()->isBusy()) {
        // The split programs are on their way: check against them once they are shown.
        m_waitingForPipeline = true;
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
    watcher->setFuture(QtConcurrent::run(
        runLogPool(), [path = m_path, target = targetNow()] { return RunLogResult::compute(path, target); }));
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
    const bool had = m_result || m_busy;
    m_busy = false;
    m_waitingForPipeline = false;
    m_result.reset();
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

bool MainWindowRunLog::showsResultPrograms() const
{
    if (!m_result)
        return false;
    const DebugTarget &t = m_result->target;
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
    const bool stale = m_result && !shown;
    // The table is reset only when what it shows changes (not at every debugger stop).
    if (!m_busy && (m_panel->model()->result() != m_result || stale != m_panelStale)) {
        m_panel->setResult(m_result, stale);
        m_panelStale = stale;
    }
    const bool coloured = shown && m_result->ok();
    for (GraphView *view : m_views) {
        GraphScene *scene = view->graphScene();
        if (coloured && scene->opAccuracy().size() != m_accuracy.size())
            scene->setOpAccuracy(m_accuracy);
        else if (!coloured && !scene->opAccuracy().empty())
            scene->setOpAccuracy({});
    }
    m_open->setEnabled(m_window->document() != nullptr);
    m_clear->setEnabled(m_result || m_busy);
    const DebugSession::State state = m_debugger->session()->state();
    m_runTo->setEnabled(shown && m_result->firstDivergentOp() && state != DebugSession::State::Running);
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

bool MainWindowRunLog::runToFirstDivergence()
{
    const Operation *op = showsResultPrograms() ? m_result->firstDivergentOp() : nullptr;
    if (!op) {
        m_window->statusBar()->showMessage(tr("No divergent record of a Paddle run log to run to"), 6000);
        return false;
    }
    DebugSession *session = m_debugger->session();
    // From the start: the op may have run already in the session in progress.
    if (session->isActive())
        session->stop();
    // The debugger debugs what the current tab shows: the split tab for a pipeline.
    m_window->showTab(m_result->target.pipeline ? MainWindow::Tab::Split : MainWindow::Tab::Program);
    const std::optional<ProgramPosition> position = session->positionOf(op);
    if (!position) {
        m_window->statusBar()->showMessage(
            tr("The first divergent op is not in the debugged programs"), 6000);
        return false;
    }
    const RunLogDifference &d = *m_result->check->report.firstDivergent;
    m_window->statusBar()->showMessage(
        tr("Running to %1 %2, the first divergent record (line %3)")
            .arg(m_result->opLabel(d.record),
                QString::fromUtf8(op->name().data(), qsizetype(op->name().size())))
            .arg(m_result->log->records[d.record].line),
        8000);
    session->runToCursor(*position);
    return true;
}

} // namespace ps
