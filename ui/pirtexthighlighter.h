#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QPalette;

namespace ps {

/// Colours PIR text as PirPrinter writes it: op names, value ids (`%3`, `%arg_0`), attribute
/// names and string values, and the types after ` : ` / ` -> `. The colours follow a palette
/// (setPalette; lighter hues on a dark one). A hand-written scan of each line, no regular
/// expressions: O(line) per line.
class PirTextHighlighter : public QSyntaxHighlighter
{
public:
    PirTextHighlighter(QTextDocument *document, const QPalette &palette);

    /// Picks the colours for `palette` and colours the text again.
    void setPalette(const QPalette &palette);

    const QTextCharFormat &opNameFormat() const { return m_opName; }
    const QTextCharFormat &valueFormat() const { return m_value; }
    const QTextCharFormat &typeFormat() const { return m_type; }
    const QTextCharFormat &attributeFormat() const { return m_attribute; }

protected:
    void highlightBlock(const QString &text) override;

private:
    /// Colours the attribute dictionary starting at `open` (a `{`); returns the index after its `}`.
    int attributes(const QString &text, int open);

    QTextCharFormat m_opName;
    QTextCharFormat m_value;
    QTextCharFormat m_type;
    QTextCharFormat m_attribute;
    QTextCharFormat m_string;
};

} // namespace ps
