#include "ui/render/graphstyle.h"

#include <QFontMetricsF>
#include <QGuiApplication>
#include <QLineF>
#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace ps {

namespace {

/// Text never grows past this many pixels on screen when enlarged for a far zoom.
constexpr qreal kFittedTextPixels = 12;

QColor colorOf(std::string_view hex)
{
    return QColor(QString::fromLatin1(hex.data(), qsizetype(hex.size())));
}

} // namespace

GraphStyle::GraphStyle(bool dark)
    : m_dark(dark)
{
    m_nodeFont = QGuiApplication::font();
    m_nodeFont.setPixelSize(11);
    m_ghostFont = m_nodeFont;
    m_ghostFont.setPixelSize(9);
    m_edgeFont = m_nodeFont;
    m_edgeFont.setPixelSize(9);
    m_groupFont = m_nodeFont;
    m_groupFont.setPixelSize(12);
    m_groupFont.setBold(true);
}

GraphStyle GraphStyle::forPalette(const QPalette &palette)
{
    return GraphStyle(palette.color(QPalette::Window).lightnessF() < 0.5);
}

QSizeF GraphStyle::nodeSize(const GraphNode &node) const
{
    const QFont &font = node.ghost ? m_ghostFont : m_nodeFont;
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

QString GraphStyle::groupDetail(const LayerGroup &group)
{
    return group.ops == 1 ? QStringLiteral("1 op") : QStringLiteral("%1 ops").arg(group.ops);
}

QSizeF GraphStyle::collapsedGroupSize(const LayerGroup &group) const
{
    const QFontMetricsF title(m_groupFont);
    const QFontMetricsF detail(m_nodeFont);
    const qreal width = qMax(title.horizontalAdvance(QString::fromStdString(group.label)),
        detail.horizontalAdvance(groupDetail(group)));
    return QSizeF(qMax<qreal>(width + 28, 110), title.lineSpacing() + detail.lineSpacing() + 14);
}

qreal GraphStyle::frameTitleHeight() const
{
    return QFontMetricsF(m_groupFont).lineSpacing() + 8;
}

QSizeF GraphStyle::frameSize(const QSizeF &content, const LayerGroup &group) const
{
    const QString title
        = QString::fromStdString(group.label) + QStringLiteral("  \u00b7  ") + groupDetail(group);
    const qreal titleWidth = QFontMetricsF(m_groupFont).horizontalAdvance(title) + 36; // toggle and margins
    return QSizeF(std::max(content.width() + 24, titleWidth), content.height() + frameTitleHeight() + 12);
}

QPointF GraphStyle::frameContentOffset() const
{
    return QPointF(12, frameTitleHeight() + 4);
}

QRectF GraphStyle::frameToggleRect(const QRectF &frame) const
{
    const qreal h = frameTitleHeight();
    return QRectF(frame.left() + 5, frame.top() + (h - 12) / 2, 12, 12);
}

QColor GraphStyle::background() const
{
    return m_dark ? QColor(0x1e, 0x20, 0x24) : QColor(0xfb, 0xfb, 0xfc);
}

QColor GraphStyle::nodeFill(NodeKind kind, bool ghost) const
{
    QColor c = colorOf(nodeKindFillColor(kind));
    if (m_dark)
        c.setHslF(c.hslHueF(), c.hslSaturationF() * 0.5, ghost ? 0.24 : 0.30);
    else if (ghost)
        c = c.lighter(108);
    return c;
}

QColor GraphStyle::textColor() const
{
    return m_dark ? QColor(0xe3, 0xe6, 0xea) : QColor(0x1b, 0x1f, 0x24);
}

QColor GraphStyle::edgeColor() const
{
    return m_dark ? QColor(0x8b, 0x94, 0x9e) : QColor(0x6b, 0x74, 0x80);
}

QColor GraphStyle::selectionColor() const
{
    return m_dark ? QColor(0x4d, 0x8d, 0xf7) : QColor(0x1f, 0x5f, 0xd0);
}

QColor GraphStyle::highlightColor() const
{
    return m_dark ? QColor(0xff, 0x96, 0x40) : QColor(0xe0, 0x6c, 0x00);
}

QColor GraphStyle::matchColor() const
{
    return m_dark ? QColor(0xf2, 0xc0, 0x1e) : QColor(0xc8, 0x8a, 0x00);
}

bool GraphStyle::drawFittedText(QPainter *painter, const QRectF &rect, const QString &text, QFont font,
    qreal lod, qreal maxScale, int flags, qreal overflow) const
{
    if (text.isEmpty() || rect.width() <= 0 || rect.height() <= 0 || lod <= 0)
        return false;
    const qreal pixels = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF();
    const QFontMetricsF metrics(font);
    const qreal readable = kMinTextPixels / (pixels * lod); // the smallest scale still drawn
    const qreal wanted = qMax<qreal>(1, kFittedTextPixels / (pixels * lod)); // scale for ~12 px on screen
    qreal scale = std::min({ maxScale, wanted, rect.height() / metrics.height() });
    if (scale < readable)
        return false;
    QString shown = text;
    QRectF area = rect;
    const qreal width = metrics.horizontalAdvance(text);
    if (width * scale > rect.width()) {
        if (rect.width() / width >= readable) {
            scale = rect.width() / width;
        } else {
            // Too long for the box at a readable size: it may spread past the box's sides by
            // `overflow` (a small op box at fit zoom), and is elided beyond that.
            const qreal spread = rect.width() * qMax<qreal>(1, overflow);
            if (flags & Qt::AlignHCenter)
                area = QRectF(rect.center().x() - spread / 2, rect.top(), spread, rect.height());
            else
                area.setWidth(spread);
            scale = std::clamp(spread / width, readable, scale);
            if (width * scale > spread) {
                shown = metrics.elidedText(text, Qt::ElideRight, int(spread / scale));
                if (shown.size() < 3)
                    return false;
            }
        }
    }
    font.setPixelSize(qMax(1, int(std::floor(pixels * scale))));
    painter->setFont(font);
    painter->drawText(area, flags | Qt::TextSingleLine, shown);
    return true;
}

QColor GraphStyle::changeColor(NodeMarks::Change change)
{
    switch (change) {
    case NodeMarks::Change::Removed:
        return QColor(0xc6, 0x28, 0x28);
    case NodeMarks::Change::Added:
        return QColor(0x2e, 0x8b, 0x3e);
    case NodeMarks::Change::Changed:
        return QColor(0xd9, 0x8a, 0x00);
    default:
        return QColor();
    }
}

QColor GraphStyle::keptColor()
{
    return QColor(0x8e, 0x44, 0xad);
}

QColor GraphStyle::timeShareColor(float share)
{
    if (share < 0)
        return QColor();
    if (share >= kTimeShareSteps[3])
        return QColor(0xc6, 0x28, 0x28);
    if (share >= kTimeShareSteps[2])
        return QColor(0xf4, 0x6d, 0x43);
    if (share >= kTimeShareSteps[1])
        return QColor(0xfe, 0xc4, 0x4f);
    return QColor(0xff, 0xf3, 0xb0);
}

QColor GraphStyle::runtimeColor() const
{
    return m_dark ? QColor(0x7f, 0xd0, 0xff) : QColor(0x0b, 0x5c, 0xad);
}

QColor GraphStyle::accuracyColor(NodeMarks::Accuracy accuracy)
{
    switch (accuracy) {
    case NodeMarks::Accuracy::NotCompared:
        return QColor(0x9e, 0x9e, 0x9e);
    case NodeMarks::Accuracy::Agrees:
        return QColor(0x2e, 0x9d, 0x4a);
    case NodeMarks::Accuracy::Close:
        return QColor(0xe0, 0xb4, 0x00);
    case NodeMarks::Accuracy::Divergent:
        return QColor(0xd3, 0x2f, 0x2f);
    case NodeMarks::Accuracy::None:
        break;
    }
    return QColor();
}

void GraphStyle::paintMarks(
    QPainter *painter, const QRectF &rect, const NodeMarks &marks, qreal lod, bool ghost) const
{
    if (marks.empty())
        return;
    painter->save();
    painter->setBrush(Qt::NoBrush);
    const qreal radius = qMin<qreal>(6, rect.height() / 4);
    auto frame = [&](const QColor &color, qreal width, qreal inset) {
        QPen pen(color, width);
        pen.setCosmetic(lod < 1);
        painter->setPen(pen);
        painter->drawRoundedRect(rect.adjusted(-inset, -inset, inset, inset), radius + inset, radius + inset);
    };
    if (const QColor c = changeColor(marks.change); c.isValid()) {
        frame(c, ghost ? 1.5 : 2.5, ghost ? 0.5 : 1.5);
        if (!ghost && lod >= kDetailLod) {
            // A corner badge says it without colour: − removed, + added, ~ changed.
            const QString sign = marks.change == NodeMarks::Change::Removed ? QStringLiteral("\u2212")
                : marks.change == NodeMarks::Change::Added                  ? QStringLiteral("+")
                                                                            : QStringLiteral("~");
            const qreal r = qMin<qreal>(6.5, rect.height() / 3);
            const QPointF centre(rect.left() + 1, rect.top() + 1);
            painter->setPen(Qt::NoPen);
            painter->setBrush(c);
            painter->drawEllipse(centre, r, r);
            QFont badge = m_nodeFont;
            badge.setBold(true);
            badge.setPixelSize(qMax(6, int(r * 1.6)));
            painter->setFont(badge);
            painter->setPen(Qt::white);
            painter->drawText(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r), Qt::AlignCenter, sign);
            painter->setBrush(Qt::NoBrush);
        }
    }
    if (const QColor c = accuracyColor(marks.accuracy); c.isValid())
        frame(c, ghost ? 1.5 : 2.5, ghost ? 0.5 : 1.5);
    if (marks.keptBytes > 0 && !ghost) {
        // Kept for the backward: a bar along the bottom edge, as long as the share of the total.
        const qreal h = qMax<qreal>(2.5, qMin<qreal>(5, rect.height() / 6));
        const qreal w = qMax<qreal>(h, (rect.width() - 4) * qreal(std::clamp(marks.keptShare, 0.f, 1.f)));
        painter->setPen(Qt::NoPen);
        painter->setBrush(keptColor());
        painter->drawRect(QRectF(rect.left() + 2, rect.bottom() - h - 1, w, h));
        painter->setBrush(Qt::NoBrush);
    }
    if (marks.nonFinite) {
        frame(nonFiniteColor(), 2.5, 1.5);
        if (marks.timeShare >= 0 && !ghost && lod >= kDetailLod) {
            // The overlay fills the box with the time's colour: NaN/Inf also says so in words.
            QFont small = m_nodeFont;
            small.setPixelSize(8);
            small.setBold(true);
            const QString text = QStringLiteral("NaN/Inf");
            const QFontMetricsF metrics(small);
            const qreal w = metrics.horizontalAdvance(text) + 6;
            const qreal h = metrics.height();
            const QRectF badge(rect.left() + 4, rect.bottom() - h / 2 + 1, w, h);
            painter->setPen(Qt::NoPen);
            painter->setBrush(nonFiniteColor());
            painter->drawRoundedRect(badge, h / 2, h / 2);
            painter->setFont(small);
            painter->setPen(Qt::white);
            painter->drawText(badge, Qt::AlignCenter | Qt::TextSingleLine, text);
            painter->setBrush(Qt::NoBrush);
        }
    }
    if (marks.error)
        frame(QColor(0xd0, 0x1f, 0x1f), 3, 1.5);
    if (marks.current) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0x2e, 0xa0, 0x43, 40));
        painter->drawRoundedRect(rect, radius, radius);
        painter->setBrush(Qt::NoBrush);
        frame(QColor(0x1f, 0x8a, 0x3a), 3, 1.5);
    }
    if (marks.breakpoint) {
        const qreal r = qMin<qreal>(4.5, rect.height() / 3);
        const QPointF centre(rect.left() + r + 3, rect.top() + r + 3);
        painter->setPen(QPen(QColor(0x9a, 0x12, 0x12), 1));
        painter->setBrush(marks.breakpointDisabled ? QBrush(Qt::white) : QBrush(QColor(0xe5, 0x1c, 0x1c)));
        painter->drawEllipse(centre, r, r);
    }
    if (marks.milliseconds >= 0 && lod >= kDetailLod) {
        QFont small = m_nodeFont;
        small.setPixelSize(8);
        const QString text = marks.milliseconds >= 100
            ? QStringLiteral("%1 ms").arg(marks.milliseconds, 0, 'f', 0)
            : QStringLiteral("%1 ms").arg(marks.milliseconds, 0, 'g', 3);
        const QFontMetricsF metrics(small);
        const qreal w = metrics.horizontalAdvance(text) + 6;
        const qreal h = metrics.height();
        const QRectF badge(rect.right() - w - 4, rect.top() - h / 2 - 1, w, h);
        painter->setPen(QPen(QColor(0x55, 0x5f, 0x6d), 0.6));
        painter->setBrush(QColor(0xff, 0xfb, 0xe6));
        painter->drawRoundedRect(badge, h / 2, h / 2);
        painter->setFont(small);
        painter->setPen(QColor(0x33, 0x33, 0x33));
        painter->drawText(badge, Qt::AlignCenter | Qt::TextSingleLine, text);
    }
    painter->restore();
}

