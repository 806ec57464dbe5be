#pragma once

#include <QWidget>

class QBoxLayout;
class QDockWidget;
class QToolButton;

namespace ps {

/// A dock's title bar with a collapse button: [▾] Title ........ [float] [close]. Qt's own title
/// bar has no room for a button of ours, so this replaces it (QDockWidget::setTitleBarWidget) and
/// keeps what it did: drag to move (the events it does not take go to the dock), the float and
/// close buttons where the dock's features allow them. A double-click collapses or expands instead
/// of floating. With the dock's DockWidgetVerticalTitleBar feature (a dock folded to a strip at
/// the window's side) it stands on end: buttons from the top, the title read top to bottom. Presses and drags
/// are left to the dock (QWidget ignores them), which moves and undocks as with its own title bar.
class DockTitleBar : public QWidget
{
    Q_OBJECT

public:
    explicit DockTitleBar(QDockWidget *dock);

    /// Shows ▸ (collapsed) or ▾ and the matching tooltip; does not fold anything.
    void setCollapsed(bool collapsed);
    bool isCollapsed() const { return m_collapsed; }
    QToolButton *collapseButton() const { return m_collapse; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The button or a double-click asked to collapse (true) or expand (false).
    void collapseRequested(bool collapse);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    bool vertical() const;
    void updateButtons();
    /// Where the title is drawn: between the collapse button and the others.
    QRect titleRect() const;

    QDockWidget *m_dock;
    QBoxLayout *m_layout;
    QToolButton *m_collapse;
    QToolButton *m_float;
    QToolButton *m_close;
    bool m_collapsed = false;
};

} // namespace ps
