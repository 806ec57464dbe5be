#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/themecolors.h"
#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debuggertoolbar.h"
#include "ui/debugger/debugsession.h"
#include "ui/focusmode.h"
#include "ui/graphminimap.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/helpmenu.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowpasses.h"
#include "ui/opfilterproxymodel.h"
#include "ui/oplistmodel.h"
#include "ui/oplistpanel.h"
#include "ui/passdiffview.h"
#include "ui/passtimelinemodel.h"
#include "ui/passview.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"
#include "ui/propertiesmodel.h"
#include "ui/shortcutsheet.h"
#include "ui/splitview.h"
#include "ui/startpage.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

using namespace ps;

namespace {

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
const QString kExampleText = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.txt");
const QString kMlpBundle = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce");

bool openAndLayOut(MainWindow &w, const QString &path)
{
    QSignalSpy finished(w.graphView(), &GraphView::layoutFinished);
    if (!w.openFile(path))
        return false;
    return finished.count() > 0 || finished.wait(60000);
}

/// The window with the bundled example open and the debugger paused at its first op (the
/// debugger dock open), resized to `size`.
bool openDebugging(MainWindow &w, const QSize &size)
{
    w.resize(size);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w) || !openAndLayOut(w, kExample))
        return false;
    DebugSession *session = w.debugger()->session();
    session->stepOver();
    QElapsedTimer t;
    t.start();
    while (session->state() != DebugSession::State::Paused && t.elapsed() < 60000)
        QTest::qWait(5);
    QTest::qWait(50); // the dock's resize is posted
    return session->state() == DebugSession::State::Paused && w.debugger()->dock()->isVisible();
}

/// Every toolbar shows all its actions: none went into the » overflow menu.
void verifyToolbarsComplete(MainWindow &w)
{
    for (QToolBar *bar : w.findChildren<QToolBar *>()) {
        if (!bar->isVisible())
            continue;
        for (QAction *a : bar->actions()) {
            if (!a->isVisible() || a->isSeparator())
                continue;
            QWidget *widget = bar->widgetForAction(a);
            QVERIFY2(widget && widget->isVisible(),
                qPrintable(
                    QStringLiteral("%1: \"%2\" is in the overflow").arg(bar->objectName(), a->text())));
        }
        for (QToolButton *b : bar->findChildren<QToolButton *>(QStringLiteral("qt_toolbar_ext_button")))
            QVERIFY2(!b->isVisible(), qPrintable(bar->objectName() + QStringLiteral(" overflows")));
    }
}

} // namespace

