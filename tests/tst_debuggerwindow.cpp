#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/common/itemroles.h"
#include "ui/debugger/debuggeractions.h"
#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debuggertoolbar.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/executedopsmodel.h"
#include "ui/debugger/opvaluesmodel.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/inspector/comparepanel.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/oplistpanel.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"
#include "ui/selectionmodel.h"
#include "ui/splitview.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using namespace ps;

namespace {

using State = DebugSession::State;

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
const QString kIfBundle = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/control_flow_if");
const QString kMlpBundle = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce");

bool openAndLayOut(MainWindow &w, const QString &path)
{
    QSignalSpy finished(w.graphView(), &GraphView::layoutFinished);
    if (!w.openFile(path))
        return false;
    return finished.count() > 0 || finished.wait(60000);
}

bool waitIdle(DebugSession &s)
{
    QElapsedTimer t;
    t.start();
    while (s.state() == State::Running && t.elapsed() < 60000)
        QTest::qWait(5);
    return s.state() != State::Running;
}

/// The op the op list has selected.
const Operation *opListSelection(MainWindow &w)
{
    return opFromIndex(w.opListPanel()->view()->currentIndex());
}

} // namespace

/// The debugger in the main window: the Debug menu, toolbar and dock; F10 steps, F9 toggles a
/// breakpoint on the selected op, F5 runs to it, Shift+F5 stops; the current op is highlighted in
/// the graph and selected in the op list; the split tab debugs the pipeline, and in Train mode
/// every tab does (the Program tab's ops stand for their forward clones).
class TestDebuggerWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_debuggerwindow"));
        QSettings().clear();
    }

    void keysStepAndToggleBreakpoints()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kExample));
        MainWindowDebugger *debugger = w.debugger();
        QVERIFY(debugger);
        DebugSession *session = debugger->session();
        QCOMPARE(session->target().program.get(), &w.document()->program());
        QCOMPARE(session->sources().params, DebugSources::Kind::Pdiparams);
        QVERIFY(debugger->dock()->isHidden());
        QStringList menus;
        for (QAction *a : w.menuBar()->actions())
            menus << a->text();
        QVERIFY(menus.contains(QStringLiteral("&Debug")));
        QVERIFY(debugger->menu()->actions().contains(debugger->actions()->stepOverAction()));
        QVERIFY(debugger->menu()->actions().contains(debugger->toolBar()->sourcesAction()));

        const Program &program = w.document()->program();
        GraphScene *scene = w.graphView()->graphScene();

        // F10: starts, paused at the first op; the dock opens.
        QTest::keyClick(w.graphView(), Qt::Key_F10);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Paused);
        QCOMPARE(session->position()->toString(), std::string("0:0"));
        QVERIFY(!debugger->dock()->isHidden());
        // F10 runs through the 16 parameter loads to the data op.
        QTest::keyClick(w.graphView(), Qt::Key_F10);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->position()->toString(), std::string("0:16"));
        QCOMPARE(session->records().size(), size_t(16));

        // F9 on the selected op, F5 runs to it.
        const Operation *conv = program.block().op(17);
        QCOMPARE(conv->name(), std::string_view("pd_op.conv2d"));
        w.selectOp(conv);
        QTest::keyClick(w.graphView(), Qt::Key_F9);
        QCOMPARE(session->breakpointAt(*session->positionOf(conv)), session->breakpoints().front().id);
        QTRY_VERIFY(scene->itemForOp(conv)->marks().breakpoint);
        QVERIFY(!scene->itemForOp(conv)->marks().current);
        w.selectOp(program.block().op(3));
        QTest::keyClick(w.graphView(), Qt::Key_F5);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->lastStop().reason, StopReason::Breakpoint);
        QCOMPARE(session->currentOp(), conv);
        // The current op is highlighted in the graph and selected in the op list.
        QTRY_VERIFY(scene->itemForOp(conv)->marks().current);
        QVERIFY(scene->itemForOp(conv)->marks().breakpoint);
        QVERIFY(scene->itemForOp(conv)->isSelected());
        QCOMPARE(opListSelection(w), conv);

        QTest::keyClick(w.graphView(), Qt::Key_F10);
        QVERIFY(waitIdle(*session));
        const Operation *next = program.block().op(18);
        QCOMPARE(session->currentOp(), next);
        QTRY_VERIFY(!scene->itemForOp(conv)->marks().current);
        QVERIFY(scene->itemForOp(conv)->marks().milliseconds >= 0);
        QVERIFY(scene->itemForOp(conv)->toolTip().contains(QStringLiteral("executed:")));
        QCOMPARE(opListSelection(w), next);
        QCOMPARE(debugger->panel()->executedOpsModel()->currentRow(), int(session->records().size()));

        // F9 again on the selected conv removes the breakpoint; Shift+F5 ends the session.
        w.selectOp(conv);
        QTest::keyClick(w.graphView(), Qt::Key_F9);
        QVERIFY(session->breakpoints().empty());
        QTRY_VERIFY(!scene->itemForOp(conv)->marks().breakpoint);
        QTest::keyClick(w.graphView(), Qt::Key_F5, Qt::ShiftModifier);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::NotStarted);
        QTRY_VERIFY(scene->itemForOp(conv)->marks().empty());

        QImage shot = w.grab().toImage();
        QVERIFY(!shot.isNull());
    }

    void splitTabDebugsThePipeline()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kIfBundle));
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, 60000);
        w.setTraining(true);
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() && w.snapshot()->training, 60000);
        w.showTab(MainWindow::Tab::Split);
        DebugSession *session = w.debugger()->session();
        QTRY_VERIFY(session->target().pipeline != nullptr);
        QCOMPARE(session->segmentPrograms().size(), size_t(2));
        QCOMPARE(session->sources().inputs, DebugSources::Kind::Bundle);
        session->continueRun();
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Finished);
        // Executed forward and backward ops carry their times in the split view's graphs.
        const Operation *lastBackward = session->records().back().op;
        QCOMPARE(session->records().back().position.segment, size_t(1));
        GraphScene *backward = w.splitView()->backwardView()->graphScene();
        QTRY_VERIFY(backward->itemForOp(lastBackward) != nullptr);
        QTRY_VERIFY(backward->opMarks().count(lastBackward) == 1);
        // Back to the program tab after the session ends: Train mode still debugs the train step;
        // Infer mode debugs the origin program there.
        session->stop();
        QVERIFY(waitIdle(*session));
        w.showTab(MainWindow::Tab::Program);
        QTest::qWait(20);
        QVERIFY(session->target().pipeline != nullptr);
        w.setTraining(false);
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() && !w.snapshot()->training, 60000);
        QTRY_COMPARE(session->target().program.get(), &w.document()->program());
        QVERIFY(session->target().pipeline == nullptr);
    }

    void trainStepFromTheProgramTab()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kMlpBundle));
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, 60000);
        w.setTraining(true);
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() && w.snapshot()->training && w.snapshot()->ok(), 60000);
        QCOMPARE(w.currentTab(), MainWindow::Tab::Program);
        MainWindowDebugger *debugger = w.debugger();
        DebugSession *session = debugger->session();
        // Train mode on the Program tab: the target is the train step, forward then backward.
        QTRY_VERIFY(session->target().pipeline != nullptr);
        QCOMPARE(session->segmentPrograms().size(), size_t(2));
        QVERIFY(!session->opMap().empty());

        // F9 on the Program tab's relu sets the breakpoint on its clone in the forward, shown on
        // the Program tab's relu.
        const Program &program = w.document()->program();
        const Operation *relu = nullptr;
        const Operation *mean = nullptr;
        for (const Operation *op : program.block().ops()) {
            if (op->name() == "pd_op.relu")
                relu = op;
            if (op->name() == "pd_op.mean")
                mean = op;
        }
        QVERIFY(relu && mean);
        const Operation *reluClone = session->opMap().toSplit(relu);
        QVERIFY(reluClone && reluClone != relu);
        QCOMPARE(reluClone->parentBlock()->program(), w.snapshot()->result.forward.get());
        QCOMPARE(session->opMap().toLoaded(reluClone), relu);
        QCOMPARE(session->positionOf(relu), session->positionOf(reluClone));
        w.selectOp(relu);
        QTest::keyClick(w.graphView(), Qt::Key_F9);
        QCOMPARE(session->breakpoints().size(), size_t(1));
        QCOMPARE(session->breakpoints().front().op, reluClone);
        GraphScene *scene = w.graphView()->graphScene();
        QTRY_VERIFY(scene->itemForOp(relu)->marks().breakpoint);

        // F5 stops there: the Program tab stays, its relu is selected and current, the Values
        // list the clone's operands and results (computed ones).
        QTest::keyClick(w.graphView(), Qt::Key_F5);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->lastStop().reason, StopReason::Breakpoint);
        QCOMPARE(session->currentOp(), reluClone);
        QCOMPARE(session->position()->segment, size_t(0));
        QCOMPARE(w.currentTab(), MainWindow::Tab::Program);
        QCOMPARE(w.selection()->currentOp(), relu);
        QTRY_VERIFY(scene->itemForOp(relu)->marks().current);
        QCOMPARE(debugger->panel()->valuesModel()->op(), reluClone);

        // F5 again runs the rest of the forward and the whole backward.
        QTest::keyClick(w.graphView(), Qt::Key_F5);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Finished);
        QCOMPARE(session->records().back().position.segment, size_t(1));
        size_t backwardOps = 0;
        for (const OpRecord &r : session->records())
            backwardOps += r.position.segment == 1 ? 1 : 0;
        QVERIFY(backwardOps > 5);

        // The scalar loss (float32[]) compares with Paddle's loss .npy ([1]).
        const Value loss = session->opMap().toSplit(mean)->result(0);
        QVERIFY(!session->referenceFile(loss).isEmpty());
        QVERIFY(debugger->panel()->inspectValue(loss));
        QCOMPARE(debugger->panel()->inspector()->tensor().shape(), std::vector<int64_t> {});
        QVERIFY(debugger->panel()->compareWithReference());
        QTRY_VERIFY(!debugger->panel()->inspector()->comparePending());
        QVERIFY2(debugger->panel()->inspector()->comparison().allClose(),
            qPrintable(debugger->panel()->inspector()->comparePanel()->summaryText()));

        // Infer mode: the Program tab debugs the loaded program; the breakpoint is back on relu.
        session->stop();
        QVERIFY(waitIdle(*session));
        w.showTab(MainWindow::Tab::Program);
        w.setTraining(false);
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() && !w.snapshot()->training, 60000);
        QTRY_COMPARE(session->target().program.get(), &program);
        QVERIFY(session->opMap().empty());
        QCOMPARE(session->breakpoints().size(), size_t(1));
        QCOMPARE(session->breakpoints().front().op, relu);
        QTRY_VERIFY(scene->itemForOp(relu)->marks().breakpoint);
    }
};

QTEST_MAIN(TestDebuggerWindow)
#include "tst_debuggerwindow.moc"
