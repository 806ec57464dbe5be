#include "ui/passtextdiffview.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>

namespace ps {

namespace {

/// Colours a unified op diff by each line's two-character prefix.
class DiffHighlighter : public QSyntaxHighlighter
{
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;

protected:
    void highlightBlock(const QString &text) override
    {
        QTextCharFormat f;
        if (text.startsWith(QLatin1String("- "))) {
            f.setBackground(QColor(0xfd, 0xe2, 0xe2));
            f.setForeground(QColor(0x8b, 0x11, 0x11));
        } else if (text.startsWith(QLatin1String("+ "))) {
            f.setBackground(QColor(0xdd, 0xf4, 0xdd));
            f.setForeground(QColor(0x14, 0x5a, 0x1e));
        } else if (text.startsWith(QLatin1String("~"))) {
            f.setBackground(QColor(0xfd, 0xf0, 0xc8));
            f.setForeground(QColor(0x6b, 0x4a, 0x00));
        } else if (text.startsWith(QLatin1String("  ..."))) {
            f.setForeground(QColor(0x88, 0x88, 0x88));
        } else {
            return;
        }
        setFormat(0, int(text.size()), f);
    }
};

} // namespace

PassTextDiffView::PassTextDiffView(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
    , m_changesOnly(new QCheckBox(tr("Changes only"), this))
{
    setObjectName(QStringLiteral("passTextDiffView"));
    m_editor->setObjectName(QStringLiteral("passTextDiff"));
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    new DiffHighlighter(m_editor->document());
    m_changesOnly->setObjectName(QStringLiteral("changesOnly"));
    m_changesOnly->setToolTip(tr("Show only the changed ops and three ops around each"));
    m_changesOnly->setChecked(true);
    connect(m_changesOnly, &QCheckBox::toggled, this, [this] { refresh(); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_changesOnly);
    layout->addWidget(m_editor, 1);
}

void PassTextDiffView::setLines(std::shared_ptr<const std::vector<TextDiffLine>> lines)
{
    m_lines = std::move(lines);
    refresh();
}

void PassTextDiffView::showMessage(const QString &message)
{
    m_lines.reset();
    m_editor->setPlainText(message);
}

void PassTextDiffView::setChangesOnly(bool on)
{
    m_changesOnly->setChecked(on);
}

bool PassTextDiffView::changesOnly() const
{
    return m_changesOnly->isChecked();
}

QString PassTextDiffView::text() const
{
    return m_editor->toPlainText();
}

int PassTextDiffView::goToChange(int step)
{
    QTextDocument *doc = m_editor->document();
    const int n = doc->blockCount();
    const auto changed = [doc](int line) {
        const QString text = doc->findBlockByNumber(line).text();
        return text.startsWith(QLatin1String("- ")) || text.startsWith(QLatin1String("+ "))
            || text.startsWith(QLatin1String("~-"));
    };
    const int from = m_editor->textCursor().blockNumber();
    // One stop per op: a changed op's two lines (~- then ~+) count once, at the first.
    for (int k = 1; k <= n; ++k) {
        const int line = ((from + step * k) % n + n) % n;
        if (!changed(line))
            continue;
        QTextCursor cursor(doc->findBlockByNumber(line));
        m_editor->setTextCursor(cursor);
        m_editor->centerCursor();
        return line;
    }
    return -1;
}

void PassTextDiffView::refresh()
{
    if (!m_lines)
        return;
    const bool changed = std::any_of(
        m_lines->begin(), m_lines->end(), [](const TextDiffLine &l) { return l.kind != OpChange::Kept; });
    if (!changed && m_changesOnly->isChecked()) {
        m_editor->setPlainText(tr("(the pass changed nothing)"));
        return;
    }
    const std::string text = ProgramTextDiff::unified(*m_lines, m_changesOnly->isChecked() ? 3 : -1);
    m_editor->setPlainText(text.empty() ? tr("(the pass changed nothing)") : QString::fromStdString(text));
}

} // namespace ps
