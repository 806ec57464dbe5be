#include "ui/debugger/debugsession.h"
#include "ui/dockcollapser.h"
#include "ui/docktitlebar.h"
#include "ui/graphview.h"
#include "ui/launchoptions.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowpirtext.h"
#include "ui/shortcutsheet.h"

#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QToolButton>
#include <QtTest>

using namespace ps;

namespace {

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");

QDockWidget *dockNamed(MainWindow &w, const char *name)
{
    return w.findChild<QDockWidget *>(QString::fromLatin1(name));
}

DockTitleBar *titleBar(QDockWidget *dock)
{
    return qobject_cast<DockTitleBar *>(dock->titleBarWidget());
}

/// Lets the main window's layout take a fold in (resizeDocks after an unfold is posted).
void settle()
{
    QTest::qWait(60);
}

bool showWindow(MainWindow &w, const QSize &size = QSize(1280, 720))
{
    w.resize(size);
    w.show();
    return QTest::qWaitForWindowExposed(&w) && w.openFile(kExample);
}

} // namespace

/// Issue 23 part 2, "docks that collapse": a panel folds to its title (its button, a
/// double-click, View ▸ Collapse Panels, --collapse) and the graph or its neighbours take the room;
/// unfolding gives the size back; the folds are saved with the window.
class TestDockCollapser : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_dockcollapser"));
        QSettings().clear();
    }

    /// Every dock has the title bar with the button, float and close as before.
    void everyDockHasTheTitleBar()
    {
        MainWindow w;
        for (QDockWidget *dock : w.findChildren<QDockWidget *>()) {
            DockTitleBar *bar = titleBar(dock);
            QVERIFY2(bar, qPrintable(dock->objectName()));
            QVERIFY(bar->collapseButton());
            QVERIFY(bar->findChild<QToolButton *>(QStringLiteral("dockCloseButton")));
        }
        // Help ▸ Keyboard Shortcuts lists the action and the title's gestures.
        const QString sheet = ShortcutSheet::html(&w);
        QVERIFY(sheet.contains(QStringLiteral("Collapse Panels")));
        QVERIFY(sheet.contains(QStringLiteral("fold a panel to its title")));
    }

    /// Properties shares the right column with Program attributes: it folds to its title's
    /// height, the attributes get the room, and it unfolds to the height it had.
    void foldsToItsTitleInAColumn()
    {
        MainWindow w;
        QVERIFY(showWindow(w));
        settle();
        QDockWidget *props = dockNamed(w, "propertiesDock");
        QDockWidget *attributes = dockNamed(w, "attributesDock");
        const int propsBefore = props->height();
        const int attributesBefore = attributes->height();
        QVERIFY(propsBefore > 150);
        QTest::mouseClick(titleBar(props)->collapseButton(), Qt::LeftButton);
        settle();
        QVERIFY(w.dockCollapser()->isCollapsed(props));
        QVERIFY(titleBar(props)->isCollapsed());
        QVERIFY2(props->height() <= titleBar(props)->sizeHint().height() + 4,
            qPrintable(QString::number(props->height())));
        QVERIFY(props->width() > 150); // still the column's width
        QVERIFY2(attributes->height() >= attributesBefore + propsBefore - 60,
            qPrintable(QStringLiteral("%1 -> %2").arg(attributesBefore).arg(attributes->height())));
        QVERIFY(props->isVisible()); // folded, not closed: its title stays at hand

        QTest::mouseDClick(titleBar(props), Qt::LeftButton, Qt::NoModifier, QPoint(60, 8));
        settle();
        QVERIFY(!w.dockCollapser()->isCollapsed(props));
        QVERIFY(!props->isFloating()); // a double-click on the title no longer floats it
        QVERIFY2(qAbs(props->height() - propsBefore) <= 24,
            qPrintable(QStringLiteral("%1 -> %2").arg(propsBefore).arg(props->height())));
    }

    /// Ops is alone in the left column (tabbed with Passes on a short screen): it folds to a strip
    /// and the graph gets the width; unfolding gives the width back.
    void foldsToAStripAtTheSide()
    {
        MainWindow w;
        QVERIFY(showWindow(w));
        settle();
        QDockWidget *ops = dockNamed(w, "opsDock");
        const int opsBefore = ops->width();
        const int graphBefore = w.centralWidget()->width();
        w.dockCollapser()->setCollapsed(ops, true);
        settle();
        QVERIFY(ops->features().testFlag(QDockWidget::DockWidgetVerticalTitleBar));
        QVERIFY2(
            ops->width() <= titleBar(ops)->sizeHint().width() + 4, qPrintable(QString::number(ops->width())));
        QVERIFY(ops->height() > 300); // the strip runs down the side
        QVERIFY2(w.centralWidget()->width() >= graphBefore + opsBefore - 80,
            qPrintable(QStringLiteral("%1 -> %2").arg(graphBefore).arg(w.centralWidget()->width())));
        QVERIFY(w.centralWidget()->geometry().left() <= 70);

        w.dockCollapser()->setCollapsed(ops, false);
        settle();
        QVERIFY(!ops->features().testFlag(QDockWidget::DockWidgetVerticalTitleBar));
        QCOMPARE(w.tabPosition(Qt::LeftDockWidgetArea), QTabWidget::South);
        QVERIFY2(qAbs(ops->width() - opsBefore) <= 24,
            qPrintable(QStringLiteral("%1 -> %2").arg(opsBefore).arg(ops->width())));
        QVERIFY2(qAbs(w.centralWidget()->width() - graphBefore) <= 24,
            qPrintable(QStringLiteral("%1 -> %2").arg(graphBefore).arg(w.centralWidget()->width())));
    }

    /// View ▸ Collapse Panels folds every docked panel shown and the graph grows both ways; again
    /// unfolds them all.
    void collapsePanelsAction()
    {
        MainWindow w;
        QVERIFY(showWindow(w));
        settle();
        const QSize graphBefore = w.graphView()->size();
        QAction *all = w.dockCollapser()->collapseAllAction();
        QCOMPARE(all->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
        all->trigger();
        settle();
        QList<QDockWidget *> shown;
        for (QDockWidget *dock : w.findChildren<QDockWidget *>())
            if (dock->isVisible() && !dock->isFloating())
                shown << dock;
        QVERIFY(!shown.isEmpty());
        for (QDockWidget *dock : shown)
            QVERIFY2(w.dockCollapser()->isCollapsed(dock), qPrintable(dock->objectName()));
        QVERIFY(all->isChecked());
        QVERIFY2(w.graphView()->width() >= graphBefore.width() + 250,
            qPrintable(QStringLiteral("%1 -> %2").arg(graphBefore.width()).arg(w.graphView()->width())));
        all->trigger();
        settle();
        for (QDockWidget *dock : shown)
            QVERIFY(!w.dockCollapser()->isCollapsed(dock));
        QVERIFY(!all->isChecked());
        QVERIFY2(qAbs(w.graphView()->width() - graphBefore.width()) <= 30,
            qPrintable(QStringLiteral("%1 -> %2").arg(graphBefore.width()).arg(w.graphView()->width())));
    }

    /// A folded dock that is floated unfolds: a window of its own keeps its size.
    void floatingUnfolds()
    {
        MainWindow w;
        QVERIFY(showWindow(w));
        settle();
        QDockWidget *props = dockNamed(w, "propertiesDock");
        w.dockCollapser()->setCollapsed(props, true);
        settle();
        props->setFloating(true);
        settle();
        QVERIFY(!w.dockCollapser()->isCollapsed(props));
        QVERIFY(props->widget()->maximumHeight() > 1000);
        QVERIFY(!titleBar(props)->collapseButton()->isEnabled());
        props->setFloating(false);
    }

    /// The folds are saved with the window's state and come back when it opens again.
    void foldsAreSaved()
    {
        QSettings().clear();
        QStringList saved;
        {
            MainWindow w;
            QVERIFY(showWindow(w));
            settle();
            w.dockCollapser()->setCollapsed(dockNamed(w, "propertiesDock"), true);
            settle();
            w.close();
            saved = QSettings().value(QStringLiteral("collapsedDocks")).toStringList();
        }
        QCOMPARE(saved.size(), 1);
        QVERIFY2(saved.first().startsWith(QStringLiteral("propertiesDock=V")), qPrintable(saved.first()));
        MainWindow again;
        QVERIFY(showWindow(again));
        settle();
        QDockWidget *props = dockNamed(again, "propertiesDock");
        QVERIFY(again.dockCollapser()->isCollapsed(props));
        QVERIFY(props->height() <= titleBar(props)->sizeHint().height() + 4);
        again.dockCollapser()->setCollapsed(props, false);
        settle();
        QVERIFY(props->height() > 150); // the size it had before the window closed
        QSettings().clear();
    }

    /// A dock opened to show something new unfolds: the PIR text's action, the debugger's dock
    /// that a step opens again.
    void openingToShowUnfolds()
    {
        MainWindow w;
        QVERIFY(showWindow(w));
        settle();
        QDockWidget *text = w.pirText()->dock();
        w.pirText()->showAction()->trigger();
        settle();
        w.dockCollapser()->setCollapsed(text, true);
        QVERIFY(w.dockCollapser()->isCollapsed(text));
        text->close();
        w.pirText()->showAction()->trigger();
        settle();
        QVERIFY(!w.dockCollapser()->isCollapsed(text));
        QVERIFY(text->widget()->height() > 100);

        QDockWidget *debugger = w.debugger()->dock();
        DebugSession *session = w.debugger()->session();
        session->stepOver();
        QVERIFY(QTest::qWaitFor([&] { return session->state() == DebugSession::State::Paused; }, 60000));
        settle();
        w.dockCollapser()->setCollapsed(debugger, true);
        QVERIFY(debugger->height() < 40);
        debugger->close(); // folded, then closed: the next step opens it unfolded
        session->stepOver();
        QVERIFY(QTest::qWaitFor([&] { return session->state() == DebugSession::State::Paused; }, 60000));
        settle();
        QVERIFY(!w.dockCollapser()->isCollapsed(debugger));
        QVERIFY2(debugger->height() > 200, qPrintable(QString::number(debugger->height())));
    }

    /// --collapse folds panels by title; an unknown title is refused with the titles there are.
    void collapseOption()
    {
        QString error;
        std::optional<LaunchOptions> o
            = LaunchOptions::parse({ QStringLiteral("pirscope"), kExample, QStringLiteral("--collapse"),
                                       QStringLiteral("ops,Properties") },
                error);
        QVERIFY2(o, qPrintable(error));
        QCOMPARE(o->collapse, QStringList({ "ops", "Properties" }));
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY2(o->applyTo(w, error), qPrintable(error));
        QVERIFY(w.dockCollapser()->isCollapsed(dockNamed(w, "opsDock")));
        QVERIFY(w.dockCollapser()->isCollapsed(dockNamed(w, "propertiesDock")));

        o = LaunchOptions::parse(
            { QStringLiteral("pirscope"), kExample, QStringLiteral("--collapse"), QStringLiteral("Opz") },
            error);
        QVERIFY(o);
        MainWindow other;
        QVERIFY(!o->applyTo(other, error));
        QVERIFY2(error.contains(QStringLiteral("no panel named \"Opz\""))
                && error.contains(QStringLiteral("Properties")),
            qPrintable(error));
    }
};

QTEST_MAIN(TestDockCollapser)
#include "tst_dockcollapser.moc"
