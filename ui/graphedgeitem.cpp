#include "ui/graphedgeitem.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

namespace ps {

GraphEdgeItem::GraphEdgeItem(const LayoutResult::Edge &geometry, Value value, const QString &label,
    bool dashed, const GraphStyle *style)
    : m_style(style)
    , m_value(value)
{
    m_visual.path = geometry.path;
    m_visual.dashed = dashed;
    m_visual.label = label;
    m_declaredLabel = label;
    setZValue(0);
    setAcceptedMouseButtons(Qt::NoButton);
    m_bounds = m_visual.path.controlPointRect();
    if (geometry.hasArrow) {
        m_visual.arrow = GraphStyle::arrowHead(geometry.arrowBase, geometry.arrowTip);
        m_bounds |= m_visual.arrow.boundingRect();
    }
    m_visual.labelRect = style->edgeLabelRect(m_visual.path, label);
    if (!m_visual.labelRect.isNull())
        m_bounds |= m_visual.labelRect;
    m_bounds.adjust(-2, -2, 2, 2);
}

QPainterPath GraphEdgeItem::shape() const
{
    if (m_shape.isEmpty() && !m_visual.path.isEmpty()) {
        QPainterPathStroker stroker;
        stroker.setWidth(6);
        m_shape = stroker.createStroke(m_visual.path);
        if (!m_visual.labelRect.isNull())
            m_shape.addRect(m_visual.labelRect);
        m_shape.addPolygon(m_visual.arrow);
    }
    return m_shape;
}

void GraphEdgeItem::setRuntimeLabel(const QString &label)
{
    const QString shown = label.isEmpty() ? m_declaredLabel : label;
    if (shown == m_visual.label && m_visual.runtime == !label.isEmpty())
        return;
    prepareGeometryChange();
    m_visual.label = shown;
    m_visual.runtime = !label.isEmpty();
    if (!m_visual.labelRect.isNull()) {
        QFont font = m_style->edgeFont();
        font.setItalic(m_visual.runtime);
        const QFontMetricsF metrics(font);
        m_visual.labelRect.setWidth(metrics.horizontalAdvance(shown) + 4);
        m_bounds |= m_visual.labelRect.adjusted(-2, -2, 2, 2);
    }
    m_shape = QPainterPath();
    update();
}

void GraphEdgeItem::setHighlighted(bool on)
{
    if (m_visual.highlighted == on)
        return;
    m_visual.highlighted = on;
    setZValue(on ? 1.5 : 0);
    update();
}

void GraphEdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    m_style->paintEdge(painter, m_visual, option->levelOfDetailFromTransform(painter->worldTransform()));
}

} // namespace ps
