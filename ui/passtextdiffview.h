#pragma once

#include "core/analysis/programtextdiff.h"

#include <QWidget>
#include <memory>
#include <vector>

class QCheckBox;
class QPlainTextEdit;

namespace ps {

/// The text diff of one pass step, aligned by op (ProgramTextDiff): kept ops plain, removed
/// ops on red, added on green, a changed op as its old and new line on amber. "Changes only"
/// keeps three ops of context around each change.
class PassTextDiffView : public QWidget
{
    Q_OBJECT

public:
    explicit PassTextDiffView(QWidget *parent = nullptr);

    void setLines(std::shared_ptr<const std::vector<TextDiffLine>> lines);
    void showMessage(const QString &message);
    void setChangesOnly(bool on);
    bool changesOnly() const;
    QPlainTextEdit *editor() const { return m_editor; }
    /// The text shown.
    QString text() const;
    /// Moves the cursor to the next (`step` 1) or previous (-1) changed line (removed, added or
    /// changed), wrapping around, and shows it; F8 / Shift+F8 in the pass view. Its line number,
    /// -1 when nothing changed.
    int goToChange(int step);

private:
    void refresh();

    std::shared_ptr<const std::vector<TextDiffLine>> m_lines;
    QPlainTextEdit *m_editor;
    QCheckBox *m_changesOnly;
};

} // namespace ps
