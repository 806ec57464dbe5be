#pragma once

#include <QObject>

class QAction;
class QMainWindow;
class QMenu;

namespace ps {

/// The Help menu of the main window: "Keyboard Shortcuts and Legend" (F1, a ShortcutSheet) and
/// "About PIRScope" (version, Qt and Graphviz versions, what the program is).
class HelpMenu : public QObject
{
    Q_OBJECT

public:
    /// Adds the menu to `window`'s menu bar (call it after the other menus: it goes last).
    explicit HelpMenu(QMainWindow *window);

    QMenu *menu() const { return m_menu; }
    QAction *shortcutsAction() const { return m_shortcuts; }
    QAction *aboutAction() const { return m_about; }
    /// The About box's text (HTML).
    static QString aboutText();

public slots:
    void showShortcuts();
    void showAbout();

private:
    QMainWindow *m_window;
    QMenu *m_menu;
    QAction *m_shortcuts;
    QAction *m_about;
};

} // namespace ps
