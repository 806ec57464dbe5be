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
    m_toolTip = tip;
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
    // Marks paint a time badge straddling the top edge: keep room for it.
    return m_marks.empty() ? m_rect.adjusted(-3, -3, 3, 3) : m_rect.adjusted(-4, -9, 4, 4);
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

void GraphNodeItem::setMarks(const NodeMarks &marks)
{
    if (m_marks == marks)
        return;
    if (m_marks.empty() != marks.empty())
        prepareGeometryChange();
    m_marks = marks;
    QString tip = m_toolTip;
    if (marks.milliseconds >= 0) {
        tip += QStringLiteral("\nexecuted: %1 ms").arg(marks.milliseconds, 0, 'f', 3);
        if (marks.deviceMilliseconds >= 0 && marks.deviceMilliseconds != marks.milliseconds)
            tip += QStringLiteral(" (device %1 ms)").arg(marks.deviceMilliseconds, 0, 'f', 3);
    }
    if (marks.current)
        tip += QStringLiteral("\nthe debugger is paused here");
    if (marks.error)
        tip += QStringLiteral("\nthis op failed");
    if (marks.nonFinite)
        tip += QStringLiteral("\nproduced NaN or Inf");
    if (marks.breakpoint)
        tip += marks.breakpointDisabled ? QStringLiteral("\nbreakpoint (disabled)")
                                        : QStringLiteral("\nbreakpoint");
    setToolTip(tip);
    update();
}

void GraphNodeItem::paintMarks(QPainter *painter, qreal lod) const
{
    if (m_marks.empty())
        return;
    painter->save();
    painter->setBrush(Qt::NoBrush);
    const qreal radius = qMin<qreal>(6, m_rect.height() / 4);
    auto frame = [&](const QColor &color, qreal width, qreal inset) {
        QPen pen(color, width);
        pen.setCosmetic(lod < 1);
        painter->setPen(pen);
        painter->drawRoundedRect(
            m_rect.adjusted(-inset, -inset, inset, inset), radius + inset, radius + inset);
    };
    if (m_marks.nonFinite)
        frame(QColor(0xf0, 0x8c, 0x00), 2.5, 1.5);
    if (m_marks.error)
        frame(QColor(0xd0, 0x1f, 0x1f), 3, 1.5);
    if (m_marks.current) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0x2e, 0xa0, 0x43, 40));
        painter->drawRoundedRect(m_rect, radius, radius);
        painter->setBrush(Qt::NoBrush);
        frame(QColor(0x1f, 0x8a, 0x3a), 3, 1.5);
    }
    if (m_marks.breakpoint) {
        const qreal r = qMin<qreal>(4.5, m_rect.height() / 3);
        const QPointF centre(m_rect.left() + r + 3, m_rect.top() + r + 3);
        painter->setPen(QPen(QColor(0x9a, 0x12, 0x12), 1));
        painter->setBrush(m_marks.breakpointDisabled ? QBrush(Qt::white) : QBrush(QColor(0xe5, 0x1c, 0x1c)));
        painter->drawEllipse(centre, r, r);
    }
    if (m_marks.milliseconds >= 0 && lod >= kTextLod) {
        QFont small = m_font;
        small.setPointSizeF(qMax<qreal>(5, m_font.pointSizeF() * 0.7));
        const QString text = m_marks.milliseconds >= 100
            ? QStringLiteral("%1 ms").arg(m_marks.milliseconds, 0, 'f', 0)
            : QStringLiteral("%1 ms").arg(m_marks.milliseconds, 0, 'g', 3);
        const QFontMetricsF metrics(small);
        const qreal w = metrics.horizontalAdvance(text) + 6;
        const qreal h = metrics.height();
        const QRectF badge(m_rect.right() - w - 4, m_rect.top() - h / 2 - 1, w, h);
        painter->setPen(QPen(QColor(0x55, 0x5f, 0x6d), 0.6));
        painter->setBrush(QColor(0xff, 0xfb, 0xe6));
        painter->drawRoundedRect(badge, h / 2, h / 2);
        painter->setFont(small);
        painter->setPen(QColor(0x33, 0x33, 0x33));
        painter->drawText(badge, Qt::AlignCenter | Qt::TextSingleLine, text);
    }
    painter->restore();
}

void GraphNodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool selected = option->state & QStyle::State_Selected;
    QColor outline = selected ? QColor(0x1f, 0x5f, 0xd0)
        : m_highlighted       ? QColor(0xe0, 0x6c, 0x00)
                              : QColor(0x55, 0x5f, 0x6d);
    if (lod < kFlatLod) {
        QColor flat = selected || m_highlighted ? outline : m_fill;
        if (m_marks.current || m_marks.error || m_marks.breakpoint)
            flat = m_marks.current ? QColor(0x1f, 0x8a, 0x3a) : QColor(0xd0, 0x1f, 0x1f);
        painter->fillRect(m_rect, flat);
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
    paintMarks(painter, lod);
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
