#pragma once

#include <QObject>
#include <functional>

class QAction;
class QMenu;

namespace ps {

class DebugSession;
class Operation;

/// The debugger's commands as QActions with the Qt Creator / VS Code keys: Continue F5, Step
/// Over F10, Step Into F11, Step Out Shift+F11, Stop Shift+F5, Restart Ctrl+Shift+F5, Run to
/// Cursor Ctrl+F10, Toggle Breakpoint F9, Pause F6, plus the checkable "Break on NaN/Inf".
/// Enabled by the session's state. The "cursor" (Run to Cursor, F9) is the op a cursor provider
/// returns: the op selected in the host window.
class DebuggerActions : public QObject
{
    Q_OBJECT

public:
    explicit DebuggerActions(DebugSession *session, QObject *parent = nullptr);

    /// The op Run to Cursor and Toggle Breakpoint act on (null: none selected).
    void setCursorProvider(std::function<const Operation *()> provider) { m_cursor = std::move(provider); }

    QAction *continueAction() const { return m_continue; }
    QAction *stepOverAction() const { return m_stepOver; }
    QAction *stepIntoAction() const { return m_stepInto; }
    QAction *stepOutAction() const { return m_stepOut; }
    QAction *stopAction() const { return m_stop; }
    QAction *restartAction() const { return m_restart; }
    QAction *runToCursorAction() const { return m_runToCursor; }
    QAction *toggleBreakpointAction() const { return m_toggleBreakpoint; }
    QAction *pauseAction() const { return m_pause; }
    QAction *breakOnNanInfAction() const { return m_breakOnNanInf; }
    /// In menu order, with nullptr where a separator goes.
    QList<QAction *> actions() const;
    /// Adds the actions to `menu`.
    void populate(QMenu *menu) const;

    /// Runs to the cursor op; false (with message()) when no op is selected or it is not in the
    /// debugged programs.
    bool runToCursor();
    bool toggleBreakpoint();

signals:
    /// A short note for the status bar ("select an op first").
    void message(const QString &text);

private:
    QAction *make(const QString &text, const QKeySequence &key, const QString &tip);
    void updateEnabled();
    const Operation *cursorOp();

    DebugSession *m_session;
    std::function<const Operation *()> m_cursor;
    QAction *m_continue;
    QAction *m_stepOver;
    QAction *m_stepInto;
    QAction *m_stepOut;
    QAction *m_stop;
    QAction *m_restart;
    QAction *m_runToCursor;
    QAction *m_toggleBreakpoint;
    QAction *m_pause;
    QAction *m_breakOnNanInf;
};

} // namespace ps
