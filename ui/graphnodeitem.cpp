#include "ui/graphnodeitem.h"

#include "core/ir/operation.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace ps {

GraphNodeItem::GraphNodeItem(const GraphNode &node, const QRectF &rect, const QFont &font)
    : m_rect(rect)
    , m_labelHeight(rect.height())
    , m_font(font)
    , m_fill(QColor(
          QString::fromLatin1(nodeKindFillColor(node.kind).data(), nodeKindFillColor(node.kind).size())))
    , m_op(node.op)
    , m_value(node.value)
    , m_nodeId(node.id)
    , m_kind(node.kind)
    , m_ghost(node.ghost)
{
    for (const std::string &line : node.lines)
        m_lines << QString::fromStdString(line);
    setFlag(ItemIsSelectable);
    setZValue(m_ghost ? 1 : 2);
    QString tip = m_lines.join(QLatin1Char('\n'));
    if (m_op && !m_ghost)
        tip = QString::fromUtf8(m_op->name().data(), qsizetype(m_op->name().size())) + QLatin1Char('\n')
            + tip;
    setToolTip(tip);
}

QSizeF GraphNodeItem::preferredSize(const GraphNode &node, const QFont &font)
{
    QFont title = font;
    title.setBold(!node.ghost);
    const QFontMetricsF titleMetrics(title);
    const QFontMetricsF metrics(font);
    qreal width = 0;
    for (size_t i = 0; i < node.lines.size(); ++i) {
        const QString line = QString::fromStdString(node.lines[i]);
        width = qMax(width, (i == 0 ? titleMetrics : metrics).horizontalAdvance(line));
    }
    const qreal lines = qMax<qreal>(1, qreal(node.lines.size()));
    const qreal padX = node.ghost ? 5 : 8;
    const qreal padY = node.ghost ? 2 : 4;
    return QSizeF(
        qMax<qreal>(width + 2 * padX, node.ghost ? 16 : 40), lines * metrics.lineSpacing() + 2 * padY);
}

QRectF GraphNodeItem::boundingRect() const
{
    return m_rect.adjusted(-3, -3, 3, 3);
}

QPainterPath GraphNodeItem::shape() const
{
    QPainterPath p;
    p.addRect(m_rect);
    return p;
}

void GraphNodeItem::setHighlighted(bool on)
{
    if (m_highlighted == on)
        return;
    m_highlighted = on;
    update();
}

void GraphNodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool selected = option->state & QStyle::State_Selected;
    QColor outline = selected ? QColor(0x1f, 0x5f, 0xd0)
        : m_highlighted       ? QColor(0xe0, 0x6c, 0x00)
                              : QColor(0x55, 0x5f, 0x6d);
    if (lod < kFlatLod) {
        painter->fillRect(m_rect, selected || m_highlighted ? outline : m_fill);
        return;
    }
    QPen pen(outline, selected || m_highlighted ? 2.5 : (m_ghost ? 0.8 : 1.0));
    if (m_ghost)
        pen.setStyle(Qt::DashLine);
    pen.setCosmetic(lod < 1 && !(selected || m_highlighted));
    painter->setPen(pen);
    painter->setBrush(m_ghost ? m_fill.lighter(108) : m_fill);
    const qreal radius = qMin<qreal>(6, m_rect.height() / 4);
    painter->drawRoundedRect(m_rect, radius, radius);
    if (lod < kTextLod || m_lines.isEmpty())
        return;
    painter->setPen(QColor(0x1b, 0x1f, 0x24));
    QFont title = m_font;
    title.setBold(!m_ghost);
    const qreal lineHeight = QFontMetricsF(m_font).lineSpacing();
    const qreal top = m_rect.top() + (m_labelHeight - lineHeight * m_lines.size()) / 2;
    QRectF line(m_rect.left() + 2, top, m_rect.width() - 4, lineHeight);
    for (int i = 0; i < m_lines.size(); ++i) {
        painter->setFont(i == 0 ? title : m_font);
        painter->drawText(line, Qt::AlignCenter | Qt::TextSingleLine, m_lines[i]);
        line.translate(0, lineHeight);
    }
}

} // namespace ps
