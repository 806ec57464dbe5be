#include "ui/graphminimap.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <algorithm>

namespace ps {

namespace {
constexpr int kMargin = 10;
constexpr int kBorder = 1;
} // namespace

GraphMinimap::GraphMinimap(QGraphicsView *view)
    : QWidget(view)
    , m_view(view)
{
    setObjectName(QStringLiteral("graphMinimap"));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole graph: click or drag to move the view"));
    hide();
}

void GraphMinimap::refresh()
{
    QGraphicsScene *scene = m_view->scene();
    m_sceneRect = scene ? scene->itemsBoundingRect() : QRectF();
    if (m_sceneRect.isEmpty()) {
        m_picture = QPixmap();
        hide();
        return;
    }
    const QSize limit = maxSize();
    m_scale = std::min(limit.width() / m_sceneRect.width(), limit.height() / m_sceneRect.height());
    const QSize size(
        std::max(24, int(m_sceneRect.width() * m_scale)), std::max(24, int(m_sceneRect.height() * m_scale)));
    const qreal ratio = devicePixelRatioF();
    m_picture = QPixmap(size * ratio);
    m_picture.setDevicePixelRatio(ratio);
    m_picture.fill(scene->backgroundBrush().color());
    QPainter painter(&m_picture);
    scene->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), m_sceneRect);
    painter.end();
    setFixedSize(size + QSize(2 * kBorder, 2 * kBorder));
    place();
    updateFrame();
}

QSize GraphMinimap::maxSize() const
{
    // A quarter of the pane each way, so that a narrow pane (the split view's) keeps its graph.
    const QSize pane = m_view->viewport()->size();
    return QSize(std::clamp(int(pane.width() * kPaneShare), kMinSide, kMaxSide),
        std::clamp(int(pane.height() * kPaneShare), kMinSide, kMaxSide));
}

void GraphMinimap::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && isVisible())
        refresh(); // the picture has the scene's colours of its time
}

void GraphMinimap::place()
{
    QWidget *viewport = m_view->viewport();
    const QPoint corner = viewport->geometry().bottomRight();
    move(corner.x() - width() - kMargin + 1, corner.y() - height() - kMargin + 1);
}

void GraphMinimap::updateFrame()
{
    if (m_picture.isNull())
        return;
    const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    m_frame = QRectF((visible.topLeft() - m_sceneRect.topLeft()) * m_scale, visible.size() * m_scale)
                  .translated(kBorder, kBorder);
    // Worth showing only when the view does not show the whole graph.
    const bool whole = visible.adjusted(-2, -2, 2, 2).contains(m_sceneRect);
    setVisible(!whole && isEnabled());
    update();
}

void GraphMinimap::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setPen(QPen(palette().color(QPalette::Mid), kBorder));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    painter.drawPixmap(kBorder, kBorder, m_picture);
    QColor frame = palette().color(QPalette::Highlight);
    painter.setPen(QPen(frame, 1.5));
    frame.setAlpha(40);
    painter.setBrush(frame);
    painter.drawRect(m_frame.intersected(QRectF(rect())).adjusted(0.5, 0.5, -0.5, -0.5));
}

QPointF GraphMinimap::toScene(const QPointF &point) const
{
    return m_sceneRect.topLeft() + (point - QPointF(kBorder, kBorder)) / m_scale;
}

void GraphMinimap::centerViewAt(const QPointF &point)
{
    m_view->centerOn(toScene(point));
    updateFrame();
}

void GraphMinimap::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        centerViewAt(event->position());
}

void GraphMinimap::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        centerViewAt(event->position());
}

} // namespace ps