void GraphStyle::paintNode(QPainter *painter, const NodeVisual &n, qreal lod) const
{
    const bool emphasised = n.selected || n.highlighted || n.matched;
    const QColor outline = n.selected ? selectionColor()
        : n.highlighted               ? highlightColor()
        : n.matched                   ? matchColor()
        : m_dark                      ? QColor(0x9a, 0xa4, 0xb1)
                                      : QColor(0x55, 0x5f, 0x6d);
    const QColor fill = nodeFill(n.kind, n.ghost);
    if (lod < kFlatLod) {
        QColor flat = emphasised ? outline : fill;
        if (n.marks.current || n.marks.error || n.marks.breakpoint)
            flat = n.marks.current ? QColor(0x1f, 0x8a, 0x3a) : QColor(0xd0, 0x1f, 0x1f);
        else if (const QColor c = changeColor(n.marks.change); c.isValid())
            flat = c;
        else if (const QColor a = accuracyColor(n.marks.accuracy); a.isValid())
            flat = a;
        else if (const QColor t = timeShareColor(n.marks.timeShare); t.isValid())
            flat = t;
        painter->fillRect(n.rect, flat);
        return;
    }
    QPen pen(outline, emphasised ? 2.5 : (n.ghost ? 0.8 : 1.0));
    if (n.ghost)
        pen.setStyle(Qt::DashLine);
    pen.setCosmetic(lod < 1 && !emphasised);
    painter->setPen(pen);
    QColor tinted = fill;
    if (const QColor c = changeColor(n.marks.change); c.isValid()) {
        // Tint the kind's colour towards the change's, so both stay readable.
        tinted = QColor((fill.red() * 3 + c.red()) / 4, (fill.green() * 3 + c.green()) / 4,
            (fill.blue() * 3 + c.blue()) / 4);
    } else if (const QColor a = accuracyColor(n.marks.accuracy); a.isValid()) {
        // A run log's verdict: half the kind's colour, half the verdict's.
        tinted = QColor(
            (fill.red() + a.red()) / 2, (fill.green() + a.green()) / 2, (fill.blue() + a.blue()) / 2);
    } else if (const QColor t = timeShareColor(n.marks.timeShare); t.isValid()) {
        // The time overlay: mostly the time's colour, so that the hot ops stand out.
        tinted = QColor((fill.red() + t.red() * 3) / 4, (fill.green() + t.green() * 3) / 4,
            (fill.blue() + t.blue() * 3) / 4);
    }
    painter->setBrush(tinted);
    const qreal radius = qMin<qreal>(6, n.rect.height() / 4);
    painter->drawRoundedRect(n.rect, radius, radius);
    paintMarks(painter, n.rect, n.marks, lod, n.ghost);
    if (n.lines.isEmpty())
        return;
    // The time overlay's pale fills in the dark theme take the light theme's text colours.
    const bool lightFill = m_dark && tinted.lightness() > 150;
    const QColor text = lightFill ? QColor(0x1e, 0x1e, 0x1e) : textColor();
    painter->setPen(text);
    const QFont &font = n.ghost ? m_ghostFont : m_nodeFont;
    QFont title = font;
    title.setBold(!n.ghost);
    const qreal labelHeight = n.labelHeight > 0 ? n.labelHeight : n.rect.height();
    if (lod < kDetailLod) {
        // Far out: the title alone, enlarged into the whole label area, stays readable.
        const QRectF area(n.rect.left() + 3, n.rect.top() + 1, n.rect.width() - 6, labelHeight - 2);
        drawFittedText(painter, area, n.lines.first(), title, lod, 2.5, Qt::AlignCenter, kTitleOverflow);
        return;
    }
    const qreal lineHeight = QFontMetricsF(font).lineSpacing();
    const qreal top = n.rect.top() + (labelHeight - lineHeight * n.lines.size()) / 2;
    QRectF line(n.rect.left() + 2, top, n.rect.width() - 4, lineHeight);
    for (int i = 0; i < n.lines.size(); ++i) {
        if (i == n.runtimeLine) {
            // The box was laid out for the program's type: a longer runtime shape is shrunk.
            QFont fitted = font;
            fitted.setItalic(true);
            const qreal width = QFontMetricsF(fitted).horizontalAdvance(n.lines[i]);
            if (width > line.width() && width > 0 && fitted.pixelSize() > 0)
                fitted.setPixelSize(qMax(5, int(std::floor(fitted.pixelSize() * line.width() / width))));
            painter->setFont(fitted);
            painter->setPen(lightFill ? QColor(0x0b, 0x5c, 0xad) : runtimeColor());
            painter->drawText(line, Qt::AlignCenter | Qt::TextSingleLine, n.lines[i]);
            painter->setPen(text);
        } else {
            painter->setFont(i == 0 ? title : font);
            painter->drawText(line, Qt::AlignCenter | Qt::TextSingleLine, n.lines[i]);
        }
        line.translate(0, lineHeight);
    }
}

