#include "core/graph/graphbuilder.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/graphedgeitem.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/render/edgelabelcrowds.h"

#include <QFrame>
#include <QPushButton>
#include <QScrollBar>
#include <QtTest>

using namespace ps;

namespace {

Type tensor(std::vector<int64_t> dims)
{
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

/// x → matmul(w) → relu → 6 × scale → fetch each: ghosts for x, w and the relu fan-out.
struct Sample
{
    Program program;
    Operation *matmul;
    Operation *relu;
    Operation *param;
    std::vector<Operation *> scales;
    std::shared_ptr<const GraphModel> model;

    Sample()
    {
        Builder b(program);
        b.setInsertionPointToEnd(program.block());
        param = b.create("builtin.parameter", {}, { tensor({ 8, 8 }) },
            { { "parameter_name", Attribute::string("linear_0.w_0") } });
        Operation *x
            = b.create("pd_op.data", {}, { tensor({ -1, 8 }) }, { { "name", Attribute::string("x") } });
        matmul = b.create("pd_op.matmul", { x->result(0), param->result(0) }, { tensor({ -1, 8 }) });
        relu = b.create("pd_op.relu", { matmul->result(0) }, { tensor({ -1, 8 }) });
        for (int i = 0; i < 6; ++i) {
            scales.push_back(b.create("pd_op.scale", { relu->result(0) }, { tensor({ -1, 8 }) }));
            b.create("pd_op.fetch", { scales.back()->result(0) }, { tensor({ -1, 8 }) },
                { { "name", Attribute::string("out" + std::to_string(i)) } });
        }
        model = std::make_shared<GraphModel>(GraphBuilder().build(program));
    }
};

bool showAndWait(GraphView &view, std::shared_ptr<const GraphModel> model)
{
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    view.showGraph(std::move(model));
    return finished.wait(20000);
}

} // namespace

/// GraphView and GraphScene: items from a layout, zoom, fit, selection, highlight, overlay.
class TestGraphView : public QObject
{
    Q_OBJECT

private slots:
    void itemsMatchModel();
    void overlayWhileRunningAndCancel();
    void zoomAndFit();
    void clickSelectsOp();
    void programmaticSelectionIsSilent();
    void highlight();
    void paintsAtEveryLevelOfDetail();
    void parallelEdgeLabelsDoNotOverprint();
    void edgeLabelCrowdsPlacement();
};

void TestGraphView::itemsMatchModel()
{
    Sample s;
    GraphView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(showAndWait(view, s.model));
    GraphScene *scene = view.graphScene();
    QCOMPARE(scene->model(), s.model.get());
    int nodes = 0, edges = 0;
    for (QGraphicsItem *item : scene->items()) {
        nodes += item->type() == GraphNodeItem::Type ? 1 : 0;
        edges += item->type() == GraphEdgeItem::Type ? 1 : 0;
    }
    QCOMPARE(size_t(nodes), s.model->nodes.size()); // ghosts included, as chips
    size_t drawnEdges = 0; // ghosts sit inside their consumer: no edge
    for (const GraphEdge &e : s.model->edges)
        drawnEdges += s.model->nodes[e.from].ghost ? 0 : 1;
    QCOMPARE(size_t(edges), drawnEdges);
    GraphNodeItem *relu = scene->itemForOp(s.relu);
    QVERIFY(relu);
    QCOMPARE(relu->op(), s.relu);
    QCOMPARE(relu->lines().first(), QStringLiteral("relu"));
    // The node box is what the style measured (fixedsize in DOT).
    const QSizeF measured = scene->style().nodeSize(s.model->nodes[size_t(relu->nodeId())]);
    QVERIFY(qAbs(relu->rect().width() - measured.width()) < 0.6);
    QVERIFY(qAbs(relu->rect().height() - measured.height()) < 0.6);
    // The parameter is drawn only as a ghost; itemForOp finds the ghost.
    GraphNodeItem *param = scene->itemForOp(s.param);
    QVERIFY(param);
    QVERIFY(param->isGhost());
}

void TestGraphView::overlayWhileRunningAndCancel()
{
    Sample s;
    GraphView view;
    view.resize(800, 600);
    view.show();
    QSignalSpy canceled(&view, &GraphView::layoutCanceled);
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    view.showGraph(s.model);
    auto *overlay = view.findChild<QFrame *>(QStringLiteral("layoutOverlay"));
    QVERIFY(overlay);
    QVERIFY(overlay->isVisible());
    QVERIFY(view.isLayoutRunning());
    auto *cancel = view.findChild<QPushButton *>(QStringLiteral("cancelLayoutButton"));
    QVERIFY(cancel);
    cancel->click();
    QCOMPARE(canceled.count(), 1);
    QVERIFY(!overlay->isVisible());
    QVERIFY(!view.isLayoutRunning());
    QTest::qWait(500);
    QCOMPARE(finished.count(), 0);
    QVERIFY(showAndWait(view, s.model));
    QVERIFY(!overlay->isVisible());
}

void TestGraphView::zoomAndFit()
{
    Sample s;
    GraphView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(showAndWait(view, s.model));
    view.fitGraph();
    const QRectF visible = view.mapToScene(view.viewport()->rect()).boundingRect();
    QVERIFY(visible.adjusted(-2, -2, 2, 2).contains(view.graphScene()->graphBounds()));
    const double fitted = view.zoom();
    view.zoomBy(2);
    QVERIFY(qAbs(view.zoom() - 2 * fitted) < 1e-9);
    view.zoomBy(1e6);
    QCOMPARE(view.zoom(), GraphView::kMaxZoom);
    view.zoomBy(1e-9);
    QCOMPARE(view.zoom(), GraphView::kMinZoom);

    // Wheel zooms in, keeping the scene point under the cursor in place.
    view.fitGraph();
    while (view.horizontalScrollBar()->maximum() <= 0 || view.verticalScrollBar()->maximum() <= 0)
        view.zoomBy(1.5); // anchoring needs room to scroll both ways
    const QPoint cursor(300, 200);
    const QPointF before = view.mapToScene(cursor);
    QWheelEvent wheel(cursor, view.viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, 120), Qt::NoButton,
        Qt::NoModifier, Qt::NoScrollPhase, false);
    const double z = view.zoom();
    QApplication::sendEvent(view.viewport(), &wheel);
    QVERIFY(view.zoom() > z);
    const QPointF after = view.mapToScene(cursor);
    QVERIFY2(QLineF(before, after).length() < 3.0 / view.zoom(), "zoom is not anchored under the cursor");

