#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "debugwait.h"
#include "dynamicinputs.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/graphmarks.h"
#include "ui/debugger/valuesummary.h"
#include "ui/graphedgeitem.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphtooltips.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/programdocument.h"
#include "ui/propertiesmodel.h"
#include "ui/render/graphstyle.h"
#include "ui/runoverlaylegend.h"

#include <QAction>
#include <QMenuBar>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace ps;

namespace {

using State = DebugSession::State;

/// x (batch, height and width dynamic) → relu → tanh → the output "out": relu's result is
/// unnamed, so its edge is labelled with its type.
const char *const kChain
    = "{\n"
      "    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(cpu),shape:[-1,3,-1,-1],"
      "stop_gradient:[true]} : () -> tensor<-1x3x-1x-1xf32>\n"
      "    (%1) = \"pd_op.relu\" (%0) {} : (tensor<-1x3x-1x-1xf32>) -> tensor<-1x3x-1x-1xf32>\n"
      "    (%2) = \"pd_op.tanh\" (%1) {} : (tensor<-1x3x-1x-1xf32>) -> tensor<-1x3x-1x-1xf32>\n"
      "    () = \"builtin.shadow_output\" (%2) {output_name:\"out\"} : (tensor<-1x3x-1x-1xf32>) -> \n"
      "}\n";

bool openAndLayOut(MainWindow &w, const QString &path)
{
    QSignalSpy finished(w.graphView(), &GraphView::layoutFinished);
    if (!w.openFile(path))
        return false;
    return finished.count() > 0 || finished.wait(60000);
}

} // namespace

