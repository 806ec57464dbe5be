#include "ui/pirtextview.h"

#include "core/ir/pirlisting.h"
#include "ui/common/themecolors.h"
#include "ui/pirtexthighlighter.h"

#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScopedValueRollback>
#include <QTextBlock>
#include <QVBoxLayout>

namespace ps {

PirTextView::PirTextView(QWidget *parent)
    : QWidget(parent)
    , m_program(new QComboBox(this))
    , m_editor(new QPlainTextEdit(this))
    , m_find(new QLineEdit(this))
    , m_findStatus(new QLabel(this))
{
    setObjectName(QStringLiteral("pirTextView"));
    m_program->setObjectName(QStringLiteral("pirTextProgram"));
    // A narrow dock keeps its width: the chooser does not ask for its longest item's.
    m_program->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_program->setMinimumContentsLength(8);
    m_editor->setObjectName(QStringLiteral("pirTextEditor"));
    m_editor->setReadOnly(true);
    m_editor->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setUndoRedoEnabled(false);
    m_editor->setCenterOnScroll(false);
    m_editor->viewport()->installEventFilter(this);
    m_highlighter = std::make_unique<PirTextHighlighter>(palette());
    connect(m_editor, &QPlainTextEdit::cursorPositionChanged, this, &PirTextView::onCursorMoved);

    m_find->setObjectName(QStringLiteral("pirTextFind"));
    m_find->setPlaceholderText(tr("Find in the text (Enter, Shift+Enter; Esc closes)"));
    m_find->setClearButtonEnabled(true);
    m_find->installEventFilter(this);
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(false); });
    m_findStatus->setObjectName(QStringLiteral("pirTextFindStatus"));
    auto *findRow = new QHBoxLayout;
    findRow->setContentsMargins(4, 0, 4, 0);
    findRow->addWidget(m_find, 1);
    findRow->addWidget(m_findStatus);
    m_find->hide();
    m_findStatus->hide();

    auto *label = new QLabel(tr("Program:"), this);
    auto *header = new QHBoxLayout;
    header->setContentsMargins(4, 2, 4, 0);
    header->addWidget(label);
    header->addWidget(m_program, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addLayout(findRow);
    layout->addWidget(m_editor, 1);
}

PirTextView::~PirTextView() = default;

void PirTextView::setListing(std::shared_ptr<const PirListing> listing)
{
    if (listing == m_listing)
        return;
    m_listing = std::move(listing);
    m_marked.clear();
    m_markedOp = nullptr;
    const QScopedValueRollback following(m_following, true);
    m_editor->setExtraSelections({});
    m_editor->setPlainText(m_listing ? QString::fromStdString(m_listing->text()) : QString());
    m_coloured.assign(size_t(m_listing ? m_editor->document()->blockCount() : 0), 0);
    updateSelections();
}

void PirTextView::showMessage(const QString &message)
{
    setListing(nullptr);
    const QScopedValueRollback following(m_following, true);
    m_editor->setPlainText(message);
    m_coloured.clear();
}

bool PirTextView::isLineColoured(int line) const
{
    return line >= 0 && size_t(line) < m_coloured.size() && m_coloured[size_t(line)];
}

void PirTextView::colourVisibleLines()
{
    if (m_coloured.empty())
        return;
    QTextDocument *document = m_editor->document();
    const int bottom = m_editor->viewport()->height();
    for (QTextBlock block = m_editor->cursorForPosition(QPoint(0, 0)).block(); block.isValid();
         block = block.next()) {
        const size_t line = size_t(block.blockNumber());
        if (line < m_coloured.size() && !m_coloured[line]) {
            m_coloured[line] = 1;
            // As QSyntaxHighlighter does: the layout's formats, the block laid out again.
            block.layout()->setFormats(m_highlighter->formats(block.text()));
            document->markContentsDirty(block.position(), block.length());
        }
        if (m_editor->cursorRect(QTextCursor(block)).top() > bottom)
            break;
    }
}

