#include "ui/graphedgeitem.h"

#include "ui/render/edgelabelcrowds.h"

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
    m_labelled = !m_visual.labelRect.isNull();
    m_labelOrigin = m_visual.labelRect.topLeft();
    m_labelLeft = m_labelOrigin.x();
    if (m_labelled)
        m_bounds |= m_visual.labelRect;
    m_bounds.adjust(-2, -2, 2, 2);
}

QRectF GraphEdgeItem::ownLabelRect() const
{
    if (!m_labelled)
        return {};
    QFont font = m_style->edgeFont();
    font.setItalic(!m_runtimeLabel.isEmpty());
    const QFontMetricsF metrics(font);
    return QRectF(m_labelOrigin, QSizeF(metrics.horizontalAdvance(label()) + 4, metrics.height()));
}

void GraphEdgeItem::setLabelCrowd(bool hidden, int others, qreal left)
{
    if (hidden == m_labelHidden && others == m_labelOthers && left == m_labelLeft)
        return;
    m_labelHidden = hidden;
    m_labelOthers = others;
    m_labelLeft = left;
    refreshLabel();
}

void GraphEdgeItem::refreshLabel()
{
    if (!m_labelled)
        return;
    prepareGeometryChange();
    m_visual.runtime = !m_runtimeLabel.isEmpty();
    m_visual.label = EdgeLabelCrowds::text(label(), m_labelOthers);
    if (m_labelHidden) {
        m_visual.labelRect = QRectF();
    } else {
        QFont font = m_style->edgeFont();
        font.setItalic(m_visual.runtime);
        const QFontMetricsF metrics(font);
        m_visual.labelRect = QRectF(QPointF(m_labelLeft, m_labelOrigin.y()),
            QSizeF(metrics.horizontalAdvance(m_visual.label) + 4, metrics.height()));
        m_bounds |= m_visual.labelRect.adjusted(-2, -2, 2, 2);
    }
    m_shape = QPainterPath();
    update();
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
    if (label == m_runtimeLabel)
        return;
    m_runtimeLabel = label;
    refreshLabel();
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
