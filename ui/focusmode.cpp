#include "ui/focusmode.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QToolBar>

namespace ps {

FocusMode::FocusMode(QMainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_action(new QAction(tr("F&ocus Mode"), this))
{
    m_action->setObjectName(QStringLiteral("focusModeAction"));
    m_action->setCheckable(true);
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    m_action->setToolTip(
        tr("Let the graph or the diff take the whole window (the docks and toolbars hidden)"));
    connect(m_action, &QAction::toggled, this, &FocusMode::setOn);
    window->installEventFilter(this);
}

bool FocusMode::isOn() const
{
    return m_action->isChecked() && !m_hidden.isEmpty();
}

void FocusMode::setOn(bool on)
{
    apply(on, nullptr);
}

void FocusMode::maximizeDock(QDockWidget *dock, bool on)
{
    if (on && !m_hidden.isEmpty() && m_keep != dock)
        apply(false, nullptr); // from focus mode (or another dock) to this dock
    apply(on, dock);
}

void FocusMode::apply(bool on, QDockWidget *keep)
{
    if (on == !m_hidden.isEmpty()) {
        m_action->setChecked(on);
        return;
    }
    if (on) {
        m_keep = keep;
        m_state = m_window->saveState(); // which dock of a tabbed group was in front, sizes
        // Every docked one, also those behind another's tab (which would come to the front).
        for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
            if ((dock->isVisible() || !dock->isHidden()) && !dock->isFloating() && dock != keep)
                m_hidden.append(dock);
        if (keep && m_window->centralWidget())
            m_hidden.append(m_window->centralWidget());
        for (QToolBar *bar : m_window->findChildren<QToolBar *>())
            if (bar->isVisible())
                m_hidden.append(bar);
        if (m_hidden.isEmpty())
            m_hidden.append(QPointer<QWidget>()); // nothing to hide: on all the same
        for (const QPointer<QWidget> &w : m_hidden)
            if (w)
                w->hide();
        m_action->setChecked(true);
        if (m_onToggled && !keep)
            m_onToggled(true);
        return;
    }
    if (m_onToggled && !m_keep)
        m_onToggled(false);
    m_keep.clear();
    // Docks opened meanwhile (a debug session's) stay open.
    QList<QDockWidget *> opened;
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        if (dock->isVisible() && !m_hidden.contains(dock))
            opened.append(dock);
    for (const QPointer<QWidget> &w : std::as_const(m_hidden))
        if (w)
            w->show();
    m_window->restoreState(m_state);
    for (QDockWidget *dock : opened)
        dock->show();
    m_hidden.clear();
    m_action->setChecked(false);
    emit left();
}

bool FocusMode::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Close)
        setOn(false); // before the window saves its state
    return QObject::eventFilter(watched, event);
}

} // namespace ps