void PirTextView::uncolourLines()
{
    QTextDocument *document = m_editor->document();
    for (size_t line = 0; line < m_coloured.size(); ++line) {
        if (!m_coloured[line])
            continue;
        m_coloured[line] = 0;
        const QTextBlock block = document->findBlockByNumber(int(line));
        block.layout()->clearFormats();
        document->markContentsDirty(block.position(), block.length());
    }
    m_editor->viewport()->update();
}

int PirTextView::currentLine() const
{
    return m_listing ? m_editor->textCursor().blockNumber() : -1;
}

int PirTextView::firstVisibleLine() const
{
    return m_editor->cursorForPosition(QPoint(0, 0)).blockNumber();
}

bool PirTextView::isLineVisible(int line) const
{
    return isLineVisible(line, 0);
}

bool PirTextView::isLineVisible(int line, int margin) const
{
    const QTextBlock block = m_editor->document()->findBlockByNumber(line);
    if (!block.isValid())
        return false;
    QTextCursor cursor(block);
    const QRect rect = m_editor->cursorRect(cursor);
    const QRect inside = m_editor->viewport()->rect().adjusted(0, margin, 0, -margin);
    return inside.contains(QRect(inside.left(), rect.top(), 1, rect.height()));
}

void PirTextView::showOp(const Operation *op)
{
    const PirListing::Lines lines = m_listing && op ? m_listing->linesOf(op) : PirListing::Lines {};
    if (!lines.valid()) {
        clearMarks();
        return;
    }
    std::vector<int> rest;
    for (int line = lines.first + 1; line <= lines.last; ++line)
        rest.push_back(line);
    applyMarks(op, lines.first, rest);
    moveTo(lines.first);
}

void PirTextView::showValue(Value value, const Operation *at)
{
    if (!m_listing || !value) {
        clearMarks();
        return;
    }
    const int def = m_listing->definitionLine(value);
    std::vector<int> uses = m_listing->useLines(value);
    if (def < 0 && uses.empty()) {
        clearMarks();
        return;
    }
    applyMarks(nullptr, def, uses);
    const int atLine = at ? m_listing->linesOf(at).first : -1;
    moveTo(atLine >= 0 ? atLine : def >= 0 ? def : uses.front());
}

void PirTextView::clearMarks()
{
    m_marked.clear();
    m_markedOp = nullptr;
    updateSelections();
}

void PirTextView::setCurrentOp(const Operation *op)
{
    if (op == m_currentOp)
        return;
    m_currentOp = op;
    updateSelections();
}

int PirTextView::currentOpLine() const
{
    return m_listing && m_currentOp ? m_listing->linesOf(m_currentOp).first : -1;
}

void PirTextView::applyMarks(const Operation *op, int strong, const std::vector<int> &light)
{
    m_markedOp = op;
    m_marked.clear();
    if (strong >= 0)
        m_marked.push_back(strong);
    m_marked.insert(m_marked.end(), light.begin(), light.end());
    updateSelections();
}

void PirTextView::updateSelections()
{
    const ThemeColors &theme = ThemeColors::of(palette());
    const QColor base = palette().color(QPalette::Base);
    QList<QTextEdit::ExtraSelection> selections;
    const auto mark = [&](int first, int last, const QColor &hue, double weight) {
        const QTextBlock from = m_editor->document()->findBlockByNumber(first);
        const QTextBlock to = m_editor->document()->findBlockByNumber(last);
        if (!from.isValid() || !to.isValid())
            return;
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(from);
        s.cursor.setPosition(to.position() + to.length() - 1, QTextCursor::KeepAnchor);
        s.format.setBackground(ThemeColors::mix(hue, base, weight));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        selections << s;
    };
    // The debugger's op first: the selection's marks paint over it.
    if (const int line = currentOpLine(); line >= 0)
        mark(line, line, theme.success, 0.3);
    if (!m_marked.empty()) {
        const int strong = m_marked.front();
        const QColor hue = m_markedOp ? theme.selection : theme.accent;
        // An op's other lines (its regions) are one range; a value's uses one line each.
        if (m_markedOp && m_marked.size() > 1)
            mark(m_marked[1], m_marked.back(), hue, 0.1);
        else
            for (size_t i = 1; i < m_marked.size(); ++i)
                if (m_marked[i] != strong)
                    mark(m_marked[i], m_marked[i], hue, 0.16);
        mark(strong, strong, hue, m_markedOp ? 0.32 : 0.3);
    }
    m_editor->setExtraSelections(selections);
}