void GraphStyle::paintGroup(QPainter *painter, const GroupVisual &g, qreal lod) const
{
    const QColor border = g.selected ? selectionColor()
        : g.highlighted              ? highlightColor()
        : g.matched                  ? matchColor()
        : m_dark                     ? QColor(0x7d, 0x8a, 0x9c)
                                     : QColor(0x8a, 0x97, 0xaa);
    const bool emphasised = g.selected || g.highlighted || g.matched;
    const QColor box = g.kind == LayerGroupKind::Backward
        ? (m_dark ? QColor(0x3a, 0x2a, 0x2c) : QColor(0xfb, 0xea, 0xe9))
        : g.kind == LayerGroupKind::Unused ? (m_dark ? QColor(0x2e, 0x2e, 0x2e) : QColor(0xee, 0xee, 0xee))
        : m_dark                           ? QColor(0x2a, 0x31, 0x3d)
                                           : QColor(0xe7, 0xed, 0xf6);
    const NodeMarks &m = g.marks;
    const int changes = m.removedInside + m.addedInside + m.changedInside;
    // A closed layer a pass changed: the colour of what it did, amber when it did several things.
    const QColor changed = changes == 0 ? QColor()
        : m.removedInside == changes    ? changeColor(NodeMarks::Change::Removed)
        : m.addedInside == changes      ? changeColor(NodeMarks::Change::Added)
                                        : changeColor(NodeMarks::Change::Changed);
    // The time overlay: a closed layer in the colour of its ops' summed share of the run.
    const QColor time = timeShareColor(m.timeShare);
    if (!g.expanded) {
        if (lod < kFlatLod) {
            painter->fillRect(g.rect,
                emphasised           ? border
                    : changes > 0    ? changed
                    : time.isValid() ? time
                                     : box.darker(m_dark ? 80 : 108));
            return;
        }
        QPen pen(border, emphasised ? 2.5 : 1.2);
        pen.setCosmetic(!emphasised);
        if (lod >= 0.3) { // a second box behind: a stack of ops
            painter->setPen(pen);
            painter->setBrush(box.darker(m_dark ? 90 : 104));
            painter->drawRoundedRect(g.rect.translated(3, 3), 7, 7);
        }
        painter->setPen(pen);
        const QColor front = time.isValid() ? QColor((box.red() + time.red() * 3) / 4,
                                 (box.green() + time.green() * 3) / 4, (box.blue() + time.blue() * 3) / 4)
                                            : box;
        const bool lightFill = m_dark && front.lightness() > 150;
        painter->setBrush(front);
        painter->drawRoundedRect(g.rect, 7, 7);
        paintMarks(painter, g.rect, g.marks, lod);
        if (changes > 0)
            paintChangeCounts(painter, g.rect, m, changed, lod);
        painter->setPen(lightFill ? QColor(0x1e, 0x1e, 0x1e) : textColor());
        if (lod < kDetailLod) {
            drawFittedText(
                painter, g.rect.adjusted(6, 3, -6, -3), g.title, m_groupFont, lod, 3, Qt::AlignCenter);
            return;
        }
        const qreal titleHeight = QFontMetricsF(m_groupFont).lineSpacing();
        const QRectF titleRect(g.rect.left() + 6, g.rect.top() + 6, g.rect.width() - 12, titleHeight);
        painter->setFont(m_groupFont);
        painter->drawText(titleRect, Qt::AlignCenter | Qt::TextSingleLine, g.title);
        painter->setFont(m_nodeFont);
        painter->setPen(m_dark && !lightFill ? QColor(0xa8, 0xb0, 0xbb) : QColor(0x5a, 0x64, 0x72));
        painter->drawText(
            titleRect.translated(0, titleHeight), Qt::AlignCenter | Qt::TextSingleLine, g.detail);
        return;
    }
    // An expanded frame: tinted by depth so that nested layers stay apart.
    QColor tint = box;
    tint.setAlpha(g.depth % 2 == 0 ? 90 : 150);
    QPen pen(border, emphasised ? 2.5 : 1.0);
    pen.setCosmetic(!emphasised);
    painter->setPen(pen);
    painter->setBrush(tint);
    painter->drawRoundedRect(g.rect, 9, 9);
    if (lod < kFlatLod * 2.5) { // an overview: the layer's name across the whole frame
        QColor watermark = textColor();
        watermark.setAlpha(110);
        painter->setPen(watermark);
        drawFittedText(
            painter, g.rect.adjusted(8, 8, -8, -8), g.title, m_groupFont, lod, 60, Qt::AlignCenter);
        return;
    }
    const QRectF toggle = frameToggleRect(g.rect);
    painter->setPen(QPen(border, 1.2));
    painter->setBrush(Qt::NoBrush);
    painter->drawLine(
        QLineF(toggle.left() + 3, toggle.center().y(), toggle.right() - 3, toggle.center().y()));
    painter->drawRoundedRect(toggle, 2, 2);
    painter->setPen(textColor());
    const QRectF title(
        toggle.right() + 6, g.rect.top(), g.rect.width() - toggle.width() - 16, frameTitleHeight());
    // Up to the band's height further out; the title alone where the detail would not fit.
    const qreal maxScale = lod < kDetailLod ? 3 : 1;
    const QString text = g.title + QStringLiteral("  \u00b7  ") + g.detail;
    const qreal readable = kMinTextPixels / (m_groupFont.pixelSize() * lod);
    const bool withDetail = QFontMetricsF(m_groupFont).horizontalAdvance(text) * readable <= title.width();
    drawFittedText(painter, title, withDetail ? text : g.title, m_groupFont, lod, maxScale,
        Qt::AlignLeft | Qt::AlignVCenter);
}

