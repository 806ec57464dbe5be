#include "ui/mainwindowdebugger.h"

#include "core/ir/operation.h"
#include "core/session/inputshapes.h"
#include "core/session/pipelinesource.h"
#include "core/session/targetshapes.h"
#include "core/transform/pipelineresult.h"
#include "ui/debugger/debuggeractions.h"
#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debuggertoolbar.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/graphmarks.h"
#include "ui/debugger/valuesummary.h"
#include "ui/diagnosticsmodel.h"
#include "ui/dockcollapser.h"
#include "ui/focusmode.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/mainwindow.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"
#include "ui/propertiesmodel.h"
#include "ui/runoverlaylegend.h"
#include "ui/selectionmodel.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>

namespace ps {

MainWindowDebugger::MainWindowDebugger(MainWindow *window, const WindowParts &parts)
    : QObject(window)
    , m_window(window)
    , m_parts(parts)
    , m_session(new DebugSession(this))
    , m_actions(new DebuggerActions(m_session, this))
    , m_marks(new GraphMarks(m_session, this))
    , m_summary(new ValueSummary(m_session, this))
    , m_toolBar(new DebuggerToolBar(m_session, m_actions, window))
    , m_panel(new DebuggerPanel(m_session, window))
    , m_dock(new QDockWidget(tr("Debugger"), window))
    , m_menu(nullptr)
    , m_shapesStatus(new QLabel(window))
    , m_timeOverlay(new QAction(tr("&Time Overlay"), this))
    , m_overlayLegend(new RunOverlayLegend(window))
{
    window->addToolBar(m_toolBar);
    m_dock->setObjectName(QStringLiteral("debuggerDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    // Out of the way until a session starts.
    m_dock->hide();
    m_menu = new QMenu(tr("&Debug"), window);
    m_actions->populate(m_menu);
    m_menu->addSeparator();
    m_menu->addAction(m_toolBar->sourcesAction());
    m_menu->addAction(m_dock->toggleViewAction());
    window->menuBar()->addMenu(m_menu);

    // Run to Cursor and F9 act on the selection: an op, or the op a value was picked at.
    SelectionModel *selection = m_parts.selection;
    m_actions->setCursorProvider([selection] {
        return selection->currentOp() ? selection->currentOp() : selection->currentValue().definingOp();
    });
    connect(selection, &SelectionModel::changed, this,
        [this](const SelectionModel::Selection &s, SelectionModel::Cause cause) {
            m_panel->showSelection(
                debuggedOp(s.op), debuggedValue(s.value), cause == SelectionModel::Cause::User);
        });
    connect(m_panel, &DebuggerPanel::valueActivated, this,
        [selection](Value value, const Operation *op) { selection->selectValue(value, op); });
    // The inspector maximised: the debugger dock takes the whole window (FocusMode).
    if (auto *focus = window->findChild<FocusMode *>()) {
        connect(m_panel, &DebuggerPanel::inspectorMaximized, focus, [this, focus](bool on) {
            if (on)
                DockCollapser::unfoldToShow(m_dock);
            focus->maximizeDock(m_dock, on);
        });
        connect(focus, &FocusMode::left, this,
            [this] { m_panel->inspector()->maximizeButton()->setChecked(false); });
    }
    connect(m_actions, &DebuggerActions::message, this,
        [this](const QString &text) { m_window->statusBar()->showMessage(text, 4000); });
    // A failed op or start (memory budget, malformed .npy or .pdiparams...) goes to the Problems
    // panel as well as the status bar: the window stays usable and the message stays readable.
    auto problem = [this](Diagnostic::Severity severity, const QString &text) {
        m_window->statusBar()->showMessage(text, 8000);
        Diagnostic d;
        d.severity = severity;
        d.location.file = m_session->target().programPath;
        d.message = text.toStdString();
        m_parts.problems->addDiagnostic(std::move(d));
        DockCollapser::unfoldToShow(m_parts.problemsDock);
        m_parts.problemsDock->show();
    };
    connect(m_session, &DebugSession::error, this,
        [problem](const QString &text) { problem(Diagnostic::Severity::Error, text); });
    connect(m_session, &DebugSession::warning, this,
        [problem](const QString &text) { problem(Diagnostic::Severity::Warning, text); });
    connect(m_session, &DebugSession::stoppedAt, this, &MainWindowDebugger::onStopped);
    connect(m_session, &DebugSession::stateChanged, this, [this] {
        if (!m_session->isActive())
            updateTarget(false);
        else if (m_dock->isHidden())
            showDock();
    });
    connect(m_marks, &GraphMarks::marksChanged, this, &MainWindowDebugger::applyMarks);
    connect(m_marks, &GraphMarks::shapesChanged, this, &MainWindowDebugger::applyMarks);
    m_timeOverlay->setObjectName(QStringLiteral("timeOverlayAction"));
    m_timeOverlay->setCheckable(true);
    m_timeOverlay->setToolTip(tr("Colour the executed ops by their share of the run's time; NaN/Inf framed"));
    m_timeOverlay->setStatusTip(m_timeOverlay->toolTip());
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_timeOverlay);
    m_overlayLegend->hide();
    window->statusBar()->addPermanentWidget(m_overlayLegend);
    connect(m_timeOverlay, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("debugger/timeOverlay"), on);
        m_overlayLegend->setVisible(on);
        m_marks->setTimeOverlay(on);
    });
    m_timeOverlay->setChecked(QSettings().value(QStringLiteral("debugger/timeOverlay"), false).toBool());
    m_shapesStatus->setObjectName(QStringLiteral("shapesStatus"));
    m_shapesStatus->hide();
    window->statusBar()->addPermanentWidget(m_shapesStatus);
    connect(m_session, &DebugSession::sourcesChanged, this, &MainWindowDebugger::updateShapesStatus);
    connect(m_session, &DebugSession::targetChanged, this, &MainWindowDebugger::updateShapesStatus);
    connect(m_panel, &DebuggerPanel::opActivated, this,
        [selection](const Operation *op) { selection->selectOp(op); });

