#include "ui/graphclusteritem.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace ps {

GraphClusterItem::GraphClusterItem(
    int clusterId, Operation *op, const QRectF &rect, const QString &label, const GraphStyle *style)
    : m_rect(rect)
    , m_label(label)
    , m_style(style)
    , m_op(op)
    , m_clusterId(clusterId)
{
    setZValue(-1);
    setAcceptedMouseButtons(Qt::NoButton);
}

void GraphClusterItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    m_style->paintCluster(
        painter, m_rect, m_label, option->levelOfDetailFromTransform(painter->worldTransform()));
}

} // namespace ps
