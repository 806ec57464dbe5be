#pragma once

#include <QList>
#include <QTextCharFormat>
#include <QTextLayout>

class QPalette;

namespace ps {

/// Colours PIR text as PirPrinter writes it: op names, value ids (`%3`, `%arg_0`), attribute
/// names and string values, and the types after ` : ` / ` -> `. The colours follow a palette
/// (lighter hues on a dark one). A hand-written scan of one line, no regular expressions:
/// O(line). PirTextView colours only the lines it shows, so a large program opens at once.
class PirTextHighlighter
{
public:
    explicit PirTextHighlighter(const QPalette &palette);

    /// Picks the colours for `palette`.
    void setPalette(const QPalette &palette);
    /// The formats of `line`, later ranges over earlier ones (value ids over the types).
    QList<QTextLayout::FormatRange> formats(const QString &line) const;

    const QTextCharFormat &opNameFormat() const { return m_opName; }
    const QTextCharFormat &valueFormat() const { return m_value; }
    const QTextCharFormat &typeFormat() const { return m_type; }
    const QTextCharFormat &attributeFormat() const { return m_attribute; }

private:
    /// Colours the attribute dictionary starting at `open` (a `{`); returns the index after its `}`.
    int attributes(const QString &text, int open, QList<QTextLayout::FormatRange> &out) const;

    QTextCharFormat m_opName;
    QTextCharFormat m_value;
    QTextCharFormat m_type;
    QTextCharFormat m_attribute;
    QTextCharFormat m_string;
};

} // namespace ps
