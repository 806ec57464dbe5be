#include "ui/helpmenu.h"

#include "ui/shortcutsheet.h"

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

namespace ps {

HelpMenu::HelpMenu(QMainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_menu(window->menuBar()->addMenu(tr("&Help")))
{
    m_menu->setObjectName(QStringLiteral("helpMenu"));
    m_shortcuts = m_menu->addAction(tr("&Keyboard Shortcuts and Legend"), this, &HelpMenu::showShortcuts);
    m_shortcuts->setShortcut(QKeySequence::HelpContents);
    m_shortcuts->setStatusTip(tr("Every key of PIRScope and what the graph's colours and marks mean"));
    m_menu->addSeparator();
    m_about = m_menu->addAction(tr("&About PIRScope"), this, &HelpMenu::showAbout);
    m_about->setMenuRole(QAction::AboutRole);
}

QString HelpMenu::aboutText()
{
    const QString version = QApplication::applicationVersion();
    return tr("<h3>PIRScope %1</h3>"
              "<p>A debugger for PaddlePaddle PIR programs: the graph of a traced program, the "
              "dy2static pipeline (backward, forward \u2702 backward split, passes) and an "
              "interpreter that runs it op by op with every tensor open to inspection.</p>"
              "<p>Qt %2 \u00b7 Graphviz %3</p>")
        .arg(version.isEmpty() ? tr("(development build)") : version, QString::fromLatin1(qVersion()),
            QStringLiteral(PIRSCOPE_GRAPHVIZ_VERSION));
}

void HelpMenu::showShortcuts()
{
    auto *sheet = m_window->findChild<ShortcutSheet *>();
    if (!sheet) {
        sheet = new ShortcutSheet(m_window, m_window);
        sheet->setAttribute(Qt::WA_DeleteOnClose);
    }
    sheet->show();
    sheet->raise();
}

void HelpMenu::showAbout()
{
    QMessageBox::about(m_window, tr("About PIRScope"), aboutText());
}

} // namespace ps
