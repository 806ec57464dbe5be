#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTabWidget>

class QAction;
class QDockWidget;
class QMainWindow;

namespace ps {

class DockTitleBar;

/// Docks that collapse to their title, so that the graph gets the room on a small screen while
/// the panels stay at hand (focus mode hides them all; closing one loses its place). Every dock
/// gets a DockTitleBar whose button or double-click folds it together with the docks tabbed with
/// it:
/// - in a side column it shares with other docks: to its title's height, and they take the room;
/// - alone in a side column: to a strip one title bar wide, the title standing on end, and the
///   graph takes the room;
/// - at the top or bottom: to its title's height.
/// Expanding gives back the size it had. A folded dock that is floated or moved unfolds. Which
/// docks are folded, and their sizes, are saved with the window (state()/restoreState()).
class DockCollapser : public QObject
{
    Q_OBJECT

public:
    explicit DockCollapser(QMainWindow *window);

    /// Gives every dock of the window that has none yet a DockTitleBar; call again after adding
    /// docks.
    void installAll();
    bool isCollapsed(const QDockWidget *dock) const;
    /// Folds or unfolds `dock` and the docks tabbed with it; a floating or hidden dock stays as it
    /// is.
    void setCollapsed(QDockWidget *dock, bool collapsed);
    /// Folds every docked panel shown, those at the window's sides to strips (the graph gets the
    /// width), or unfolds them all.
    void setAllCollapsed(bool collapsed);
    /// Unfolds `dock` (without giving back its size: the caller sizes it) when the window it is
    /// in has a DockCollapser and it is folded, so that what is about to be shown in it is seen;
    /// for the places that open a dock to show something new (a debug session, a problem).
    static void unfoldToShow(QDockWidget *dock);
    /// View ▸ Collapse Panels (Ctrl+Shift+K), checkable: folds every docked panel shown, or
    /// unfolds them all.
    QAction *collapseAllAction() const { return m_collapseAll; }

    /// The folded docks for the settings: "objectName=V380" (folded vertically from 380 px).
    QStringList state() const;
    /// Folds the docks `state()` named, after the window's own state was restored.
    void restoreState(const QStringList &state);

signals:
    void collapsedChanged(QDockWidget *dock, bool collapsed);

private:
    struct Fold
    {
        Qt::Orientation orientation = Qt::Vertical;
        int size = 0; ///< the dock's height (Vertical) or width (Horizontal) before folding
        QList<QPointer<QDockWidget>> group; ///< the dock and those tabbed with it then
        QList<QSize> contentMaximum; ///< each one's content's maximum size before
        /// A tabbed group folded to a strip turns its area's tabs (Qt::NoDockWidgetArea: none).
        Qt::DockWidgetArea tabArea = Qt::NoDockWidgetArea;
        QTabWidget::TabPosition tabPosition = QTabWidget::South;
    };

    void install(QDockWidget *dock);
    Qt::Orientation foldOrientation(QDockWidget *dock, const QList<QDockWidget *> &group) const;
    /// Folds `dock`'s group; `size` is what unfolding gives back (0: its size now).
    void fold(QDockWidget *dock, Qt::Orientation orientation, int size);
    void unfold(QDockWidget *dock, bool resize);
    void setTitleBarsCollapsed(const Fold &fold, bool collapsed);
    /// Gives an unfolded dock back the size it had before `fold`.
    void restoreSize(QDockWidget *dock, const Fold &fold);

    QMainWindow *m_window;
    QAction *m_collapseAll;
    QHash<QDockWidget *, Fold> m_folds; ///< by the dock folded (the group's first)
};

} // namespace ps