    // F fits again.
    QTest::keyClick(&view, Qt::Key_F);
    QVERIFY(qAbs(view.zoom() - fitted) < 1e-6);
    view.zoomBy(3);
    QTest::keyClick(&view, Qt::Key_0, Qt::ControlModifier);
    QVERIFY(qAbs(view.zoom() - fitted) < 1e-6);
}

void TestGraphView::clickSelectsOp()
{
    Sample s;
    GraphView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(showAndWait(view, s.model));
    QSignalSpy selected(view.graphScene(), &GraphScene::opSelected);
    GraphNodeItem *matmul = view.graphScene()->itemForOp(s.matmul);
    QVERIFY(matmul);
    view.centerOn(matmul);
    const QPoint at = view.mapFromScene(matmul->rect().center());
    QTest::mouseClick(view.viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(selected.count() >= 1);
    QCOMPARE(selected.last().at(0).value<Operation *>(), s.matmul);
    QVERIFY(matmul->isSelected());
}

void TestGraphView::programmaticSelectionIsSilent()
{
    Sample s;
    GraphView view;
    QVERIFY(showAndWait(view, s.model));
    QSignalSpy selected(view.graphScene(), &GraphScene::opSelected);
    view.graphScene()->selectOp(s.relu);
    QVERIFY(view.graphScene()->itemForOp(s.relu)->isSelected());
    view.graphScene()->selectOp(nullptr);
    QVERIFY(view.graphScene()->selectedItems().isEmpty());
    QCOMPARE(selected.count(), 0);
    // A user-level selection change is reported.
    view.graphScene()->itemForOp(s.scales[2])->setSelected(true);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.last().at(0).value<Operation *>(), s.scales[2]);
}

void TestGraphView::highlight()
{
    Sample s;
    GraphView view;
    QVERIFY(showAndWait(view, s.model));
    GraphScene *scene = view.graphScene();
    scene->highlight({ s.param }, { s.matmul->result(0) });
    QVERIFY(scene->itemForOp(s.param)->isHighlighted());
    QVERIFY(!scene->itemForOp(s.relu)->isHighlighted());
    int highlightedEdges = 0;
    for (GraphEdgeItem *e : scene->edgeItems())
        if (e && e->isHighlighted()) {
            QCOMPARE(e->value(), s.matmul->result(0));
            ++highlightedEdges;
        }
    QCOMPARE(highlightedEdges, 1);
    // The relu result has 6 uses > 4: its ghosts are highlighted as the value's nodes.
    scene->highlight({}, { s.relu->result(0) });
    int ghosts = 0;
    for (GraphNodeItem *n : scene->nodeItems())
        if (n && n->isHighlighted()) {
            QVERIFY(n->isGhost());
            ++ghosts;
        }
    QCOMPARE(ghosts, 6);
    scene->clearHighlight();
    for (GraphNodeItem *n : scene->nodeItems())
        QVERIFY(!n || !n->isHighlighted());
}

