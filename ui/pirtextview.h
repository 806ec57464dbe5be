#pragma once

#include "core/ir/value.h"

#include <QWidget>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace ps {

class Operation;
class PirListing;
class PirTextHighlighter;

/// A program as PIR text (PirListing: PirPrinter's text and value ids, the ids the graph and
/// Properties show), coloured by PirTextHighlighter, read-only. Clicking a line, or moving to it
/// with the keys, picks its op (opPicked; a click on a value id picks that value); showOp() and
/// showValue() mark what is selected elsewhere and scroll to it without emitting: the op's
/// lines, or a value's defining line and the lines that use it. A "Program:" chooser above the
/// text says which program is shown; its items are the owner's (MainWindowPirText).
///
/// Showing a listing costs one QTextDocument of its text (about 0.15 s for a 20k-op program);
/// lines are coloured when first painted, the marks cost O(marked lines).
class PirTextView : public QWidget
{
    Q_OBJECT

public:
    explicit PirTextView(QWidget *parent = nullptr);
    ~PirTextView() override;

    /// Shows `listing` (null: an empty view); a listing already shown keeps its scroll position.
    void setListing(std::shared_ptr<const PirListing> listing);
    std::shared_ptr<const PirListing> listing() const { return m_listing; }
    /// A sentence instead of text (why there is no program).
    void showMessage(const QString &message);

    /// Marks `op`'s lines and scrolls to its first line (null clears the marks).
    void showOp(const Operation *op);
    /// Marks `value`'s defining line and the lines using it, scrolls to the definition (or to
    /// `at`'s line, the op it was picked at).
    void showValue(Value value, const Operation *at = nullptr);
    void clearMarks();
    /// Marks the op a debug session is stopped before (null: none), apart from the selection.
    void setCurrentOp(const Operation *op);
    const Operation *currentOp() const { return m_currentOp; }
    /// The line setCurrentOp() marks, -1 when none is.
    int currentOpLine() const;

    /// The line the cursor is on (from 0), -1 with no listing.
    int currentLine() const;
    /// The lines marked now: what showOp()/showValue() marked, strongest first.
    const std::vector<int> &markedLines() const { return m_marked; }
    /// The first line of the editor's viewport.
    int firstVisibleLine() const;
    /// Whether `line` is wholly inside the editor's viewport.
    bool isLineVisible(int line) const;

    /// Ctrl+F in the text: the find bar under the chooser, its text selected.
    void openFind();
    /// Finds the find bar's text after the cursor (before it with `backward`), wrapping around,
    /// and picks the op of the line it is on (Enter / Shift+Enter in the bar). False: no match.
    bool findNext(bool backward = false);
    QLineEdit *findBar() const { return m_find; }
    QLabel *findStatus() const { return m_findStatus; }
    QPlainTextEdit *editor() const { return m_editor; }
    QComboBox *programBox() const { return m_program; }
    PirTextHighlighter *highlighter() const { return m_highlighter.get(); }
    /// Whether `line` got its colours (it has been on screen).
    bool isLineColoured(int line) const;

signals:
    /// The user picked the op printed on a line (click or keys).
    void opPicked(const ps::Operation *op);
    /// The user clicked a value id on the line of `at`.
    void valuePicked(ps::Value value, const ps::Operation *at);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void onCursorMoved();
    /// Moves the cursor to `line` without picking, scrolling it into view when it is not.
    void moveTo(int line);
    /// Whether `line` is inside the viewport with `margin` pixels to spare above and below.
    bool isLineVisible(int line, int margin) const;
    void applyMarks(const Operation *op, int strong, const std::vector<int> &light);
    /// The editor's extra selections from the marks and the current op.
    void updateSelections();
    Value valueAtCursor() const;
    /// Colours the lines in the viewport that are not yet (before the viewport paints them).
    void colourVisibleLines();
    /// Takes every line's colours off (a new palette); they come back as lines are painted.
    void uncolourLines();

    std::shared_ptr<const PirListing> m_listing;
    QComboBox *m_program;
    QPlainTextEdit *m_editor;
    QLineEdit *m_find;
    QLabel *m_findStatus;
    std::unique_ptr<PirTextHighlighter> m_highlighter;
    std::vector<char> m_coloured; ///< per line: coloured
    std::vector<int> m_marked;
    const Operation *m_markedOp = nullptr; ///< the op whose lines are marked; null: a value's
    const Operation *m_currentOp = nullptr;
    bool m_following = false; ///< the cursor moves to show a selection: no pick
    bool m_pressing = false; ///< a mouse button is down on the text
    bool m_scrollPending = false; ///< centre the cursor once the viewport is shown
};

} // namespace ps
