#include "ui/debugger/debuggeractions.h"

#include "ui/debugger/debugsession.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QStyle>

namespace ps {

DebuggerActions::DebuggerActions(DebugSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    QStyle *style = QApplication::style();
    m_continue = make(tr("&Continue"), Qt::Key_F5, tr("Start or continue until a breakpoint or the end"));
    m_continue->setIcon(style->standardIcon(QStyle::SP_MediaPlay));
    m_pause = make(tr("&Pause"), Qt::Key_F6, tr("Interrupt the run after the current op"));
    m_pause->setIcon(style->standardIcon(QStyle::SP_MediaPause));
    m_stop = make(tr("&Stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5), tr("Stop and end the debug session"));
    m_stop->setIcon(style->standardIcon(QStyle::SP_MediaStop));
    m_restart = make(tr("&Restart"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5),
        tr("Back to the first op with the original inputs"));
    m_restart->setIcon(style->standardIcon(QStyle::SP_BrowserReload));
    m_stepOver = make(tr("Step &Over"), Qt::Key_F10, tr("Run the current op (an if/while as a whole)"));
    m_stepOver->setIcon(style->standardIcon(QStyle::SP_ArrowRight));
    m_stepInto = make(tr("Step &Into"), Qt::Key_F11, tr("Enter the branch or loop body of the current op"));
    m_stepInto->setIcon(style->standardIcon(QStyle::SP_ArrowDown));
    m_stepOut = make(
        tr("Step O&ut"), QKeySequence(Qt::SHIFT | Qt::Key_F11), tr("Run until the current region is left"));
    m_stepOut->setIcon(style->standardIcon(QStyle::SP_ArrowUp));
    m_runToCursor = make(
        tr("Run to C&ursor"), QKeySequence(Qt::CTRL | Qt::Key_F10), tr("Run until the selected op is next"));
    m_runToCursor->setIcon(style->standardIcon(QStyle::SP_MediaSkipForward));
    m_toggleBreakpoint
        = make(tr("Toggle &Breakpoint"), Qt::Key_F9, tr("Set or clear a breakpoint on the selected op"));
    m_breakOnNanInf = make(tr("Break on &NaN/Inf"), QKeySequence(),
        tr("Stop after the first op that produces a NaN or an infinity"));
    m_breakOnNanInf->setCheckable(true);
    // The toolbar shows it as text (no icon says NaN), without the menu mnemonic.
    m_breakOnNanInf->setIconText(tr("Break on NaN/Inf"));

    connect(m_continue, &QAction::triggered, session, &DebugSession::continueRun);
    connect(m_pause, &QAction::triggered, session, &DebugSession::pause);
    connect(m_stop, &QAction::triggered, session, &DebugSession::stop);
    connect(m_restart, &QAction::triggered, session, &DebugSession::restart);
    connect(m_stepOver, &QAction::triggered, session, &DebugSession::stepOver);
    connect(m_stepInto, &QAction::triggered, session, &DebugSession::stepInto);
    connect(m_stepOut, &QAction::triggered, session, &DebugSession::stepOut);
    connect(m_runToCursor, &QAction::triggered, this, &DebuggerActions::runToCursor);
    connect(m_toggleBreakpoint, &QAction::triggered, this, &DebuggerActions::toggleBreakpoint);
    connect(m_breakOnNanInf, &QAction::toggled, session, &DebugSession::setBreakOnNanInf);

    connect(session, &DebugSession::stateChanged, this, &DebuggerActions::updateEnabled);
    connect(session, &DebugSession::targetChanged, this, &DebuggerActions::updateEnabled);
    connect(session, &DebugSession::breakpointsChanged, this, [this] {
        const QSignalBlocker block(m_breakOnNanInf);
        m_breakOnNanInf->setChecked(m_session->breakOnNanInf());
    });
    updateEnabled();
}

QAction *DebuggerActions::make(const QString &text, const QKeySequence &key, const QString &tip)
{
    auto *action = new QAction(text, this);
    action->setShortcut(key);
    // Work in every window of the application: the graph view and docks have the focus.
    action->setShortcutContext(Qt::WindowShortcut);
    action->setToolTip(
        key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    action->setStatusTip(tip);
    return action;
}

QList<QAction *> DebuggerActions::actions() const
{
    return { m_continue, m_pause, m_stop, m_restart, nullptr, m_stepOver, m_stepInto, m_stepOut,
        m_runToCursor, nullptr, m_toggleBreakpoint, m_breakOnNanInf };
}

void DebuggerActions::populate(QMenu *menu) const
{
    for (QAction *a : actions()) {
        if (a)
            menu->addAction(a);
        else
            menu->addSeparator();
    }
}

void DebuggerActions::updateEnabled()
{
    using State = DebugSession::State;
    const State s = m_session->state();
    const bool target = m_session->hasTarget();
    // After the end the commands restart the session (DebugSession::command).
    const bool idle = (s == State::NotStarted && target) || s == State::Finished;
    const bool paused = s == State::Paused || s == State::Error;
    m_continue->setEnabled(idle || paused);
    m_stepOver->setEnabled(idle || paused);
    m_stepInto->setEnabled(idle || paused);
    m_stepOut->setEnabled(paused);
    m_runToCursor->setEnabled(idle || paused);
    m_pause->setEnabled(s == State::Running);
    m_stop->setEnabled(s != State::NotStarted);
    m_restart->setEnabled(s != State::NotStarted);
    m_toggleBreakpoint->setEnabled(target);
}

const Operation *DebuggerActions::cursorOp()
{
    const Operation *op = m_cursor ? m_cursor() : nullptr;
    if (!op)
        emit message(tr("Select an op first"));
    else if (!m_session->positionOf(op))
        emit message(tr("The selected op is not in the debugged program"));
    return op && m_session->positionOf(op) ? op : nullptr;
}

bool DebuggerActions::runToCursor()
{
    const Operation *op = cursorOp();
    if (!op)
        return false;
    m_session->runToCursor(*m_session->positionOf(op));
    return true;
}

bool DebuggerActions::toggleBreakpoint()
{
    const Operation *op = cursorOp();
    if (!op)
        return false;
    const bool set = m_session->toggleBreakpointAt(op);
    emit message(set ? tr("Breakpoint set") : tr("Breakpoint removed"));
    return true;
}

} // namespace ps