/// After a run the graph shows it: op labels and edge labels with the runtime shapes where the
/// program's types have dynamic dims, and the time overlay (View ▸ Time Overlay, kept in
/// QSettings) colouring each executed op by its share of the run, with a legend.
class TestRunOverlay : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_runoverlay"));
        QSettings().clear();
    }

    /// Before any run: with no shape for x the labels keep the program's type and the hover says
    /// why; once x has a shape, labels, edges and Properties show the inferred concrete shapes.
    void inferredShapesBeforeARun()
    {
        QTemporaryDir dir;
        const QString path = writeTestFile(dir, QStringLiteral("chain.txt"), kChain);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, path));
        DebugSession *session = w.debugger()->session();
        const Operation *relu = w.document()->program().block().op(1);
        GraphNodeItem *reluItem = w.graphView()->graphScene()->itemForOp(relu);
        QVERIFY(reluItem);
        QTRY_VERIFY2(reluItem->toolTip().contains(QStringLiteral(
                         "shape unknown: input x has dynamic dims and no shape (--shape x=DIMS)")),
            qPrintable(reluItem->toolTip()));
        QCOMPARE(reluItem->lines().value(1), QStringLiteral("?x3x?x?xf32"));
        auto shapeRow = [&w]() {
            const QAbstractItemModel *m = w.propertiesModel();
            for (int r = 0; r < m->rowCount(); ++r) {
                const QModelIndex result = m->index(r, 0);
                for (int k = 0; k < m->rowCount(result); ++k) {
                    const QModelIndex value = m->index(k, 0, result);
                    for (int j = 0; j < m->rowCount(value); ++j)
                        if (m->index(j, 0, value).data().toString() == QStringLiteral("Shape"))
                            return m->index(j, 1, value).data().toString();
                }
            }
            return QString();
        };
        w.selectOp(relu);
        QTRY_COMPARE(
            shapeRow(), QStringLiteral("unknown: input x has dynamic dims and no shape (--shape x=DIMS)"));

        DebugSources sources = session->sources();
        sources.shapes["x"] = { 2, 3, 5, 7 };
        session->setSources(sources);
        QTRY_COMPARE(reluItem->lines().value(1), QStringLiteral("2x3x5x7xf32"));
        QVERIFY(reluItem->toolTip().contains(QStringLiteral("inferred shape: 2x3x5x7xf32")));
        // The input's node (data, its name, its shape) shows the chosen shape on its third line.
        GraphNodeItem *dataItem
            = w.graphView()->graphScene()->itemForOp(w.document()->program().block().op(0));
        QVERIFY(dataItem && !dataItem->isGhost());
        QCOMPARE(dataItem->lines().value(2), QStringLiteral("2x3x5x7xf32"));
        QTRY_COMPARE(
            shapeRow(), QStringLiteral("[2, 3, 5, 7] \u00b7 840 bytes (inferred from the input shapes)"));
        GraphEdgeItem *edge = nullptr;
        for (GraphEdgeItem *e : w.graphView()->graphScene()->edgeItems())
            if (e->value() == relu->result(0))
                edge = e;
        QVERIFY(edge);
        QCOMPARE(edge->label(), QStringLiteral("2x3x5x7xf32"));
    }

    void runtimeShapesAndTheTimeOverlay()
    {
        QTemporaryDir dir;
        const QString path = writeTestFile(dir, QStringLiteral("chain.txt"), kChain);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, path));
        MainWindowDebugger *debugger = w.debugger();
        DebugSession *session = debugger->session();
        DebugSources sources = session->sources();
        sources.shapes["x"] = { 2, 3, 5, 7 };
        session->setSources(sources);

        // The overlay is off by default; View ▸ Time Overlay and the debugger toolbar turn it on.
        QAction *overlay = debugger->timeOverlayAction();
        QVERIFY(!overlay->isChecked());
        QVERIFY(debugger->overlayLegend()->isHidden());
        QMenu *view = w.menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu"));
        QVERIFY(view && view->actions().contains(overlay));
        overlay->trigger();
        QVERIFY(debugger->marks()->timeOverlay());
        QVERIFY(debugger->overlayLegend()->isVisible());
        QCOMPARE(QSettings().value(QStringLiteral("debugger/timeOverlay")).toBool(), true);

        const Block &block = w.document()->program().block();
        const Operation *relu = block.op(1);
        const Operation *tanh = block.op(2);
        QCOMPARE(relu->name(), std::string_view("pd_op.relu"));
        GraphScene *scene = w.graphView()->graphScene();
        GraphNodeItem *reluItem = scene->itemForOp(relu);
        QVERIFY(reluItem);
        // Before the run the shape line shows the shape inferred from x's chosen shape.
        QTRY_COMPARE(reluItem->lines().value(1), QStringLiteral("2x3x5x7xf32"));
        QVERIFY2(reluItem->toolTip().contains(
                     QStringLiteral("inferred shape: 2x3x5x7xf32 (the program's: ?x3x?x?xf32)")),
            qPrintable(reluItem->toolTip()));

        session->continueRun();
        QVERIFY(waitUntilIdle(*session));
        QCOMPARE(session->state(), State::Finished);

        // The op's shape line and the unnamed value's edge show what the run made.
        QTRY_COMPARE(reluItem->lines().value(1), QStringLiteral("2x3x5x7xf32"));
        QVERIFY2(reluItem->toolTip().contains(
                     QStringLiteral("run's shape: 2x3x5x7xf32 (the program's: ?x3x?x?xf32)")),
            qPrintable(reluItem->toolTip()));
        GraphEdgeItem *edge = nullptr;
        for (GraphEdgeItem *e : scene->edgeItems())
            if (e->value() == relu->result(0))
                edge = e;
        QVERIFY(edge);
        QCOMPARE(edge->declaredLabel(), QStringLiteral("?x3x?x?xf32"));
        QVERIFY(edge->hasRuntimeLabel());
        QCOMPARE(edge->label(), QStringLiteral("2x3x5x7xf32"));

        // Hovering the op tells its result's statistics from the session.
        const GraphToolTips::LiveText live
            = [debugger](Value v) { return debugger->valueSummary()->text(v); };
        const QString tip = GraphToolTips::text(reluItem, *w.document(), live);
        QVERIFY2(tip.contains(QStringLiteral("now: float32[2, 3, 5, 7]"))
                && tip.contains(QStringLiteral(" · min ")) && tip.contains(QStringLiteral(" · NaN 0")),
            qPrintable(tip));

        // Every executed op carries its share of the run; the shares add up to the whole.
        double total = 0;
        for (const Operation *op : { relu, tanh }) {
            const NodeMarks &m = scene->itemForOp(op)->marks();
            QVERIFY(m.timeShare >= 0 && m.timeShare <= 1);
            QVERIFY(GraphStyle::timeShareColor(m.timeShare).isValid());
        }
        for (const auto &[op, marks] : scene->opMarks())
            if (marks.timeShare >= 0)
                total += marks.timeShare;
        QVERIFY2(std::abs(total - 1.0) < 1e-3 || total == 0, qPrintable(QString::number(total)));
        QVERIFY(reluItem->toolTip().contains(QStringLiteral("of the run's time")));

        // The overlay paints the box in its colour: rendered, the box holds the colour's blend.
        const QRectF box = reluItem->rect();
        QImage image(QSize(int(box.width() * 2), int(box.height() * 2)), QImage::Format_ARGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            scene->render(&painter, QRectF(image.rect()), box);
        }
        const QColor fill = scene->style().nodeFill(NodeKind::Compute, false);
        const QColor time = GraphStyle::timeShareColor(reluItem->marks().timeShare);
        const QColor expected((fill.red() + time.red() * 3) / 4, (fill.green() + time.green() * 3) / 4,
            (fill.blue() + time.blue() * 3) / 4);
        int tinted = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                tinted += std::abs(c.red() - expected.red()) + std::abs(c.green() - expected.green())
                        + std::abs(c.blue() - expected.blue())
                    <= 6;
            }
        QVERIFY2(tinted > image.width() * image.height() / 3, qPrintable(QString::number(tinted)));

        // Off again: the labels keep the run's shapes, the colours and the legend go.
        overlay->trigger();
        QTRY_VERIFY(scene->itemForOp(relu)->marks().timeShare < 0);
        QVERIFY(debugger->overlayLegend()->isHidden());
        QCOMPARE(reluItem->lines().value(1), QStringLiteral("2x3x5x7xf32"));
        QCOMPARE(QSettings().value(QStringLiteral("debugger/timeOverlay")).toBool(), false);

        // A new session (restart) drops them: back to the shapes inferred from x's shape.
        session->stop();
        QVERIFY(waitUntilIdle(*session));
        QTRY_VERIFY2(reluItem->toolTip().contains(QStringLiteral("inferred shape: 2x3x5x7xf32")),
            qPrintable(reluItem->toolTip()));
        QCOMPARE(reluItem->lines().value(1), QStringLiteral("2x3x5x7xf32"));
        QCOMPARE(edge->label(), QStringLiteral("2x3x5x7xf32"));
        // Without a shape for x, the program's types.
        sources.shapes.clear();
        session->setSources(sources);
        QTRY_COMPARE(reluItem->lines().value(1), QStringLiteral("?x3x?x?xf32"));
        QVERIFY(!edge->hasRuntimeLabel());
        QCOMPARE(edge->label(), QStringLiteral("?x3x?x?xf32"));
    }

    void theOverlayIsRemembered()
    {
        QSettings().setValue(QStringLiteral("debugger/timeOverlay"), true);
        MainWindow w;
        QVERIFY(w.debugger()->timeOverlayAction()->isChecked());
        QVERIFY(w.debugger()->marks()->timeOverlay());
        QVERIFY(!w.debugger()->overlayLegend()->isHidden());
        QSettings().remove(QStringLiteral("debugger/timeOverlay"));
    }
};

QTEST_MAIN(TestRunOverlay)
#include "tst_runoverlay.moc"