void PirTextView::moveTo(int line)
{
    const QTextBlock block = m_editor->document()->findBlockByNumber(line);
    if (!block.isValid())
        return;
    const QScopedValueRollback following(m_following, true);
    QTextCursor cursor(block);
    m_editor->setTextCursor(cursor);
    if (!isLineVisible(line, m_editor->fontMetrics().height() * 2))
        m_editor->centerCursor();
    // A cursor moved to before the dock had its size is centred once it has it (eventFilter).
    m_scrollPending = !m_editor->viewport()->isVisible();
}

Value PirTextView::valueAtCursor() const
{
    const QTextCursor cursor = m_editor->textCursor();
    const QString text = cursor.block().text();
    int start = cursor.positionInBlock();
    const auto idChar = [](QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); };
    while (start > 0 && idChar(text[start - 1]))
        --start;
    if (start == 0 || text[start - 1] != QLatin1Char('%'))
        return Value();
    int end = start;
    while (end < text.size() && idChar(text[end]))
        ++end;
    return m_listing->numbering().lookup(text.mid(start - 1, end - start + 1).toStdString());
}

void PirTextView::onCursorMoved()
{
    if (m_following || !m_listing || m_editor->textCursor().hasSelection())
        return;
    const int line = m_editor->textCursor().blockNumber();
    const Operation *op = m_listing->opAt(line);
    if (m_pressing) {
        if (const Value v = valueAtCursor()) {
            emit valuePicked(v, op);
            return;
        }
    }
    if (op)
        emit opPicked(op);
}

void PirTextView::openFind()
{
    m_find->show();
    m_findStatus->show();
    m_find->setFocus(Qt::ShortcutFocusReason);
    m_find->selectAll();
}

bool PirTextView::findNext(bool backward)
{
    const QString text = m_find->text();
    if (text.isEmpty() || !m_listing)
        return false;
    QTextDocument *document = m_editor->document();
    const QTextDocument::FindFlags flags
        = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    QTextCursor match = document->find(text, m_editor->textCursor(), flags);
    if (match.isNull()) { // wrap around
        QTextCursor from(document);
        if (backward)
            from.movePosition(QTextCursor::End);
        match = document->find(text, from, flags);
    }
    m_findStatus->setText(match.isNull() ? tr("No match") : QString());
    if (match.isNull())
        return false;
    // The op is selected everywhere (which moves the cursor to its line); the match stays selected.
    if (const Operation *op = m_listing->opAt(match.blockNumber()))
        emit opPicked(op);
    const QScopedValueRollback following(m_following, true);
    m_editor->setTextCursor(match);
    return true;
}

bool PirTextView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_find && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape) {
            m_find->hide();
            m_findStatus->hide();
            m_editor->setFocus(Qt::OtherFocusReason);
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && key->modifiers() & Qt::ShiftModifier) {
            findNext(true);
            return true;
        }
    }
    if (watched == m_editor->viewport()) {
        if (event->type() == QEvent::Paint)
            colourVisibleLines();
        if ((event->type() == QEvent::Resize || event->type() == QEvent::Show) && m_scrollPending
            && m_editor->viewport()->isVisible()) {
            m_scrollPending = false;
            m_editor->centerCursor();
        }
        if (event->type() == QEvent::MouseButtonPress)
            m_pressing = true;
        else if (event->type() == QEvent::MouseButtonRelease)
            m_pressing = false;
    }
    return QWidget::eventFilter(watched, event);
}

void PirTextView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        m_highlighter->setPalette(palette());
        uncolourLines();
    }
    QWidget::changeEvent(event);
}

} // namespace ps
