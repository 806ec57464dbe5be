#pragma once

#include <QDockWidget>
#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>

class QAction;
class QMainWindow;
class QWidget;

namespace ps {

/// Focus mode: the central widget takes the whole window. Entering hides the window's visible
/// docks and toolbars (and whatever `onToggled` hides in the tab shown, e.g. the pass timeline's
/// table); leaving shows exactly those again, as they were (the window's state restored, the
/// docks opened meanwhile kept). The window's saved state never records it: the
/// mode is left before the window closes.
class FocusMode : public QObject
{
    Q_OBJECT

public:
    explicit FocusMode(QMainWindow *window);

    /// View ▸ Focus Mode, Ctrl+Shift+M, checkable.
    QAction *action() const { return m_action; }
    bool isOn() const;
    void setOn(bool on);
    /// Lets `dock` take the whole window (the inspector maximised): focus mode with `dock` kept
    /// and the central widget hidden too; false leaves it.
    void maximizeDock(QDockWidget *dock, bool on);
    /// The dock maximizeDock() shows; null otherwise.
    QDockWidget *maximizedDock() const { return m_keep; }
    /// Called after entering (true) and before leaving (false).
    void setOnToggled(std::function<void(bool on)> onToggled) { m_onToggled = std::move(onToggled); }

signals:
    /// Left: the docks and toolbars are back (a maximised dock is no longer).
    void left();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void apply(bool on, QDockWidget *keep);

    QMainWindow *m_window;
    QPointer<QDockWidget> m_keep;
    QAction *m_action;
    QList<QPointer<QWidget>> m_hidden;
    QByteArray m_state; ///< the window's state on entering, restored on leaving
    std::function<void(bool)> m_onToggled;
};

} // namespace ps