/// The main window fits small screens (1280x720, and 960x600: 1920x1200 at 2x scale) with the
/// debugger open; the split view's panes follow their graphs; the start page, Help menu, Ops
/// filter, column widths and the dark palette.
class TestWindowLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowlayout"));
        QSettings().clear();
    }

    void fitsSmallScreens_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<QSize>("minimumGraph");
        QTest::newRow("1280x720") << QSize(1280, 720) << QSize(600, 260);
        QTest::newRow("1920x1200 at 2x") << QSize(960, 600) << QSize(400, 180);
    }

    /// With the debugger open, the window's minimum size fits the screen, no toolbar control is
    /// in the overflow (the sources button stays visible) and the graph keeps a usable area.
    void fitsSmallScreens()
    {
        QFETCH(QSize, screen);
        QFETCH(QSize, minimumGraph);
        MainWindow w;
        QVERIFY(openDebugging(w, screen));
        const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
        if (qEnvironmentVariableIsSet("PIRSCOPE_LAYOUT_DEBUG")) {
            for (QDockWidget *d : w.findChildren<QDockWidget *>())
                if (d->isVisible())
                    qDebug() << d->objectName() << d->minimumSizeHint() << d->widget()->minimumSizeHint()
                             << d->geometry();
            for (QToolBar *b : w.findChildren<QToolBar *>()) {
                qDebug() << b->objectName() << b->minimumSizeHint() << b->sizeHint() << b->geometry();
                for (QWidget *c : b->findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
                    qDebug() << "   " << c->metaObject()->className() << c->objectName() << c->isVisible()
                             << c->geometry() << c->minimumSizeHint() << c->sizeHint();
            }
            qDebug() << "central" << w.centralWidget()->minimumSizeHint() << "menu" << w.menuBar()->sizeHint()
                     << "status" << w.statusBar()->minimumSizeHint();
            std::function<void(QWidget *, int)> dump = [&](QWidget *x, int depth) {
                if (depth > 9 || (depth > 0 && x->isHidden()))
                    return;
                if (x->minimumSizeHint().height() > 25)
                    qDebug().noquote() << QString(depth * 2, ' ') << x->metaObject()->className()
                                       << x->objectName() << x->minimumSizeHint() << x->minimumSize();
                for (QWidget *c : x->findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
                    dump(c, depth + 1);
            };
            dump(w.debugger()->dock(), 0);
            dump(w.centralWidget()->findChild<QWidget *>(QStringLiteral("passesTab")), 0);
        }
        QVERIFY2(minimum.width() <= screen.width() && minimum.height() <= screen.height(),
            qPrintable(QStringLiteral("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
        QCOMPARE(w.size(), screen);
        verifyToolbarsComplete(w);
        QVERIFY(w.debugger()->toolBar()->sourcesButton()->isVisible());
        const QSize graph = w.graphView()->viewport()->size();
        QVERIFY2(graph.width() >= minimumGraph.width() && graph.height() >= minimumGraph.height(),
            qPrintable(QStringLiteral("graph %1x%2").arg(graph.width()).arg(graph.height())));
    }

    /// Infer mode shows the forward graph alone (with the notice above); train mode gives each
    /// graph a width in proportion to it and the cut its columns' width.
    /// At 1280x720 the pass timeline shows eight steps with every column and the numerics
    /// switch; focus mode gives the diff the whole window and gives everything back.
    void passesRoomAndFocusMode()
    {
        QSettings().remove(QStringLiteral("passView/timelineHeight"));
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(kExample));
        w.showTab(MainWindow::Tab::Passes);
        PassView *view = w.passes()->view();
        QVERIFY(QTest::qWaitFor([&] { return view->model()->rowCount() > 0; }, 60000));
        const int gpu = view->pipelineBox()->findData(QStringLiteral("inference-gpu"));
        QVERIFY(gpu > 0);
        view->pipelineBox()->setCurrentIndex(gpu);
        emit view->pipelineBox()->activated(gpu);
        QVERIFY(QTest::qWaitFor(
            [&] { return view->model()->rowCount() >= 16 && view->shownStep() >= 0; }, 60000));
        QTest::qWait(50);
        QTableView *table = view->table();
        const int rowHeight = table->verticalHeader()->defaultSectionSize();
        QVERIFY2(table->viewport()->height() >= PassView::kInitialRows * rowHeight,
            qPrintable(QString::number(table->viewport()->height())));
        int columns = 0;
        for (int c = 0; c < view->model()->columnCount(); ++c)
            columns += table->horizontalHeader()->sectionSize(c);
        QVERIFY2(columns <= table->viewport()->width(), qPrintable(QString::number(columns)));
        QVERIFY(!view->numericsBox()->isHidden());
        const QRect box(view->numericsBox()->mapTo(&w, QPoint(0, 0)), view->numericsBox()->size());
        QVERIFY2(w.rect().contains(box), qPrintable(QStringLiteral("%1,%2").arg(box.right()).arg(w.width())));
        // The diff keeps at least half of the tab.
        QVERIFY(view->tabs()->height() >= view->height() / 3);

        // Focus mode: docks and toolbars hidden, the timeline down to its slider; the diff grows.
        GraphView *diff = view->graphDiff()->graphView();
        const QSize before = diff->size();
        QList<QDockWidget *> docks;
        for (QDockWidget *d : w.findChildren<QDockWidget *>())
            if (d->isVisible())
                docks << d;
        QVERIFY(!docks.isEmpty());
        QStringList docksBefore;
        for (QDockWidget *d : docks)
            docksBefore << d->objectName()
                    + (d->visibleRegion().isEmpty() ? QString() : QStringLiteral(" front"));
        docksBefore.sort();
        QVERIFY(docksBefore.join(QLatin1Char(',')).contains(QStringLiteral("opsDock front")));
        w.focusMode()->action()->trigger();
        QTest::qWait(50);
        for (QDockWidget *d : docks)
            QVERIFY(!d->isVisible());
        for (QToolBar *b : w.findChildren<QToolBar *>())
            QVERIFY(!b->isVisible());
        QVERIFY(!view->isTimelineShown() && view->slider()->isVisible());
        QVERIFY2(diff->width() > before.width() + 300 && diff->height() > before.height() + 150,
            qPrintable(QStringLiteral("%1x%2").arg(diff->width()).arg(diff->height())));
        w.focusMode()->action()->trigger();
        QTest::qWait(50);
        // The same docks as before, the same ones in front (a tabbed group's tab kept).
        QStringList after;
        for (QDockWidget *d : w.findChildren<QDockWidget *>())
            if (d->isVisible())
                after << d->objectName()
                        + (d->visibleRegion().isEmpty() ? QString() : QStringLiteral(" front"));
        after.sort();
        QCOMPARE(after, docksBefore);
        QVERIFY(view->isTimelineShown() && table->isVisible());
        QVERIFY(table->viewport()->height() >= PassView::kInitialRows * rowHeight);
    }

    /// The minimap is a share of its pane: a narrow pane gets a narrow minimap.
    void minimapScalesWithItsPane()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kExample));
        GraphView *view = w.graphView();
        view->zoomBy(GraphView::kReadableZoom * 2 / view->zoom());
        QTRY_VERIFY(view->minimap()->isVisible());
        QVERIFY(view->minimap()->width() <= view->viewport()->width() * GraphMinimap::kPaneShare + 3);
        QVERIFY(view->minimap()->height() <= view->viewport()->height() * GraphMinimap::kPaneShare + 3);
        const int tall = view->minimap()->height();
        w.resize(1280, 480);
        QTRY_VERIFY(view->minimap()->height() < tall);
        QVERIFY(view->minimap()->height() <= view->viewport()->height() * GraphMinimap::kPaneShare + 3);
    }

    /// The inspector's ⤢ gives the debugger dock the whole window, and back.
    void inspectorMaximises()
    {
        MainWindow w;
        QVERIFY(openDebugging(w, QSize(1280, 720)));
        QDockWidget *dock = w.debugger()->dock();
        TensorInspector *inspector = w.debugger()->panel()->inspector();
        const int before = inspector->height();
        inspector->maximizeButton()->click();
        QTest::qWait(50);
        QVERIFY(dock->isVisible() && !w.centralWidget()->isVisible());
        QVERIFY2(inspector->height() > w.height() * 3 / 4 && inspector->height() > before,
            qPrintable(QString::number(inspector->height())));
        inspector->maximizeButton()->click();
        QTest::qWait(50);
        QVERIFY(w.centralWidget()->isVisible() && dock->isVisible());
        // Leaving focus mode from the View menu unchecks ⤢.
        inspector->maximizeButton()->click();
        w.focusMode()->setOn(false);
        QVERIFY(!inspector->maximizeButton()->isChecked());
        QVERIFY(w.centralWidget()->isVisible());
    }

    void splitPanesFollowTheirGraphs()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kMlpBundle));
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, 60000);
        SplitView *split = w.splitView();
        QSignalSpy laidOut(split, &SplitView::layoutsFinished);
        w.setTraining(false);
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() && !w.snapshot()->training, 60000);
        w.showTab(MainWindow::Tab::Split);
        QTRY_VERIFY_WITH_TIMEOUT(!split->isLayoutPending() && laidOut.count() > 0, 60000);
        QVERIFY(split->backwardPane()->isHidden());
        QVERIFY(split->cutPane()->isHidden());
        QVERIFY(split->noticeLabel()->isVisible());
        // The splitter gives the panes their widths in a queued layout pass after the graphs.
        QTRY_VERIFY(split->forwardPane()->width() > split->width() * 9 / 10);

        laidOut.clear();
        w.setTraining(true);
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() && w.snapshot()->training, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!split->isLayoutPending() && laidOut.count() > 0, 60000);
        QVERIFY(split->backwardPane()->isVisible());
        QVERIFY(split->cutPane()->isVisible());
        QVERIFY(split->noticeLabel()->isHidden());
        // Neither small graph is clipped left or right: each is in view whole or at a legible
        // zoom from its left edge.
        for (GraphView *view : { split->forwardView(), split->backwardView() }) {
            const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
            const QRectF graph = view->graphScene()->graphBounds();
            QVERIFY2(visible.left() <= graph.left() + 1,
                qPrintable(QStringLiteral("%1: the left of the graph is cut off: view %2,%3 %4x%5 graph "
                                          "%6,%7 %8x%9 zoom %10 viewport %11")
                               .arg(view->objectName())
                               .arg(visible.left())
                               .arg(visible.top())
                               .arg(visible.width())
                               .arg(visible.height())
                               .arg(graph.left())
                               .arg(graph.top())
                               .arg(graph.width())
                               .arg(graph.height())
                               .arg(view->zoom())
                               .arg(view->viewport()->width())));
        }
        // The cut is as wide as its columns (or a third of the view).
        QTableView *cut = split->cutView();
        int columns = 0;
        for (int c = 0; c < cut->model()->columnCount() - 1; ++c)
            columns += cut->horizontalHeader()->sectionSize(c);
        QVERIFY(split->cutPane()->width() >= std::min(columns, split->width() / 3) - 4);
    }

    void startPage()
    {
        QSettings().setValue(
            QStringLiteral("recentFiles"), QStringList { kExampleText, QStringLiteral("/nowhere/x.json") });
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        StartPage *page = w.startPage();
        QVERIFY(w.isStartPageShown());
        QVERIFY(page->isVisible());
        QVERIFY(page->openButton()->isVisible());
        QVERIFY(page->bundleButton()->isVisible());
        QCOMPARE(page->recentList()->count(), 2);
        QVERIFY(page->recentList()->item(0)->flags() & Qt::ItemIsEnabled);
        QVERIFY(!(page->recentList()->item(1)->flags() & Qt::ItemIsEnabled)); // gone
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("startDropHint"))
                    ->text()
                    .contains(QStringLiteral("drop")));
        QSignalSpy example(page, &StartPage::exampleRequested);
        page->exampleButton()->click();
        QCOMPARE(example.count(), 1);

        // A recent file opens with a click; the page gives way to the graph.
        QSignalSpy finished(w.graphView(), &GraphView::layoutFinished);
        QListWidget *recent = page->recentList();
        QTest::mouseClick(
            recent->viewport(), Qt::LeftButton, {}, recent->visualItemRect(recent->item(0)).center());
        QVERIFY(w.document());
        QCOMPARE(w.document()->path(), kExampleText);
        QVERIFY(!w.isStartPageShown());
        QVERIFY(w.graphView()->isVisible());
    }

    void helpMenu()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QList<QAction *> menus = w.menuBar()->actions();
        QCOMPARE(menus.last()->text(), QStringLiteral("&Help"));
        HelpMenu *help = w.helpMenu();
        QCOMPARE(help->shortcutsAction()->shortcut(), QKeySequence(QKeySequence::HelpContents));
        const QString sheet = ShortcutSheet::html(&w);
        for (const char *text : { "Continue", "F5", "Step Over", "F10", "Run to Cursor", "Toggle Breakpoint",
                 "Open", "ghost", "+N", "?x16" })
            QVERIFY2(sheet.contains(QLatin1String(text)), text);
        help->shortcutsAction()->trigger();
        auto *dialog = w.findChild<ShortcutSheet *>();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(dialog->browser()->toPlainText().contains(QStringLiteral("Step Into")));
        dialog->close();
        QVERIFY(HelpMenu::aboutText().contains(QStringLiteral("PIRScope")));
        QVERIFY(HelpMenu::aboutText().contains(QString::fromLatin1(qVersion())));
    }

    /// The Ops filter: hides the parameters by default (a switch shows them), says when nothing
    /// matches, and is reset when another file opens.
    void opsFilter()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openAndLayOut(w, kExample));
        OpListPanel *ops = w.opListPanel();
        const int all = ops->model()->rowCount();
        QCOMPARE(ops->model()->parameterCount(), 16);
        QVERIFY(!ops->parametersShown());
        QCOMPARE(ops->proxy()->rowCount(), all - 16);
        QVERIFY(ops->parametersButton()->isVisible());
        QVERIFY(ops->parametersButton()->text().contains(QStringLiteral("16")));
        ops->parametersButton()->click();
        QCOMPARE(ops->proxy()->rowCount(), all);
        ops->parametersButton()->click();

        QTest::keyClicks(ops->searchField(), QStringLiteral("no_such_op"));
        QCOMPARE(ops->proxy()->rowCount(), 0);
        QVERIFY(ops->emptyHint()->isVisible());
        QVERIFY(ops->emptyHint()->text().contains(QStringLiteral("no_such_op")));
        QTest::keyClick(ops->searchField(), Qt::Key_Escape);
        QVERIFY(ops->searchField()->text().isEmpty());
        QVERIFY(ops->emptyHint()->isHidden());

        QTest::keyClicks(ops->searchField(), QStringLiteral("conv2d"));
        QCOMPARE(ops->proxy()->rowCount(), 2);
        QVERIFY(openAndLayOut(w, kExampleText));
        QVERIFY(ops->searchField()->text().isEmpty());
        QCOMPARE(ops->proxy()->rowCount(), all - 16);
    }

    /// Columns fit their contents (within a cap) and groups open expanded.
    void columnsAndGroups()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openAndLayOut(w, kExample));
        const Operation *conv = w.document()->program().block().op(17);
        w.selectOp(conv);
        QTreeView *props = w.propertiesView();
        for (int row = 0; row < w.propertiesModel()->rowCount(); ++row)
            QVERIFY(props->isExpanded(w.propertiesModel()->index(row, 0)));
        const QString key = QStringLiteral("padding_algorithm");
        QVERIFY(props->header()->sectionSize(0) >= props->fontMetrics().horizontalAdvance(key));
        // Dynamic dims read "?".
        const QModelIndex results = w.propertiesModel()->index(3, 0);
        QCOMPARE(results.data().toString(), QStringLiteral("Results"));
        QVERIFY(w.propertiesModel()
                    ->index(0, 1, results)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("tensor<?x6x")));
        // Values are read from their start; ids and names keep both ends.
        QCOMPARE(props->textElideMode(), Qt::ElideRight);
        QCOMPARE(w.opListPanel()->view()->textElideMode(), Qt::ElideMiddle);
    }

    /// View ▸ Pass Changes names F8 / Shift+F8 and brings the Passes tab to the front.
    void passChangesInTheViewMenu()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openAndLayOut(w, kExample));
        QMenu *changes = w.menuBar()->findChild<QMenu *>(QStringLiteral("passChangesMenu"));
        QVERIFY(changes);
        QCOMPARE(changes->actions().size(), 2);
        QVERIFY(changes->actions()[0]->text().endsWith(QStringLiteral("\tF8")));
        QVERIFY(changes->actions()[1]->text().endsWith(QStringLiteral("\tShift+F8")));
        QCOMPARE(w.currentTab(), MainWindow::Tab::Program);
        changes->actions()[0]->trigger();
        QCOMPARE(w.currentTab(), MainWindow::Tab::Passes);
    }

    /// --dark: the graph, the status colours and the inspector follow the palette.
    void darkPalette()
    {
        const QPalette light = QApplication::palette();
        QVERIFY(!ThemeColors::isDark(light));
        QApplication::setPalette(ThemeColors::darkPalette());
        {
            MainWindow w;
            w.resize(1280, 720);
            w.show();
            QVERIFY(openAndLayOut(w, kExample));
            const GraphStyle &style = w.graphView()->graphScene()->style();
            QVERIFY(style.isDark());
            QVERIFY(style.background().lightness() < 80);
            QVERIFY(style.textColor().lightness() > 160);
            QVERIFY(style.nodeFill(NodeKind::Compute, false).lightness() < 120);
            QCOMPARE(w.graphView()->graphScene()->backgroundBrush().color(), style.background());
            QVERIFY(ThemeColors::current().dark);
        }
        QApplication::setPalette(light);
        QVERIFY(!ThemeColors::current().dark);
    }
};

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
