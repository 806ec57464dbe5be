#include "ui/docktitlebar.h"

#include <QBoxLayout>
#include <QDockWidget>
#include <QMainWindow>
#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <QToolButton>

namespace ps {

namespace {

QToolButton *titleButton(QWidget *parent, const QString &objectName)
{
    auto *button = new QToolButton(parent);
    button->setObjectName(objectName);
    button->setAutoRaise(true);
    button->setFocusPolicy(Qt::NoFocus);
    const int side = parent->fontMetrics().height() + 2;
    button->setFixedSize(side, side);
    button->setIconSize(QSize(side - 6, side - 6));
    return button;
}

} // namespace

DockTitleBar::DockTitleBar(QDockWidget *dock)
    : QWidget(dock)
    , m_dock(dock)
    , m_layout(new QBoxLayout(QBoxLayout::LeftToRight, this))
    , m_collapse(titleButton(this, QStringLiteral("dockCollapseButton")))
    , m_float(titleButton(this, QStringLiteral("dockFloatButton")))
    , m_close(titleButton(this, QStringLiteral("dockCloseButton")))
{
    setObjectName(QStringLiteral("dockTitleBar"));
    m_layout->setContentsMargins(2, 1, 2, 1);
    m_layout->setSpacing(1);
    m_layout->addWidget(m_collapse);
    m_layout->addStretch(1);
    m_layout->addWidget(m_float);
    m_layout->addWidget(m_close);
    m_float->setIcon(style()->standardIcon(QStyle::SP_TitleBarNormalButton, nullptr, this));
    m_float->setToolTip(tr("Float (a window of its own) or dock again"));
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton, nullptr, this));
    m_close->setToolTip(tr("Close (View menu opens it again)"));
    connect(m_collapse, &QToolButton::clicked, this, [this] { emit collapseRequested(!m_collapsed); });
    connect(m_float, &QToolButton::clicked, m_dock, [this] { m_dock->setFloating(!m_dock->isFloating()); });
    connect(m_close, &QToolButton::clicked, m_dock, &QDockWidget::close);
    connect(m_dock, &QDockWidget::featuresChanged, this, &DockTitleBar::updateButtons);
    connect(m_dock, &QDockWidget::topLevelChanged, this, &DockTitleBar::updateButtons);
    connect(m_dock, &QWidget::windowTitleChanged, this, [this] { update(); });
    setCollapsed(false);
    updateButtons();
}

void DockTitleBar::setCollapsed(bool collapsed)
{
    m_collapsed = collapsed;
    // ▾ open; folded ▸, or towards the window's middle for a strip at its side.
    Qt::ArrowType folded = Qt::RightArrow;
    if (const auto *window = qobject_cast<const QMainWindow *>(m_dock->parentWidget());
        vertical() && window && window->dockWidgetArea(m_dock) == Qt::RightDockWidgetArea)
        folded = Qt::LeftArrow;
    m_collapse->setArrowType(collapsed ? folded : Qt::DownArrow);
    m_collapse->setToolTip(collapsed
            ? tr("Expand %1 (or double-click its title)").arg(m_dock->windowTitle())
            : tr("Collapse %1 to its title (or double-click the title)").arg(m_dock->windowTitle()));
    update();
}

bool DockTitleBar::vertical() const
{
    return m_dock->features().testFlag(QDockWidget::DockWidgetVerticalTitleBar);
}

void DockTitleBar::updateButtons()
{
    const QDockWidget::DockWidgetFeatures features = m_dock->features();
    m_float->setVisible(features.testFlag(QDockWidget::DockWidgetFloatable));
    m_close->setVisible(features.testFlag(QDockWidget::DockWidgetClosable));
    // A floating dock is a window of its own: it keeps its size, so it does not collapse.
    m_collapse->setEnabled(!m_dock->isFloating());
    m_layout->setDirection(vertical() ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    setCollapsed(m_collapsed);
    updateGeometry();
}

QSize DockTitleBar::sizeHint() const
{
    const int side = fontMetrics().height() + 4;
    const int length = fontMetrics().horizontalAdvance(m_dock->windowTitle()) + 3 * side + 12;
    return vertical() ? QSize(side, length) : QSize(length, side);
}

QSize DockTitleBar::minimumSizeHint() const
{
    const int side = fontMetrics().height() + 4;
    return vertical() ? QSize(side, side * 2) : QSize(side * 2, side);
}

QRect DockTitleBar::titleRect() const
{
    const QRect button = m_collapse->geometry();
    int end = vertical() ? height() : width();
    for (const QToolButton *b : { m_float, m_close })
        if (b->isVisible())
            end = std::min(end, vertical() ? b->geometry().top() : b->geometry().left());
    if (vertical())
        return QRect(0, button.bottom() + 4, width(), std::max(0, end - button.bottom() - 8));
    return QRect(button.right() + 4, 0, std::max(0, end - button.right() - 8), height());
}

void DockTitleBar::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QRect area = titleRect();
    if (area.isEmpty())
        return;
    painter.setPen(palette().color(QPalette::WindowText));
    const int length = vertical() ? area.height() : area.width();
    const QString text = fontMetrics().elidedText(m_dock->windowTitle(), Qt::ElideRight, length);
    if (!vertical()) {
        painter.drawText(area, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, text);
        return;
    }
    // Standing on end from under the expand button, read as the side's tabs are: bottom to top at
    // the window's left, top to bottom at its right.
    const auto *window = qobject_cast<const QMainWindow *>(m_dock->parentWidget());
    const bool left = !window || window->dockWidgetArea(m_dock) != Qt::RightDockWidgetArea;
    const QRect onEnd(0, 0, area.height(), area.width());
    if (left) {
        painter.translate(area.left(), area.bottom() + 1);
        painter.rotate(-90);
        painter.drawText(onEnd, Qt::AlignRight | Qt::AlignVCenter | Qt::TextSingleLine, text);
    } else {
        painter.translate(area.right() + 1, area.top());
        painter.rotate(90);
        painter.drawText(onEnd, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, text);
    }
}

void DockTitleBar::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || m_dock->isFloating()) {
        event->ignore(); // the dock's own: a floating one docks again
        return;
    }
    event->accept();
    emit collapseRequested(!m_collapsed);
}

} // namespace ps
