#pragma once

#include <QDialog>

class QTextBrowser;

namespace ps {

/// Help ▸ Keyboard Shortcuts and Legend: every menu action of `window` that has a shortcut,
/// grouped by menu (read from the menus, so it never goes stale), the keys and mouse gestures of
/// the graph and the lists, and a legend of what the graph draws (node colours by kind, ghosts,
/// "+N", dashed edges, the debugger's marks).
class ShortcutSheet : public QDialog
{
    Q_OBJECT

public:
    explicit ShortcutSheet(QWidget *window, QWidget *parent = nullptr);

    /// The sheet as HTML (what the dialog shows).
    static QString html(QWidget *window);
    QTextBrowser *browser() const { return m_browser; }

private:
    QTextBrowser *m_browser;
};

} // namespace ps
