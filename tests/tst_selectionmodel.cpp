#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/common/itemroles.h"
#include "ui/debugger/debuggeractions.h"
#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/executedopsmodel.h"
#include "ui/debugger/opvaluesmodel.h"
#include "ui/graphedgeitem.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/oplistpanel.h"
#include "ui/programdocument.h"
#include "ui/propertiesmodel.h"
#include "ui/selectionmodel.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QToolTip>
#include <QtTest>

using namespace ps;

namespace {

using State = DebugSession::State;
using Cause = SelectionModel::Cause;

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");

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

const Operation *opListSelection(MainWindow &w)
{
    return opFromIndex(w.opListPanel()->view()->currentIndex());
}

/// Sends a tooltip request for the scene point `scenePos` of `view` and returns the tooltip.
QString hover(GraphView *view, const QPointF &scenePos)
{
    QToolTip::hideText();
    const QPoint pos = view->mapFromScene(scenePos);
    QHelpEvent event(QEvent::ToolTip, pos, view->viewport()->mapToGlobal(pos));
    QCoreApplication::sendEvent(view->viewport(), &event);
    return QToolTip::isVisible() ? QToolTip::text() : QString();
}

} // namespace

/// One selection for every panel: the graph, the Ops list, Properties, the debugger's Executed
/// ops, Values and inspector follow it and report to it (mouse and arrow keys); hovering a value
/// shows its live statistics; after the end F5/F10/Ctrl+F10 restart; Run to Cursor takes the
/// selection.
class TestSelectionModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_selectionmodel"));
        QSettings().clear();
    }

    void emitsOnlyOnChange()
    {
        SelectionModel m;
        QSignalSpy changed(&m, &SelectionModel::changed);
        QVERIFY(m.isEmpty());
        const Operation *a = reinterpret_cast<const Operation *>(0x10);
        m.setSideResolver([a](const Operation *op, Value) {
            return op == a ? ProgramSide::Backward : ProgramSide::Origin;
        });
        m.selectOp(a);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(m.currentSide(), ProgramSide::Backward);
        QCOMPARE(m.currentOp(), a);
        QCOMPARE(changed.at(0).at(1).value<Cause>(), Cause::User);
        m.selectOp(a); // the same: nothing
        QCOMPARE(changed.count(), 1);
        m.selectOp(ProgramSide::Origin, a, Cause::Follow);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.at(1).at(1).value<Cause>(), Cause::Follow);
        m.clear();
        QVERIFY(m.isEmpty());
        QCOMPARE(changed.count(), 3);
        m.clear();
        QCOMPARE(changed.count(), 3);
    }

    void everyPanelFollows()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kExample));
        SelectionModel *selection = w.selection();
        DebuggerPanel *panel = w.debugger()->panel();
        GraphScene *scene = w.graphView()->graphScene();
        const Block &block = w.document()->program().block();
        const Operation *conv = block.op(17);
        const Operation *relu = block.op(22);
        QCOMPARE(conv->name(), std::string_view("pd_op.conv2d"));
        QCOMPARE(relu->name(), std::string_view("pd_op.relu"));

        // The graph: a click selects everywhere, the Values panel included.
        scene->itemForOp(conv)->setSelected(true);
        QCOMPARE(selection->currentOp(), conv);
        QCOMPARE(opListSelection(w), conv);
        QCOMPARE(w.propertiesModel()->currentOp(), conv);
        QCOMPARE(panel->valuesModel()->op(), conv);

        // Arrow keys in the Ops list move the selection.
        QTableView *list = w.opListPanel()->view();
        list->setFocus();
        QTest::keyClick(list, Qt::Key_Down);
        const Operation *next = opListSelection(w);
        QVERIFY(next && next != conv);
        QCOMPARE(selection->currentOp(), next);
        QVERIFY(scene->itemForOp(next)->isSelected());
        QCOMPARE(w.propertiesModel()->currentOp(), next);
        QCOMPARE(panel->valuesModel()->op(), next);

        // Run to relu: the stop selects relu (the op the session stands at) everywhere.
        selection->selectOp(relu);
        QTest::keyClick(w.graphView(), Qt::Key_F10, Qt::ControlModifier);
        DebugSession *session = w.debugger()->session();
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Paused);
        QCOMPARE(session->currentOp(), relu);
        QCOMPARE(selection->currentOp(), relu);
        QCOMPARE(panel->valuesModel()->op(), relu);

        // The graph again: selecting conv (executed) lists conv's values while paused, and its
        // first result is inspected.
        scene->itemForOp(conv)->setSelected(true);
        QCOMPARE(panel->valuesModel()->op(), conv);
        QCOMPARE(panel->inspectedValue(), conv->result(0));
        QVERIFY(panel->inspector()->tensor().defined());
        QCOMPARE(panel->executedOpsModel()->rowOf(conv),
            panel->executedView()->currentIndex().row()); // the timeline follows too

        // Arrow keys in Values: operand 1 (conv's filter) goes to the inspector, Properties and
        // the selection (picked at conv).
        QTableView *values = panel->valuesView();
        values->setFocus();
        values->selectionModel()->setCurrentIndex(
            values->model()->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QTest::keyClick(values, Qt::Key_Down);
        const Value filter = conv->operand(1);
        QCOMPARE(selection->currentValue(), filter);
        QCOMPARE(selection->currentOp(), conv);
        QCOMPARE(panel->inspectedValue(), filter);
        QCOMPARE(panel->valuesModel()->op(), conv); // stays on the op it was picked at
        QCOMPARE(w.propertiesModel()->currentValue(), filter);
        QVERIFY(scene->itemForOp(conv)->isSelected());

        // Arrow keys in Executed ops: the previous executed op is selected everywhere.
        QTableView *executed = panel->executedView();
        executed->setFocus();
        const int convRow = panel->executedOpsModel()->rowOf(conv);
        executed->selectionModel()->setCurrentIndex(executed->model()->index(convRow, 0),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(selection->currentOp(), conv);
        QTest::keyClick(executed, Qt::Key_Up);
        const Operation *before = session->records()[size_t(convRow - 1)].op;
        QCOMPARE(selection->currentOp(), before);
        QCOMPARE(opListSelection(w), before);
        QVERIFY(scene->itemForOp(before)->isSelected());
        QCOMPARE(panel->valuesModel()->op(), before);

        // Selecting a value elsewhere (Properties navigation uses the model too) reaches the
        // inspector.
        w.selectValue(conv->result(0));
        QCOMPARE(panel->inspectedValue(), conv->result(0));
        QCOMPARE(w.propertiesModel()->currentValue(), conv->result(0));
    }

    void hoverShowsLiveStatistics()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kExample));
        GraphView *view = w.graphView();
        GraphScene *scene = view->graphScene();
        const Operation *conv = w.document()->program().block().op(17);
        const Value out = conv->result(0);
        GraphEdgeItem *edge = nullptr;
        for (GraphEdgeItem *e : scene->edgeItems())
            if (e && e->value() == out)
                edge = e;
        QVERIFY(edge);
        const QPointF onEdge = edge->path().pointAtPercent(0.5);
        QCOMPARE(scene->itemAtPoint(onEdge), edge);
        view->zoomBy(2.0 / view->zoom());
        view->centerOn(onEdge);

        // Before a run: the value's id, type (dynamic dims as ?) and producer, no statistics.
        QString tip = hover(view, onEdge);
        QVERIFY2(tip.contains(w.document()->valueId(out)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("?x6x28x28xf32")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("pd_op.conv2d #17")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("min ")), qPrintable(tip));

        // After the run: shape, min, max, mean and the NaN count.
        DebugSession *session = w.debugger()->session();
        session->continueRun();
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Finished);
        view->centerOn(onEdge);
        tip = hover(view, onEdge);
        QVERIFY2(tip.contains(QRegularExpression(QStringLiteral("float32\\[\\d+, 6, 28, 28\\]"))),
            qPrintable(tip));
        for (const char *field : { "min ", "max ", "mean ", "NaN 0" })
            QVERIFY2(tip.contains(QLatin1String(field)), qPrintable(tip));

        // An op's box: its results with their statistics, "+5" explained on batch_norm_.
        const Operation *bn = w.document()->program().block().op(21);
        QCOMPARE(bn->name(), std::string_view("pd_op.batch_norm_"));
        GraphNodeItem *node = scene->itemForOp(bn);
        view->centerOn(node);
        tip = hover(view, node->rect().center());
        QVERIFY2(tip.contains(QStringLiteral("\"+5\"")), qPrintable(tip));
        QVERIFY2(tip.contains(QRegularExpression(QStringLiteral("now: float32\\[\\d+, 6, 28, 28\\]"))),
            qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("executed:")), qPrintable(tip));

        // A click on an edge selects its value.
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->mapFromScene(onEdge));
        QCOMPARE(w.selection()->currentValue(), out);
        QCOMPARE(w.propertiesModel()->currentValue(), out);
    }

    void commandsAfterTheEndRestart()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kExample));
        DebugSession *session = w.debugger()->session();
        DebuggerActions *actions = w.debugger()->actions();
        QTest::keyClick(w.graphView(), Qt::Key_F5);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Finished);
        const size_t ran = session->records().size();
        QVERIFY(ran > 20);
        QVERIFY(actions->continueAction()->isEnabled());
        QVERIFY(actions->stepOverAction()->isEnabled());
        QVERIFY(actions->runToCursorAction()->isEnabled());

        // F5 again: the whole program runs again from the first op.
        QSignalSpy reset(session, &DebugSession::recordsReset);
        QTest::keyClick(w.graphView(), Qt::Key_F5);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Finished);
        QVERIFY(reset.count() >= 1);
        QCOMPARE(session->records().size(), ran);

        // F10 after the end: back at the first op, paused.
        QTest::keyClick(w.graphView(), Qt::Key_F10);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Paused);
        QCOMPARE(session->position()->toString(), std::string("0:0"));
        QVERIFY(session->records().empty());

        // Ctrl+F10 after the end: runs from the start to the selected op.
        session->continueRun();
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Finished);
        const Operation *pool = w.document()->program().block().op(24);
        w.selectOp(pool);
        QTest::keyClick(w.graphView(), Qt::Key_F10, Qt::ControlModifier);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Paused);
        QCOMPARE(session->currentOp(), pool);
        QCOMPARE(session->records().size(), size_t(24));
    }

    void runToCursorTakesTheSelection()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kExample));
        DebugSession *session = w.debugger()->session();
        DebuggerPanel *panel = w.debugger()->panel();
        const Block &block = w.document()->program().block();
        const Operation *add = block.op(20);
        QCOMPARE(add->name(), std::string_view("pd_op.add"));

        // A value picked in the Values of `add` (Properties then shows the value, not an op):
        // Run to Cursor runs to `add`, where it was picked.
        w.selectOp(add);
        QTableView *values = panel->valuesView();
        values->selectionModel()->setCurrentIndex(
            values->model()->index(1, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(w.selection()->currentValue(), add->operand(1));
        QVERIFY(!w.propertiesModel()->currentOp());
        QTest::keyClick(w.graphView(), Qt::Key_F10, Qt::ControlModifier);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Paused);
        QCOMPARE(session->currentOp(), add);

        // An op picked with the keyboard in the Ops list.
        QTableView *list = w.opListPanel()->view();
        list->setFocus();
        for (int i = 0; i < 3; ++i)
            QTest::keyClick(list, Qt::Key_Down);
        const Operation *target = opListSelection(w);
        QVERIFY(target && w.document()->indexOf(target) > w.document()->indexOf(add));
        QTest::keyClick(list, Qt::Key_F10, Qt::ControlModifier);
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->currentOp(), target);
    }
};

QTEST_MAIN(TestSelectionModel)
#include "tst_selectionmodel.moc"