void GraphStyle::paintChangeCounts(
    QPainter *painter, const QRectF &rect, const NodeMarks &marks, const QColor &frame, qreal lod) const
{
    painter->save();
    QPen pen(frame, 2.5);
    pen.setCosmetic(lod < 1);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(rect.adjusted(-1.5, -1.5, 1.5, 1.5), 8.5, 8.5);
    // "−86 +43 ~2" on a pill astride the top edge, each count on its own colour.
    struct Part
    {
        int count;
        QString sign;
        NodeMarks::Change change;
    };
    const Part parts[3] = { { marks.removedInside, QStringLiteral("\u2212"), NodeMarks::Change::Removed },
        { marks.addedInside, QStringLiteral("+"), NodeMarks::Change::Added },
        { marks.changedInside, QStringLiteral("~"), NodeMarks::Change::Changed } };
    QFont font = m_nodeFont;
    font.setBold(true);
    const QFontMetricsF fm(font);
    // Far out the pill grows so that it stays as big on screen as a label would be.
    const qreal scale = lod < kDetailLod ? qMin<qreal>(kDetailLod / qMax<qreal>(lod, 0.01), 3) : 1;
    const qreal h = (fm.height() + 2) * scale;
    const qreal pad = 4 * scale;
    qreal x = rect.right() - 4;
    painter->setFont(font);
    for (int k = 2; k >= 0; --k) {
        if (parts[k].count == 0)
            continue;
        const QString text = parts[k].sign + QString::number(parts[k].count);
        const qreal w = fm.horizontalAdvance(text) * scale + 2 * pad;
        const QRectF pill(x - w, rect.top() - h / 2, w, h);
        x -= w + 2;
        painter->setPen(Qt::NoPen);
        painter->setBrush(changeColor(parts[k].change));
        painter->drawRoundedRect(pill, h / 2, h / 2);
        painter->setPen(Qt::white);
        painter->save();
        painter->translate(pill.center());
        painter->scale(scale, scale);
        painter->drawText(QRectF(-pill.width() / 2 / scale, -pill.height() / 2 / scale, pill.width() / scale,
                              pill.height() / scale),
            Qt::AlignCenter, text);
        painter->restore();
    }
    painter->restore();
}

