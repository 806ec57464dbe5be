#include "ui/common/themecolors.h"

#include <QApplication>

namespace ps {

QColor ThemeColors::mix(const QColor &a, const QColor &b, double t)
{
    const auto channel = [t](double x, double y) { return int(x * t + y * (1 - t) + 0.5); };
    return QColor(channel(a.red(), b.red()), channel(a.green(), b.green()), channel(a.blue(), b.blue()));
}

bool ThemeColors::isDark(const QPalette &palette)
{
    return palette.color(QPalette::WindowText).lightness() > palette.color(QPalette::Window).lightness();
}

const ThemeColors &ThemeColors::current()
{
    // Models ask for colours in data(): recompute only when the palette changed. UI thread only.
    static ThemeColors colors;
    static qint64 key = -1;
    const QPalette palette = QApplication::palette();
    if (palette.cacheKey() != key) {
        colors = of(palette);
        key = palette.cacheKey();
    }
    return colors;
}

ThemeColors ThemeColors::of(const QPalette &palette)
{
    ThemeColors c;
    c.dark = isDark(palette);
    const QColor base = palette.color(QPalette::Base);
    c.background = c.dark ? base : mix(base, palette.color(QPalette::Window), 0.7);
    c.text = palette.color(QPalette::Text);
    c.mutedText = mix(c.text, base, 0.55);
    c.outline = mix(c.text, base, 0.6);
    c.selection = palette.color(QPalette::Highlight);
    if (c.dark)
        c.selection = c.selection.lighter(140);
    // Fixed hues, as strong as the background allows.
    const auto strong = [&c](QColor hue) { return c.dark ? hue.lighter(150) : hue; };
    c.accent = strong(QColor(0xe0, 0x6c, 0x00));
    c.error = strong(QColor(0xc0, 0x18, 0x2a));
    c.warning = strong(QColor(0xb8, 0x6e, 0x00));
    c.success = strong(QColor(0x1f, 0x8a, 0x3a));
    c.edge = mix(c.text, base, 0.55);
    c.labelBackground = mix(base, c.text, 0.85);
    c.clusterBorder = mix(QColor(0x8a, 0x6d, 0x3b), c.text, 0.7);
    c.clusterFill = mix(QColor(0xff, 0xe0, 0xa0), base, c.dark ? 0.12 : 0.3);
    const double tint = c.dark ? 0.3 : 0.2;
    c.errorBackground = mix(QColor(0xf0, 0x40, 0x40), base, tint);
    c.warningBackground = mix(QColor(0xff, 0xa5, 0x00), base, tint);
    c.successBackground = mix(QColor(0x40, 0xc0, 0x60), base, tint);
    c.noticeBackground = mix(QColor(0xff, 0xc8, 0x30), base, tint);
    for (size_t k = 0; k < c.kindFills.size(); ++k) {
        const std::string_view hex = nodeKindFillColor(NodeKind(k));
        const QColor fill(QString::fromLatin1(hex.data(), qsizetype(hex.size())));
        c.kindFills[k] = c.dark ? mix(fill, c.background, 0.32) : fill;
    }
    return c;
}

QPalette ThemeColors::darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x80, 0x84, 0x8a), highlight(0x35, 0x74, 0xd0);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x3c, 0x3f, 0x44));
    p.setColor(QPalette::Midlight, QColor(0x34, 0x37, 0x3b));
    p.setColor(QPalette::Mid, QColor(0x24, 0x26, 0x29));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0d));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace ps