    connect(window, &MainWindow::documentChanged, this, [this] { updateTarget(true); });
    connect(window, &MainWindow::programShown, this, [this] { updateTarget(true); });
    connect(window, &MainWindow::pipelineChanged, this, [this] {
        // A pipeline being debugged was replaced (mode or pass switch): its programs are gone
        // from the views.
        updateTarget(m_session->target().pipeline != nullptr);
    });
    connect(m_parts.tabs, &QTabWidget::currentChanged, this, [this] { updateTarget(false); });
    updateTarget(true);
}

MainWindowDebugger::~MainWindowDebugger()
{
    // The window would delete them after the session they show.
    delete m_dock;
    delete m_toolBar;
}

void MainWindowDebugger::showDock()
{
    DockCollapser::unfoldToShow(m_dock);
    m_dock->show();
    // Two fifths of the window: the inspector beside the records shows a few rows of its table
    // at 1280x720, the graph keeps the larger part.
    m_window->resizeDocks({ m_dock }, { qMax(280, m_window->height() * 2 / 5) }, Qt::Vertical);
}

void MainWindowDebugger::updateTarget(bool force)
{
    if (m_session->isActive() && !force)
        return;
    // The Program tab's program: the loaded one, or the result of the passes the user switched.
    const std::shared_ptr<const ProgramDocument> document = m_window->documentOf(ProgramSide::Origin);
    const std::shared_ptr<const PipelineSource> source = m_window->pipelineSource();
    const std::shared_ptr<const PipelineSnapshot> snapshot = m_window->snapshot();
    const std::shared_ptr<const TraceBundle> bundle = source ? source->bundle : nullptr;
    const QString path = document ? document->path() : QString();
    const DebugTarget &current = m_session->target();
    // Train mode debugs the train step (forward, then backward) from every tab: the Program tab's
    // ops stand for their clones in the forward (PipelineOpMap). Infer mode debugs the pipeline
    // on the split tab, the Program tab's program elsewhere.
    const bool train = snapshot && snapshot->ok() && snapshot->training;
    if ((train || m_window->currentTab() == MainWindow::Tab::Split) && snapshot && snapshot->ok()) {
        // The result lives inside the snapshot: share the snapshot's ownership.
        std::shared_ptr<const PipelineResult> pipeline(snapshot, &snapshot->result);
        if (current.pipeline != pipeline)
            m_session->setPipeline(pipeline, bundle, path,
                document ? document->sharedProgram() : std::shared_ptr<const Program>());
    } else if (document) {
        if (current.program != document->sharedProgram() || current.pipeline)
            m_session->setProgram(document->sharedProgram(), path, bundle);
    } else if (current.valid()) {
        m_session->clearTarget();
    }
}