void GraphStyle::paintEdge(QPainter *painter, const EdgeVisual &e, qreal lod) const
{
    const QColor color = e.highlighted ? highlightColor() : edgeColor();
    QPen pen(color, e.highlighted ? 2.5 : 1.0);
    pen.setCosmetic(!e.highlighted);
    if (e.dashed)
        pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(e.path);
    if (lod >= kArrowLod && !e.arrow.isEmpty()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawPolygon(e.arrow);
    }
    if (lod >= kEdgeLabelLod && !e.labelRect.isNull()) {
        painter->setPen(Qt::NoPen);
        QColor back = background();
        back.setAlpha(210);
        painter->setBrush(back);
        painter->drawRect(e.labelRect);
        painter->setPen(e.highlighted ? color
                : e.runtime           ? runtimeColor()
                : m_dark              ? QColor(0xb8, 0xc0, 0xca)
                                      : QColor(0x44, 0x4b, 0x55));
        QFont font = m_edgeFont;
        font.setItalic(e.runtime);
        painter->setFont(font);
        painter->drawText(e.labelRect, Qt::AlignCenter | Qt::TextSingleLine, e.label);
    }
}

void GraphStyle::paintCluster(QPainter *painter, const QRectF &rect, const QString &label, qreal lod) const
{
    QPen pen(m_dark ? QColor(0xc0, 0x9a, 0x5a) : QColor(0x8a, 0x6d, 0x3b), 1.2, Qt::DashLine);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(m_dark ? QColor(0x3a, 0x33, 0x26, 150) : QColor(0xff, 0xf7, 0xe6, 150));
    painter->drawRoundedRect(rect, 8, 8);
    painter->setPen(m_dark ? QColor(0xe0, 0xc0, 0x90) : QColor(0x6a, 0x4d, 0x1b));
    drawFittedText(
        painter, rect.adjusted(8, 4, -8, -4), label, m_nodeFont, lod, 2, Qt::AlignTop | Qt::AlignHCenter);
}

QPolygonF GraphStyle::arrowHead(const QPointF &base, const QPointF &tip)
{
    QPolygonF arrow;
    const QLineF axis(tip, base);
    if (axis.length() <= 0.01)
        return arrow;
    QLineF normal = axis.normalVector();
    normal.setLength(axis.length() * 0.35);
    const QPointF side = normal.p2() - normal.p1();
    arrow << tip << base + side << base - side;
    return arrow;
}

QRectF GraphStyle::edgeLabelRect(const QPainterPath &path, const QString &label) const
{
    if (label.isEmpty() || path.isEmpty())
        return QRectF();
    const QFontMetricsF metrics(m_edgeFont);
    const QPointF mid = path.pointAtPercent(0.5);
    return QRectF(
        mid.x() + 3, mid.y() - metrics.height() / 2, metrics.horizontalAdvance(label) + 4, metrics.height());
}

} // namespace ps
