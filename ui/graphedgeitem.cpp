#include "ui/graphedgeitem.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace ps {

GraphEdgeItem::GraphEdgeItem(
    const LayoutResult::Edge &geometry, Value value, const QString &label, const QFont &font, bool dashed)
    : m_path(geometry.path)
    , m_label(label)
    , m_font(font)
    , m_value(value)
    , m_dashed(dashed)
{
    setZValue(0);
    setAcceptedMouseButtons(Qt::NoButton);
    m_bounds = m_path.controlPointRect();
    if (geometry.hasArrow) {
        // A triangle from the spline's end to the arrow tip, as wide as dot's arrowsize 0.6.
        QLineF axis(geometry.arrowTip, geometry.arrowBase);
        if (axis.length() > 0.01) {
            QLineF normal = axis.normalVector();
            normal.setLength(axis.length() * 0.35);
            QPointF side = normal.p2() - normal.p1();
            m_arrow << geometry.arrowTip << geometry.arrowBase + side << geometry.arrowBase - side;
            m_bounds |= m_arrow.boundingRect();
        }
    }
    if (!m_label.isEmpty() && !m_path.isEmpty()) {
        const QFontMetricsF metrics(m_font);
        const QPointF mid = m_path.pointAtPercent(0.5);
        const qreal w = metrics.horizontalAdvance(m_label) + 4;
        m_labelRect = QRectF(mid.x() + 3, mid.y() - metrics.height() / 2, w, metrics.height());
        m_bounds |= m_labelRect;
    }
    m_bounds.adjust(-2, -2, 2, 2);
    if (!m_label.isEmpty())
        setToolTip(m_label);
}

void GraphEdgeItem::setHighlighted(bool on)
{
    if (m_highlighted == on)
        return;
    m_highlighted = on;
    setZValue(on ? 3 : 0);
    update();
}

void GraphEdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QColor color = m_highlighted ? QColor(0xe0, 0x6c, 0x00) : QColor(0x6b, 0x74, 0x80);
    QPen pen(color, m_highlighted ? 2.5 : 1.0);
    pen.setCosmetic(!m_highlighted);
    if (m_dashed)
        pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(m_path);
    if (lod >= kArrowLod && !m_arrow.isEmpty()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawPolygon(m_arrow);
    }
    if (lod >= kLabelLod && !m_labelRect.isNull()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 200));
        painter->drawRect(m_labelRect);
        painter->setPen(m_highlighted ? color.darker(130) : QColor(0x44, 0x4b, 0x55));
        painter->setFont(m_font);
        painter->drawText(m_labelRect, Qt::AlignCenter | Qt::TextSingleLine, m_label);
    }
}

} // namespace ps