void MainWindowDebugger::updateShapesStatus()
{
    QStringList parts;
    QStringList tips;
    QStringList errors;
    for (const InputShape &s : m_session->inputShapes(&errors)) {
        if (!s.dynamic())
            continue;
        QString dims
            = QString::fromStdString(InputShapes::dimsText(s.shape)).replace(QLatin1Char('x'), QChar(0xD7));
        const QString name = QString::fromStdString(s.name);
        parts << (s.resolved()
                ? tr("%1 %2 (%3)").arg(name, dims, QString::fromLatin1(InputShape::originText(s.origin)))
                : tr("%1 %2 needs a shape").arg(name, dims));
        tips << tr("%1: declared %2, %3%4")
                    .arg(name, QString::fromStdString(InputShapes::dimsText(s.declared)),
                        QString::fromLatin1(InputShape::originText(s.origin)),
                        s.note.empty() ? QString()
                                       : QStringLiteral(" \u2014 ") + QString::fromStdString(s.note));
    }
    tips << errors;
    if (!m_session->configWarning().isEmpty())
        tips << m_session->configWarning();
    m_shapesStatus->setText(tr("Input shapes: %1").arg(parts.join(QStringLiteral(" \u00b7 "))));
    m_shapesStatus->setToolTip(tips.join(QLatin1Char('\n')));
    m_shapesStatus->setVisible(!parts.isEmpty());
}

void MainWindowDebugger::onStopped()
{
    // The selection follows the run: the op the session stands at, or after the end the last op
    // that ran. The panel lists its values even when it was selected already.
    const DebugSession::State state = m_session->state();
    const Operation *op = nullptr;
    if ((state == DebugSession::State::Paused || state == DebugSession::State::Error)
        && m_session->currentOp())
        op = m_session->currentOp();
    else if (state == DebugSession::State::Finished && !m_session->records().empty())
        op = m_session->records().back().op;
    if (op) {
        // Off the split tab a stop at the clone of a loaded op selects that op (a train step's
        // forward is followed on the Program tab); an op without one (the backward) is shown on
        // the split tab.
        const Operation *loaded
            = m_window->currentTab() != MainWindow::Tab::Split ? m_session->opMap().toLoaded(op) : nullptr;
        SelectionModel *selection = m_parts.selection;
        selection->selectOp(loaded ? loaded : op, SelectionModel::Cause::Follow);
        m_panel->showSelection(
            debuggedOp(selection->currentOp()), debuggedValue(selection->currentValue()), false);
    }
    m_marks->recompute();
}

void MainWindowDebugger::applyMarks()
{
    // The session's marks with the shapes inferred for the ops with dynamic result dims.
    OpMarks all = m_marks->marks();
    for (const auto &[op, shapes] : m_marks->shapeMarks()) {
        NodeMarks &m = all[op];
        m.inferredShapes = shapes.inferredShapes;
        m.shapeUnknown = shapes.shapeUnknown;
    }
    for (GraphView *view : m_parts.graphViews)
        view->graphScene()->setOpMarks(all);
    // The Program tab shows a pipeline's marks on the loaded ops the clones stand for.
    const PipelineOpMap &map = m_session->opMap();
    if (map.empty())
        return;
    OpMarks loaded;
    for (const auto &[op, marks] : all)
        if (const Operation *l = map.toLoaded(op))
            loaded[l] = marks;
    m_parts.graphViews[0]->graphScene()->setOpMarks(loaded);
}

const InferredShape *MainWindowDebugger::inferredShape(Value value) const
{
    return m_marks->shapes()->shape(debuggedValue(value));
}

const Operation *MainWindowDebugger::debuggedOp(const Operation *op) const
{
    const Operation *clone = m_session->opMap().toSplit(op);
    return clone ? clone : op;
}

Value MainWindowDebugger::debuggedValue(Value value) const
{
    const Operation *def = value.definingOp();
    const Operation *clone = def ? m_session->opMap().toSplit(def) : nullptr;
    return clone && value.index() < clone->numResults() ? clone->result(value.index()) : value;
}

} // namespace ps
