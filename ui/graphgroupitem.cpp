#include "ui/graphgroupitem.h"

#include "ui/graphscene.h"

#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace ps {

GraphGroupItem::GraphGroupItem(
    int groupId, const GroupVisual &visual, const QString &path, const GraphStyle *style)
    : m_visual(visual)
    , m_style(style)
    , m_groupId(groupId)
{
    // Frames lie behind everything, nested ones above their parents; boxes are with the ops.
    setZValue(visual.expanded ? -3 + 0.01 * visual.depth : 2);
    setFlag(ItemIsSelectable, !visual.expanded);
    QString tip = visual.title + QStringLiteral(" \u00b7 ") + visual.detail;
    if (!path.isEmpty() && path != visual.title)
        tip += QLatin1Char('\n') + path;
    tip += visual.expanded ? QObject::tr("\nDouble-click the title or press [\u2212] to close this layer")
                           : QObject::tr("\nDouble-click to open this layer");
    setToolTip(tip);
}

QRectF GraphGroupItem::boundingRect() const
{
    const NodeMarks &m = m_visual.marks;
    // The box's stack shadow and a thick outline; a pass diff's count pill rises above the top.
    const qreal top = m.removedInside + m.addedInside + m.changedInside > 0 ? 36 : 4;
    return m_visual.rect.adjusted(-4, -top, 6, 6);
}

QRectF GraphGroupItem::titleBar() const
{
    QRectF bar = m_visual.rect;
    bar.setHeight(m_style->frameTitleHeight());
    return bar;
}

QPainterPath GraphGroupItem::shape() const
{
    QPainterPath p;
    p.addRect(m_visual.expanded ? titleBar() : m_visual.rect);
    return p;
}

void GraphGroupItem::setHighlighted(bool on)
{
    if (m_visual.highlighted != on) {
        m_visual.highlighted = on;
        update();
    }
}

void GraphGroupItem::setMatched(bool on)
{
    if (m_visual.matched != on) {
        m_visual.matched = on;
        update();
    }
}

void GraphGroupItem::setMarks(const NodeMarks &marks)
{
    if (!(m_visual.marks == marks)) {
        prepareGeometryChange();
        m_visual.marks = marks;
        update();
    }
}

void GraphGroupItem::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_visual.expanded && event->button() == Qt::LeftButton
        && m_style->frameToggleRect(m_visual.rect).adjusted(-3, -3, 3, 3).contains(event->pos())) {
        if (auto *graph = qobject_cast<GraphScene *>(scene()))
            graph->requestGroupToggle(m_groupId);
        event->accept();
        return;
    }
    QGraphicsItem::mousePressEvent(event);
}

void GraphGroupItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        if (auto *graph = qobject_cast<GraphScene *>(scene()))
            graph->requestGroupToggle(m_groupId);
        event->accept();
        return;
    }
    QGraphicsItem::mouseDoubleClickEvent(event);
}

void GraphGroupItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    GroupVisual visual = m_visual;
    visual.selected = option->state & QStyle::State_Selected;
    m_style->paintGroup(painter, visual, option->levelOfDetailFromTransform(painter->worldTransform()));
}

} // namespace ps
