#include "core/graph/graphbuilder.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/syntheticprogram.h"
#include "ui/graphfinder.h"
#include "ui/graphgroupitem.h"
#include "ui/graphminimap.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphsearchbar.h"
#include "ui/graphview.h"
#include "ui/render/firstview.h"
#include "ui/render/graphexporter.h"
#include "ui/render/graphvizlayout.h"

#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

using namespace ps;

namespace {

Type tensor(std::vector<int64_t> dims)
{
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

/// x → `blocks` × (conv2d, batch_norm, relu under "/Net/Block_k/...") → fetch.
struct Layers
{
    Program program;
    std::vector<Operation *> convs, relus;
    Operation *fetch = nullptr;
    std::shared_ptr<const GraphModel> model;

    explicit Layers(int blocks)
    {
        Builder b(program);
        b.setInsertionPointToEnd(program.block());
        Value v = b.create("pd_op.data", {}, { tensor({ 1, 8 }) }, { { "name", Attribute::string("x") } })
                      ->result(0);
        for (int k = 0; k < blocks; ++k) {
            const std::string block = "/Net/Block_" + std::to_string(k) + "/";
            auto op = [&](const char *name, const char *leaf) {
                Operation *o = b.create(name, { v }, { tensor({ 1, 8 }) },
                    { { "struct_name", Attribute::string(block + leaf + "/") } });
                v = o->result(0);
                return o;
            };
            convs.push_back(op("pd_op.conv2d", "Conv2D"));
            op("pd_op.batch_norm", "BatchNorm2D");
            relus.push_back(op("pd_op.relu", "ReLU"));
        }
        fetch
            = b.create("pd_op.fetch", { v }, { tensor({ 1, 8 }) }, { { "name", Attribute::string("out") } });
        model = std::make_shared<GraphModel>(GraphBuilder().build(program));
    }

    int group(int k) const { return model->groupsNamed("/Net/Block_" + std::to_string(k) + "/").front(); }
};

bool showAndWait(GraphView &view, std::shared_ptr<const GraphModel> model)
{
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    view.showGraph(std::move(model));
    return finished.wait(60000);
}

/// Waits for the next layout of `view` (an expansion it started); its `fromCache`.
bool waitForLayout(GraphView &view, bool *fromCache = nullptr)
{
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    if (!finished.wait(60000))
        return false;
    if (fromCache)
        *fromCache = finished.last().at(1).toBool();
    return true;
}

/// Pixels of `image` inside `rect` darker than `threshold` (text on a light box).
int darkPixels(const QImage &image, const QRect &rect, int threshold = 90)
{
    int n = 0;
    for (int y = std::max(0, rect.top()); y <= std::min(image.height() - 1, rect.bottom()); ++y)
        for (int x = std::max(0, rect.left()); x <= std::min(image.width() - 1, rect.right()); ++x)
            n += qGray(image.pixel(x, y)) < threshold ? 1 : 0;
    return n;
}

/// `paint` on a white image as the view draws at zoom `lod`: a `size` scene rectangle at `margin`
/// pixels from the image's corner (on each side).
QImage paintedAt(const QSizeF &size, double lod, QPoint margin, const std::function<void(QPainter &)> &paint)
{
    QImage image(QSize(int(size.width() * lod) + 2 * margin.x(), int(size.height() * lod) + 2 * margin.y()),
        QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.translate(margin);
    painter.scale(lod, lod);
    paint(painter);
    return image;
}

} // namespace

/// Navigating big graphs: layer groups opening and closing, collapsed defaults with a summary,
/// search with next/previous and a count, the minimap, titles readable at middle zoom, and the
/// whole-graph export.
class TestGraphNavigation : public QObject
{
    Q_OBJECT

private slots:
    void collapseAndExpand();
    void bigGraphsOpenCollapsed();
    void openingTooMuchIsRefusedWithAMessage();
    void openAllAndCloseAllKeepTheOpInSight();
    void anOpenedLayerComesIntoView();
    void searchNextPreviousAndCount();
    void minimapShowsAndMovesTheView();
    void titlesStayReadableAtMiddleZoom();
    void titlesShowAtFitZoom();
    void exportDrawsTheWholeGraph();
    void benchmarkGroupedLayout();
};

void TestGraphNavigation::collapseAndExpand()
{
    Layers net(4);
    GraphView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(showAndWait(view, net.model)); // small: everything open
    GraphScene *scene = view.graphScene();
    const int block1 = net.group(1);
    QVERIFY(view.expansion().isExpanded(block1));
    GraphGroupItem *frame = scene->groupItems()[size_t(block1)];
    QVERIFY(frame && frame->isExpanded());
    QVERIFY(scene->itemForOp(net.convs[1]));
    QVERIFY(frame->rect().contains(scene->itemForOp(net.convs[1])->rect()));
    QVERIFY(view.summary().isEmpty());

    // Double-clicking the frame's title closes the layer: one box instead of its three ops.
    view.centerOn(frame->rect().topLeft());
    const QPoint title = view.mapFromScene(frame->rect().topLeft() + QPointF(60, 8));
    QTest::mouseDClick(view.viewport(), Qt::LeftButton, Qt::NoModifier, title);
    QVERIFY(waitForLayout(view));
    QVERIFY(!view.expansion().isExpanded(block1));
    GraphGroupItem *box = scene->groupItems()[size_t(block1)];
    QVERIFY(box && !box->isExpanded());
    QVERIFY(!scene->itemForOp(net.convs[1]));
    QCOMPARE(scene->visibleItemForNode(net.model->nodeOf(net.relus[1])), box);
    QVERIFY(scene->itemForOp(net.convs[2])); // the other layers stay open
    QVERIFY2(view.summary().startsWith(QStringLiteral("Showing 11 of 14 ops \u00b7 1 layer closed")),
        qPrintable(view.summary()));
    // Selecting an op inside selects the box that stands for it.
    scene->selectOp(net.convs[1]);
    QVERIFY(box->isSelected());

    // Double-clicking the box opens it again; that layout was made before: all from the cache.
    const QPoint inside = view.mapFromScene(box->rect().center());
    QTest::mouseDClick(view.viewport(), Qt::LeftButton, Qt::NoModifier, inside);
    bool fromCache = false;
    QVERIFY(waitForLayout(view, &fromCache));
    QVERIFY(fromCache);
    QVERIFY(scene->itemForOp(net.convs[1]));
    QVERIFY(scene->itemForOp(net.convs[1])->isSelected()); // the selection survives

    // Close all, open all.
    view.collapseAll();
    QVERIFY(waitForLayout(view));
    QCOMPARE(scene->groupItems()[size_t(net.model->topGroups.front())]->isExpanded(), false);
    QVERIFY(!scene->itemForOp(net.convs[0]));
    view.expandAll();
    QVERIFY(waitForLayout(view));
    for (Operation *op : net.relus)
        QVERIFY(scene->itemForOp(op));
    // Revealing an op opens the layers around it.
    view.collapseAll();
    QVERIFY(waitForLayout(view));
    view.centerOnOp(net.relus[3]);
    QVERIFY(waitForLayout(view));
    QVERIFY(scene->itemForOp(net.relus[3]));
    QVERIFY(!scene->itemForOp(net.relus[0]));
    QVERIFY(view.zoom() >= GraphView::kReadableZoom - 1e-9);
}

void TestGraphNavigation::openingTooMuchIsRefusedWithAMessage()
{
    Layers net(4);
    GraphView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(showAndWait(view, net.model));
    view.collapseAll();
    QVERIFY(waitForLayout(view));
    const GroupExpansion closed = view.expansion();
    // A cap just below the whole graph's size stands for 100,000 ops: Open All is refused at
    // once, with a message in the summary line, and the view keeps what it shows.
    view.setMaxShownItems(GroupExpansion::all(*net.model).visibleItemCount(*net.model) - 1);
    QVERIFY(!view.expandAll());
    QVERIFY(!view.isLayoutRunning());
    QVERIFY(view.expansion() == closed);
    QVERIFY2(
        view.notice().startsWith(QStringLiteral("Not opened: that would draw")), qPrintable(view.notice()));
    auto *line = view.findChild<QLabel *>(QStringLiteral("graphSummary"));
    QVERIFY(line && line->isVisible());
    QVERIFY(line->text().contains(view.notice()));
    // Opening the layers around one op still works; the notice goes.
    view.centerOnOp(net.convs[1]);
    QVERIFY(waitForLayout(view));
    QVERIFY(view.notice().isEmpty());
    QVERIFY(view.graphScene()->itemForOp(net.convs[1]));
    view.setMaxShownItems(GraphView::kMaxShownItems);
    QVERIFY(view.expandAll());
    QVERIFY(waitForLayout(view));
    for (Operation *op : net.relus)
        QVERIFY(view.graphScene()->itemForOp(op));
}

// Open All used to leave the view where it was in a scene many times larger: an empty canvas.
void TestGraphNavigation::openAllAndCloseAllKeepTheOpInSight()
{
    Layers net(12);
    GraphView view;
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(showAndWait(view, net.model));
    GraphScene *scene = view.graphScene();
    view.collapseAll();
    QVERIFY(waitForLayout(view));
    view.centerOnOp(net.relus[8]);
    QVERIFY(waitForLayout(view));
    scene->selectOp(net.relus[8]);
    const auto screenCentre = [&](const Operation *op) {
        return view.mapFromScene(
            scene->visibleItemForNode(net.model->nodeOf(op))->sceneBoundingRect().center());
    };
    const QPoint before = screenCentre(net.relus[8]);
    const double zoom = view.zoom();
    QVERIFY(view.expandAll());
    QVERIFY(waitForLayout(view));
    QVERIFY(scene->itemForOp(net.relus[0]));
    QVERIFY2((screenCentre(net.relus[8]) - before).manhattanLength() <= 2, // nothing clamps it here
        qPrintable(QStringLiteral("%1,%2 -> %3,%4")
                       .arg(before.x())
                       .arg(before.y())
                       .arg(screenCentre(net.relus[8]).x())
                       .arg(screenCentre(net.relus[8]).y())));
    QCOMPARE(view.zoom(), zoom);

    // Without a selection the op nearest the centre stays in sight: after Close All its layer's
    // box is in view (where the op was unless the smaller scene cannot scroll there).
    scene->selectOp(nullptr);
    view.centerOn(scene->itemForOp(net.convs[10]));
    view.collapseAll();
    QVERIFY(waitForLayout(view));
    QVERIFY(!scene->itemForOp(net.convs[10]));
    const QRect box
        = view.mapFromScene(scene->visibleItemForNode(net.model->nodeOf(net.convs[10]))->sceneBoundingRect())
              .boundingRect();
    QVERIFY(view.viewport()->rect().contains(box));
}

// Opening a layer taller than the view left most of it below the edge.
void TestGraphNavigation::anOpenedLayerComesIntoView()
{
    Layers net(6);
    GraphView view;
    view.resize(420, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(showAndWait(view, net.model));
    const int block = net.group(3);
    view.setGroupExpanded(block, false);
    QVERIFY(waitForLayout(view));
    QVERIFY(view.graphScene()->groupItems()[size_t(block)]);
    view.zoomBy(1.0 / view.zoom());
    view.centerOn(view.graphScene()->groupItems()[size_t(block)]);
    view.setGroupExpanded(block, true);
    QVERIFY(waitForLayout(view));
    GraphGroupItem *frame = view.graphScene()->groupItems()[size_t(block)];
    QVERIFY(frame && frame->isExpanded());
    const QRectF visible = view.mapToScene(view.viewport()->rect()).boundingRect();
    QVERIFY2(visible.contains(frame->rect()),
        qPrintable(QStringLiteral("zoom %1, frame %2 tall").arg(view.zoom()).arg(frame->rect().height())));
    QVERIFY(view.zoom() < 1.0 && view.zoom() >= FirstView::kUsableZoom);
}

void TestGraphNavigation::bigGraphsOpenCollapsed()
{
    SyntheticProgram::Model m = SyntheticProgram::transformer(40); // ~2000 ops
    auto model = std::make_shared<const GraphModel>(GraphBuilder().build(*m.program));
    GraphView view;
    view.resize(1000, 700);
    view.show();
    QVERIFY(showAndWait(view, model));
    GraphScene *scene = view.graphScene();
    size_t shownOps = 0, collapsed = 0;
    for (GraphNodeItem *item : scene->nodeItems())
        shownOps += item && !item->isGhost() && item->op() ? 1 : 0;
    for (GraphGroupItem *item : scene->groupItems())
        collapsed += item && !item->isExpanded() ? 1 : 0;
    QVERIFY(shownOps < model->opNodeCount());
    QVERIFY(collapsed > 0);
    QVERIFY(view.expansion().visibleItemCount(*model) <= GroupExpansion::kDefaultBudget);
    auto *summary = view.findChild<QLabel *>(QStringLiteral("graphSummary"));
    QVERIFY(summary && summary->isVisible());
    QVERIFY(summary->text().contains(QLatin1String("double-click")));
    // The summary sits in its own strip below the graph, covering none of it.
    QVERIFY(!summary->geometry().intersects(view.viewport()->geometry()));
    QVERIFY(view.rect().contains(summary->geometry()));
    // The first view is readable, not a speck: fitted when that is large enough, else zoomed in.
    QVERIFY(view.zoom() >= 0.22);
}

void TestGraphNavigation::searchNextPreviousAndCount()
{
    Layers net(6);
    GraphView view;
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(showAndWait(view, net.model));
    view.collapseAll();
    QVERIFY(waitForLayout(view));

    GraphFinder *finder = view.finder();
    QTest::keyClick(&view, Qt::Key_F, Qt::ControlModifier);
    QVERIFY(finder->bar()->isVisible());
    QSignalSpy selected(view.graphScene(), &GraphScene::opSelected);
    QTest::keyClicks(finder->bar()->field(), QStringLiteral("relu"));
    QCOMPARE(finder->matches().size(), size_t(6));
    QCOMPARE(finder->bar()->countText(), QStringLiteral("6 matches"));
    // The collapsed layers holding matches are marked.
    QVERIFY(view.graphScene()->groupItems()[size_t(net.model->topGroups.front())]->isMatched());

    // Enter: the first match, its layers opened, zoomed to read, selected as a click would.
    QTest::keyClick(finder->bar()->field(), Qt::Key_Return);
    QVERIFY(waitForLayout(view));
    QCOMPARE(finder->current(), 0);
    QCOMPARE(finder->bar()->countText(), QStringLiteral("1 of 6"));
    GraphNodeItem *first = view.graphScene()->itemForOp(net.relus[0]);
    QVERIFY(first && first->isSelected() && first->isMatched());
    QVERIFY(view.zoom() >= GraphView::kReadableZoom - 1e-9);
    QVERIFY(view.mapToScene(view.viewport()->rect()).boundingRect().contains(first->rect().center()));
    QVERIFY(!selected.isEmpty());
    QCOMPARE(selected.last().at(0).value<Operation *>(), net.relus[0]);

    // Shift+Enter wraps to the last; F3 goes forward again.
    QTest::keyClick(finder->bar()->field(), Qt::Key_Return, Qt::ShiftModifier);
    QVERIFY(waitForLayout(view));
    QCOMPARE(finder->current(), 5);
    QCOMPARE(finder->bar()->countText(), QStringLiteral("6 of 6"));
    QVERIFY(view.graphScene()->itemForOp(net.relus[5])->isSelected());
    QTest::keyClick(finder->bar()->field(), Qt::Key_F3);
    QCOMPARE(finder->current(), 0); // already open: no layout needed
    QVERIFY(view.graphScene()->itemForOp(net.relus[0])->isSelected());

    // An exact id, then nothing.
    finder->setQuery(QStringLiteral("Block_3"));
    QCOMPARE(finder->matches().size(), size_t(3));
    finder->setQuery(QStringLiteral("no such op"));
    QVERIFY(finder->matches().empty());
    QCOMPARE(finder->bar()->countText(), QStringLiteral("No matches"));
    // Escape closes the bar and clears the marks.
    finder->setQuery(QStringLiteral("conv2d"));
    QTest::keyClick(finder->bar()->field(), Qt::Key_Escape);
    QVERIFY(!finder->bar()->isVisible());
    for (GraphNodeItem *item : view.graphScene()->nodeItems())
        QVERIFY(!item || !item->isMatched());
}

void TestGraphNavigation::minimapShowsAndMovesTheView()
{
    Layers net(12);
    GraphView view;
    view.resize(700, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(showAndWait(view, net.model));
    GraphMinimap *minimap = view.minimap();
    view.fitGraph();
    QVERIFY(!minimap->isVisible()); // the whole graph is in view
    view.zoomBy(4);
    QVERIFY(minimap->isVisible());
    QVERIFY(
        minimap->width() <= GraphMinimap::kMaxSide + 4 && minimap->height() <= GraphMinimap::kMaxSide + 4);
    QVERIFY(QRectF(minimap->rect()).contains(minimap->frameRect().center()));
    QVERIFY(
        minimap->frameRect().width() < minimap->width() || minimap->frameRect().height() < minimap->height());
    // Clicking near the minimap's bottom moves the view towards the graph's end.
    const QPointF before = view.mapToScene(view.viewport()->rect().center());
    QTest::mouseClick(
        minimap, Qt::LeftButton, Qt::NoModifier, QPoint(minimap->width() / 2, minimap->height() - 4));
    const QPointF after = view.mapToScene(view.viewport()->rect().center());
    QVERIFY(after.y() > before.y() + 50);
    QVERIFY(minimap->frameRect().center().y() > minimap->height() / 2);
}

void TestGraphNavigation::titlesStayReadableAtMiddleZoom()
{
    // A node painted far out is a flat box; at middle zoom its title is drawn enlarged (text
    // pixels), where it used to vanish below 0.4.
    GraphStyle style;
    GraphNode node;
    node.kind = NodeKind::Compute;
    node.lines = { "conv2d", "1x64x160x160xf32" };
    const QSizeF size = style.nodeSize(node);
    for (double lod : { 0.05, 0.3, 0.5, 1.0 }) {
        const QImage image = paintedAt(size, lod, QPoint(4, 4), [&](QPainter &painter) {
            NodeVisual v;
            v.rect = QRectF(QPointF(0, 0), size);
            v.lines = { QStringLiteral("conv2d"), QStringLiteral("1x64x160x160xf32") };
            style.paintNode(&painter, v, lod);
        });
        const int text = darkPixels(image, image.rect().adjusted(6, 6, -6, -6));
        if (lod < GraphStyle::kFlatLod)
            QCOMPARE(text, 0);
        else
            QVERIFY2(text > 3, qPrintable(QStringLiteral("no title at lod %1").arg(lod)));
    }
    // Layer boxes too.
    LayerGroup group;
    group.label = "TransformerEncoderLayer_3";
    group.ops = 50;
    const QSizeF box = style.collapsedGroupSize(group);
    const QImage image = paintedAt(box, 0.3, QPoint(4, 4), [&](QPainter &painter) {
        GroupVisual g;
        g.rect = QRectF(QPointF(0, 0), box);
        g.title = QString::fromStdString(group.label);
        g.detail = GraphStyle::groupDetail(group);
        style.paintGroup(&painter, g, 0.3);
    });
    QVERIFY(darkPixels(image, image.rect().adjusted(6, 6, -6, -6)) > 3);
}

void TestGraphNavigation::titlesShowAtFitZoom()
{
    // lenet at fit zoom in a 1280x720 window is drawn at about 0.27: a short box such as
    // softmax's could not hold its title at a readable size and drew none; it now spreads past
    // the box's sides. Open layers' frame titles were drawn only from 0.5 up.
    GraphStyle style;
    GraphNode node;
    node.kind = NodeKind::Compute;
    node.lines = { "softmax", "1x10xf32" };
    const QSizeF size = style.nodeSize(node);
    for (double lod : { 0.25, 0.3, 0.4 }) {
        const int margin = int(size.width() * lod);
        const QImage image = paintedAt(size, lod, QPoint(margin, 4), [&](QPainter &painter) {
            NodeVisual v;
            v.rect = QRectF(QPointF(0, 0), size);
            v.lines = { QStringLiteral("softmax"), QStringLiteral("1x10xf32") };
            style.paintNode(&painter, v, lod);
        });
        QVERIFY2(darkPixels(image, image.rect().adjusted(margin + 2, 6, -margin - 2, -6)) > 3,
            qPrintable(QStringLiteral("no title at lod %1").arg(lod)));
    }
    LayerGroup group;
    group.label = "Linear_1";
    group.ops = 2;
    const QSizeF frame = style.frameSize(QSizeF(120, 200), group);
    for (double lod : { 0.32, 0.45 }) {
        const QImage image = paintedAt(frame, lod, QPoint(4, 4), [&](QPainter &painter) {
            GroupVisual g;
            g.rect = QRectF(QPointF(0, 0), frame);
            g.title = QString::fromStdString(group.label);
            g.detail = GraphStyle::groupDetail(group);
            g.expanded = true;
            style.paintGroup(&painter, g, lod);
        });
        // The title band right of the toggle: text, where before only the frame's border was.
        const QRect band(int(4 + 20 * lod), 4 + 2, int(frame.width() * lod * 0.6),
            int(style.frameTitleHeight() * lod) - 2);
        QVERIFY2(
            darkPixels(image, band) > 3, qPrintable(QStringLiteral("no frame title at lod %1").arg(lod)));
    }
}

void TestGraphNavigation::exportDrawsTheWholeGraph()
{
    Layers net(5);
    GraphView view;
    view.resize(600, 400);
    QVERIFY(showAndWait(view, net.model));
    view.collapseAll();
    QVERIFY(waitForLayout(view));
    QTemporaryDir dir;
    // Whole: every op's title is text in the SVG, although the view shows closed layers.
    const QString svg = dir.filePath(QStringLiteral("graph.svg"));
    QString error;
    QVERIFY2(view.exportGraph(svg, false, &error), qPrintable(error));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    for (const GraphNode &n : net.model->nodes)
        if (!n.ghost && n.op)
            QVERIFY2(text.contains(QStringLiteral(">%1<").arg(QString::fromStdString(n.lines.front())))
                    || text.contains(QString::fromStdString(n.lines.front())),
                n.lines.front().c_str());
    QCOMPARE(text.count(QStringLiteral(">relu<")), 5);
    // As shown: the closed layer's box, none of its ops.
    const QString shown = dir.filePath(QStringLiteral("shown.svg"));
    QVERIFY(view.exportGraph(shown, true, &error));
    QFile shownFile(shown);
    QVERIFY(shownFile.open(QIODevice::ReadOnly));
    const QString shownText = QString::fromUtf8(shownFile.readAll());
    QVERIFY(shownText.contains(QStringLiteral("Net")));
    QCOMPARE(shownText.count(QStringLiteral(">relu<")), 0);
    // PNG of the whole graph, at twice the scale.
    const QString png = dir.filePath(QStringLiteral("graph.png"));
    QVERIFY(view.exportGraph(png, false, &error));
    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.height() > image.width()); // a top-down chain
}

void TestGraphNavigation::benchmarkGroupedLayout()
{
    // The whole of a 2,000-op transformer laid out per group, from a cold cache. Reported, not
    // asserted (bench layout gives the figures with a flat baseline).
    SyntheticProgram::Model m = SyntheticProgram::transformer(40);
    auto model = std::make_shared<const GraphModel>(GraphBuilder().build(*m.program));
    GraphvizLayout layout;
    std::shared_ptr<const GraphLayout> result;
    QBENCHMARK_ONCE
    {
        layout.clearCache();
        QString error;
        result = layout.layoutNow(model, GroupExpansion::all(*model), -1, &error);
    }
    QVERIFY(result);
    qInfo("%zu ops in %zu groups: %d group layouts, %.3f s in Graphviz, %.3f s in all", model->opNodeCount(),
        model->groups.size(), result->graphvizRuns, result->graphvizSeconds, result->seconds);
}

QTEST_MAIN(TestGraphNavigation)
#include "tst_graphnavigation.moc"
