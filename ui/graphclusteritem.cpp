#include "ui/graphclusteritem.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace ps {

GraphClusterItem::GraphClusterItem(
    int clusterId, Operation *op, const QRectF &rect, const QString &label, const QFont &font)
    : m_rect(rect)
    , m_label(label)
    , m_font(font)
    , m_op(op)
    , m_clusterId(clusterId)
{
    setZValue(-1);
    setAcceptedMouseButtons(Qt::NoButton);
}

void GraphClusterItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    QPen pen(QColor(0x8a, 0x6d, 0x3b), 1.2, Qt::DashLine);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(QColor(0xff, 0xf7, 0xe6, 150));
    painter->drawRoundedRect(m_rect, 8, 8);
    if (lod >= 0.4) {
        painter->setPen(QColor(0x6a, 0x4d, 0x1b));
        painter->setFont(m_font);
        painter->drawText(
            m_rect.adjusted(8, 4, -8, -4), Qt::AlignTop | Qt::AlignHCenter | Qt::TextSingleLine, m_label);
    }
}

} // namespace ps
