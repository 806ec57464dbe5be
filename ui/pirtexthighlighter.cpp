#include "ui/pirtexthighlighter.h"

#include "ui/common/themecolors.h"

#include <QFont>
#include <QPalette>

namespace ps {

namespace {

bool isIdChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

/// The index after the string that opens at `quote`, escapes skipped.
int skipString(const QString &text, int quote)
{
    int i = quote + 1;
    while (i < text.size() && text[i] != QLatin1Char('"'))
        i += text[i] == QLatin1Char('\\') ? 2 : 1;
    return std::min(int(text.size()), i + 1);
}

void add(QList<QTextLayout::FormatRange> &out, int start, int length, const QTextCharFormat &format)
{
    if (length > 0)
        out.append(QTextLayout::FormatRange { start, length, format });
}

} // namespace

PirTextHighlighter::PirTextHighlighter(const QPalette &palette)
{
    setPalette(palette);
}

void PirTextHighlighter::setPalette(const QPalette &palette)
{
    // Atom's One Light / One Dark hues: readable on Base in either theme.
    const bool dark = ThemeColors::isDark(palette);
    m_opName = QTextCharFormat();
    m_opName.setForeground(dark ? QColor(0x61, 0xaf, 0xef) : QColor(0x1f, 0x5f, 0xd0));
    m_opName.setFontWeight(QFont::Bold);
    m_value = QTextCharFormat();
    m_value.setForeground(dark ? QColor(0xd7, 0x9a, 0xe6) : QColor(0x9a, 0x22, 0x98));
    m_type = QTextCharFormat();
    m_type.setForeground(dark ? QColor(0x56, 0xc2, 0xb0) : QColor(0x0b, 0x75, 0x68));
    m_attribute = QTextCharFormat();
    m_attribute.setForeground(ThemeColors::of(palette).mutedText);
    m_string = QTextCharFormat();
    m_string.setForeground(dark ? QColor(0xe5, 0xc0, 0x7b) : QColor(0x98, 0x68, 0x01));
}

int PirTextHighlighter::attributes(const QString &text, int open, QList<QTextLayout::FormatRange> &out) const
{
    int depth = 0;
    bool keyExpected = true;
    int i = open;
    while (i < text.size()) {
        const QChar c = text[i];
        if (c == QLatin1Char('"')) {
            const int end = skipString(text, i);
            add(out, i, end - i, m_string);
            i = end;
            keyExpected = false;
            continue;
        }
        if (c == QLatin1Char('{') || c == QLatin1Char('[') || c == QLatin1Char('(')) {
            ++depth;
            keyExpected = depth == 1;
        } else if (c == QLatin1Char('}') || c == QLatin1Char(']') || c == QLatin1Char(')')) {
            if (--depth == 0)
                return i + 1;
        } else if (c == QLatin1Char(',')) {
            keyExpected = depth == 1;
        } else if (keyExpected && depth == 1 && isIdChar(c)) {
            int end = i;
            while (end < text.size() && isIdChar(text[end]))
                ++end;
            if (end < text.size() && text[end] == QLatin1Char(':'))
                add(out, i, end - i, m_attribute);
            keyExpected = false;
            i = end;
            continue;
        }
        ++i;
    }
    return i;
}

QList<QTextLayout::FormatRange> PirTextHighlighter::formats(const QString &text) const
{
    QList<QTextLayout::FormatRange> out;
    // `(%1, %2) = "pd_op.name" (operands) {attributes} : (types) -> types`
    const int eq = text.indexOf(QLatin1String(") = "));
    if (eq >= 0) {
        const int nameStart = eq + 4;
        int i = nameStart;
        if (i < text.size() && text[i] == QLatin1Char('"'))
            i = skipString(text, i);
        else
            while (i < text.size() && text[i] != QLatin1Char(' '))
                ++i;
        add(out, nameStart, i - nameStart, m_opName);
        // The operand list, then the attribute dictionary (a while's body brace has no keys).
        int depth = 0;
        for (; i < text.size(); ++i) {
            if (text[i] == QLatin1Char('('))
                ++depth;
            else if (text[i] == QLatin1Char(')'))
                --depth;
            else if (text[i] == QLatin1Char('{') && depth == 0)
                break;
        }
        if (i < text.size())
            i = attributes(text, i, out);
        // The types: everything after the dictionary but a region's opening brace.
        int typesEnd = int(text.size());
        while (typesEnd > i
            && (text[typesEnd - 1] == QLatin1Char('{') || text[typesEnd - 1] == QLatin1Char(' ')))
            --typesEnd;
        add(out, i, typesEnd - i, m_type);
    }
    // Value ids wherever they are (results, operands, block arguments).
    for (int i = text.indexOf(QLatin1Char('%')); i >= 0; i = text.indexOf(QLatin1Char('%'), i)) {
        int end = i + 1;
        while (end < text.size() && isIdChar(text[end]))
            ++end;
        if (end > i + 1)
            add(out, i, end - i, m_value);
        i = end;
    }
    return out;
}

} // namespace ps