void TestGraphView::paintsAtEveryLevelOfDetail()
{
    Sample s;
    GraphView view;
    view.resize(640, 480);
    view.show();
    QVERIFY(showAndWait(view, s.model));
    for (double zoom : { 0.05, 0.2, 0.5, 1.0, 3.0 }) {
        view.resetTransform();
        view.zoomBy(zoom);
        view.centerOn(view.graphScene()->itemForOp(s.relu));
        const QImage image = view.grab().toImage();
        QVERIFY(!image.isNull());
        // Something other than the background is drawn.
        const QRgb background = image.pixel(0, 0);
        bool drawn = false;
        for (int y = 0; y < image.height() && !drawn; y += 3)
            for (int x = 0; x < image.width() && !drawn; x += 3)
                drawn = image.pixel(x, y) != background;
        QVERIFY2(drawn, qPrintable(QStringLiteral("nothing drawn at zoom %1").arg(zoom)));
    }
}

// Three values from one op to the next: their labels sat on one another. One is drawn, with
// "+2", to the right of the three edges; no two drawn labels overlap.
void TestGraphView::parallelEdgeLabelsDoNotOverprint()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *x = b.create("pd_op.data", {}, { tensor({ 4, 8 }) }, { { "name", Attribute::string("x") } });
    Operation *three
        = b.create("pd_op.unbind", { x->result(0) }, { tensor({ 8 }), tensor({ 8 }), tensor({ 8 }) });
    Operation *sum = b.create(
        "pd_op.add_n", { three->result(0), three->result(1), three->result(2) }, { tensor({ 8 }) });
    b.create("pd_op.fetch", { sum->result(0) }, { tensor({ 8 }) }, { { "name", Attribute::string("out") } });
    auto model = std::make_shared<GraphModel>(GraphBuilder().build(program));
    GraphView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(showAndWait(view, model));
    std::vector<GraphEdgeItem *> between;
    for (QGraphicsItem *item : view.graphScene()->items())
        if (auto *edge = qgraphicsitem_cast<GraphEdgeItem *>(item))
            if (edge->value() && edge->value().definingOp() == three)
                between.push_back(edge);
    QCOMPARE(between.size(), size_t(3));
    int hidden = 0;
    QRectF drawn;
    qreal rightmostStart = 0;
    for (GraphEdgeItem *edge : between) {
        QCOMPARE(edge->label(), QStringLiteral("8xf32"));
        rightmostStart = std::max(rightmostStart, edge->ownLabelRect().left());
        if (edge->isLabelHidden()) {
            ++hidden;
            QVERIFY(edge->labelRect().isNull());
        } else {
            drawn = edge->labelRect();
        }
    }
    QCOMPARE(hidden, 2);
    QVERIFY(!drawn.isNull());
    QCOMPARE(drawn.left(), rightmostStart);
}

void TestGraphView::edgeLabelCrowdsPlacement()
{
    const std::vector<QRectF> rects { QRectF(10, 10, 50, 12), QRectF(), QRectF(20, 14, 50, 12),
        QRectF(200, 12, 50, 12), QRectF(12, 40, 50, 12), QRectF(30, 16, 50, 12) };
    const std::vector<EdgeLabelCrowds::Placement> p = EdgeLabelCrowds::place(rects);
    QCOMPARE(p.size(), rects.size());
    QVERIFY(!p[0].hidden);
    QCOMPARE(p[0].others, 2); // rects 2 and 5 fall on it
    QCOMPARE(p[0].left, 30.0); // drawn where the rightmost of them starts
    QVERIFY(!p[1].hidden && p[1].others == 0); // no label
    QVERIFY(p[2].hidden && p[5].hidden);
    QVERIFY(!p[3].hidden && p[3].others == 0); // beside, not on it
    QVERIFY(!p[4].hidden && p[4].others == 0); // below
    QCOMPARE(EdgeLabelCrowds::text(QStringLiteral("8xf32"), 2), QStringLiteral("8xf32  +2"));
    QCOMPARE(EdgeLabelCrowds::text(QStringLiteral("8xf32"), 0), QStringLiteral("8xf32"));
}

QTEST_MAIN(TestGraphView)
#include "tst_graphview.moc"
