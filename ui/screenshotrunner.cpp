#include "ui/screenshotrunner.h"

#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debugsession.h"
#include "ui/graphview.h"
#include "ui/inspector/tensorheatmap.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/launchoptions.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowpasses.h"
#include "ui/mainwindowrunlog.h"
#include "ui/passdiffview.h"
#include "ui/passview.h"
#include "ui/pipelinerunner.h"
#include "ui/scenesetup.h"
#include "ui/splitview.h"

#include <QTimer>
#include <QToolButton>
#include <chrono>
#include <memory>

namespace ps {

ScreenshotRunner::ScreenshotRunner(MainWindow &window, const LaunchOptions &options, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_path(options.screenshot)
    , m_size(options.size)
    , m_steps(options.steps)
    , m_select(options.select)
    , m_inspect(options.inspect)
    , m_inspectTab(options.inspectTab)
    , m_inspectorMaximized(options.inspectorMaximized)
    , m_stepsLeft(qint64(options.steps))
{
    // A headless run always ends: a failed debug session or layout ends it with the reason, and a
    // watchdog ends a run that waits for something that never comes.
    connect(m_window.debugger()->session(), &DebugSession::error, this, [this](const QString &message) {
        if (m_steps > 0)
            emit finished(QStringLiteral("debug session: ") + message);
    });
    connect(m_window.graphView(), &GraphView::layoutFailed, this,
        [this] { emit finished(QStringLiteral("the graph layout failed")); });
    QTimer::singleShot(std::chrono::minutes(5), this, [this] {
        emit finished(
            QStringLiteral("--screenshot: gave up after 5 minutes (layout or debug session never finished)"));
    });
    const int passStep = options.passStep;
    switch (options.tab) {
    case MainWindow::Tab::Passes: {
        // The shot waits for the chosen step's diff graph.
        PassView *passView = m_window.passes()->view();
        connect(
            passView->graphDiff()->graphView(), &GraphView::layoutFinished, this, [this, passView, passStep] {
                if (passView->shownStep() == passStep)
                    shoot();
            });
        connect(passView, &PassView::stepShown, this, [this, passView, passStep](int step) {
            if (step == passStep && !passView->graphDiff()->diffGraph())
                grab(); // a step without a diff shows its message
        });
        // A step past the timeline's end would be waited for until the watchdog.
        connect(passView, &PassView::timelineShown, this, [this, passStep](int steps) {
            if (passStep >= steps)
                emit finished(QStringLiteral("--step %1: the pass timeline has %2 step(s)")
                                  .arg(passStep + 1)
                                  .arg(steps));
        });
        break;
    }
    case MainWindow::Tab::Split:
        // The split graphs are laid out once the pipeline snapshot of the chosen mode is in.
        connect(m_window.splitView(), &SplitView::layoutsFinished, this, [this] {
            if (m_window.snapshot() && !m_window.pipelineRunner()->isBusy())
                shoot();
        });
        break;
    case MainWindow::Tab::Program:
        connect(m_window.graphView(), &GraphView::layoutFinished, this, &ScreenshotRunner::shoot);
        break;
    }
}

ScreenshotRunner::~ScreenshotRunner() = default;

void ScreenshotRunner::shoot()
{
    if (m_started)
        return;
    m_started = true;
    if (m_steps == 0) {
        grab();
        return;
    }
    // The debug session starts paused at the first op, then steps over the ops asked for.
    DebugSession *session = m_window.debugger()->session();
    connect(session, &DebugSession::stoppedAt, this, [this, session] {
        if (m_stepsLeft < 0)
            return;
        if (session->state() == DebugSession::State::Paused && m_stepsLeft > 0) {
            --m_stepsLeft;
            session->stepOver();
            return;
        }
        m_stepsLeft = -1;
        grab();
    });
    session->stepOver();
}

void ScreenshotRunner::grab()
{
    // The scene is set once the window shows what was asked (laid out, stepped); the shot waits
    // for the layouts that opened the selection's layers.
    QString why;
    if (!m_select.isEmpty() && !SceneSetup::selectOp(m_window, m_select, why)) {
        emit finished(QStringLiteral("--select: ") + why);
        return;
    }
    if (!m_inspect.isEmpty() && !SceneSetup::inspectValue(m_window, m_inspect, why)) {
        emit finished(QStringLiteral("--inspect: ") + why);
        return;
    }
    if (!m_inspect.isEmpty()) {
        TensorInspector *inspector = m_window.debugger()->panel()->inspector();
        inspector->setCurrentTab(TensorInspector::Tab(m_inspectTab));
        inspector->maximizeButton()->setChecked(m_inspectorMaximized);
    }
    whenCompared([this] {
        whenLaidOut(
            [this] { whenRendered([this] { QTimer::singleShot(100, this, &ScreenshotRunner::save); }); });
    });
}

void ScreenshotRunner::whenRendered(const std::function<void()> &then)
{
    // The inspector's heatmap renders off the UI thread.
    if (!m_window.debugger()->panel()->inspector()->heatmap()->isRendering()) {
        then();
        return;
    }
    QTimer::singleShot(50, this, [this, then] { whenRendered(then); });
}

void ScreenshotRunner::whenCompared(const std::function<void()> &then)
{
    MainWindowRunLog *runLog = m_window.runLog();
    if (!runLog->isBusy()) {
        then();
        return;
    }
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(runLog, &MainWindowRunLog::resultChanged, this, [this, then, connection] {
        disconnect(*connection);
        whenCompared(then);
    });
}

void ScreenshotRunner::whenLaidOut(const std::function<void()> &then)
{
    for (GraphView *view : m_window.findChildren<GraphView *>()) {
        if (!view->isLayoutRunning())
            continue;
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection = connect(view, &GraphView::layoutFinished, this, [this, then, connection] {
            disconnect(*connection);
            whenLaidOut(then);
        });
        return;
    }
    then();
}

void ScreenshotRunner::save()
{
    if (m_window.size() != m_size)
        emit finished(
            QStringLiteral("--size: the window cannot be made %1x%2 (it is %3x%4: its panels need that)")
                .arg(m_size.width())
                .arg(m_size.height())
                .arg(m_window.width())
                .arg(m_window.height()));
    else if (m_window.grab().save(m_path, "PNG"))
        emit finished(QString());
    else
        emit finished(QStringLiteral("cannot write ") + m_path);
}

} // namespace ps
