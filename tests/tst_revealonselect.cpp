#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/common/itemroles.h"
#include "ui/crossingvaluesmodel.h"
#include "ui/graphgroupitem.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/opfilterproxymodel.h"
#include "ui/oplistmodel.h"
#include "ui/oplistpanel.h"
#include "ui/pipelinerunner.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"
#include "ui/splitview.h"

#include <QItemSelectionModel>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using namespace ps;

namespace {

QString detPath()
{
    return QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/PP-OCRv5_mobile_det_infer.inference.json");
}

/// Whether `op` is drawn by its own node, wholly in `view`'s viewport, at a readable zoom, with
/// no layout on its way.
bool readableInView(GraphView *view, const Operation *op)
{
    if (view->isLayoutRunning())
        return false;
    GraphNodeItem *item = view->graphScene()->itemForOp(op);
    if (!item || view->zoom() < GraphView::kReadableZoom - 1e-6)
        return false;
    const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    return visible.contains(item->sceneBoundingRect().center());
}

/// Whether the graph's first picture is on screen (laid out, nothing pending).
bool laidOut(GraphView *view)
{
    return view->graphScene()->graphLayout() && !view->isLayoutRunning();
}

/// The `n`th top-level op named `name` of `program`.
const Operation *nthOp(const Program &program, std::string_view name, int n)
{
    for (const Operation *op : program.block().ops())
        if (op->name() == name && n-- == 0)
            return op;
    return nullptr;
}

/// Whether `op` is inside a closed layer of `view` (drawn only as its layer's box).
bool hiddenInClosedLayer(GraphView *view, const Operation *op)
{
    GraphScene *scene = view->graphScene();
    const int node = scene->nodeOfOp(op);
    return node >= 0 && !scene->itemForOp(op) && scene->visibleItemForNode(node)
        && scene->visibleItemForNode(node)->type() == GraphGroupItem::Type;
}

void selectRow(QTableView *list, int row)
{
    list->selectionModel()->setCurrentIndex(
        list->model()->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

} // namespace

/// Selecting an op or value in any panel opens the layers around it and brings it into view,
/// readable, in its graph; in the split view a forward op brings its grad ops into view in the
/// backward pane and back; Enter on an Ops row drills in. On PP-OCRv5 det at 1280x720, whose
/// layers open closed.
class TestRevealOnSelect : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (!QFile::exists(detPath()))
            QSKIP("../shared/samples is absent");
    }

    void opsListAndValuesOpenTheLayers()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(detPath()));
        GraphView *view = w.graphView();
        QVERIFY(QTest::qWaitFor([&] { return laidOut(view); }, 60000));
        const Program &program = w.document()->program();
        // A hardswish deep in the backbone: in a closed layer of the first picture.
        const Operation *deep = nthOp(program, "pd_op.hardswish", 8);
        QVERIFY(deep);
        QVERIFY(hiddenInClosedLayer(view, deep));

        // The Ops list: the layers open and the op is centred, readable.
        QTableView *list = w.opListPanel()->view();
        const auto rowOf = [&](const Operation *op) {
            return w.opListPanel()
                ->proxy()
                ->mapFromSource(w.opListPanel()->model()->index(w.opListPanel()->model()->rowOf(op), 0))
                .row();
        };
        selectRow(list, rowOf(deep));
        QVERIFY(QTest::qWaitFor([&] { return readableInView(view, deep); }, 30000));
        QVERIFY(view->graphScene()->itemForOp(deep)->isSelected());

        // A value picked in a panel (the debugger's Values, a watch, the inspector) likewise: one
        // made at the far end of the program, in a layer still closed.
        const Operation *far = nthOp(program, "pd_op.sigmoid", 0);
        QVERIFY(far);
        QVERIFY(hiddenInClosedLayer(view, far));
        w.selectValue(far->result(0));
        QVERIFY(QTest::qWaitFor([&] { return readableInView(view, far); }, 30000));

        // Enter on an Ops row drills in: the op in view, the graph has the keys.
        const Operation *other = nthOp(program, "pd_op.hardswish", 2);
        list->setFocus();
        selectRow(list, rowOf(other));
        QTest::keyClick(list, Qt::Key_Return);
        QVERIFY(QTest::qWaitFor([&] { return readableInView(view, other); }, 30000));
        QVERIFY(view->hasFocus());

        // A pick in the graph leaves it where it is.
        const QPointF centre = view->mapToScene(view->viewport()->rect().center());
        GraphNodeItem *item = view->graphScene()->itemForOp(other);
        item->setSelected(false);
        item->setSelected(true);
        QCOMPARE(view->mapToScene(view->viewport()->rect().center()), centre);
    }

    void forwardOpBringsItsGradOpsIntoView()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(detPath()));
        w.setTraining(true);
        w.showTab(MainWindow::Tab::Split);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return w.snapshot() && w.snapshot()->ok() && !w.pipelineRunner()->isBusy()
                    && !w.splitView()->isLayoutPending();
            },
            120000));
        const auto s = w.snapshot();
        GraphView *forward = w.splitView()->forwardView();
        GraphView *backward = w.splitView()->backwardView();
        // A forward op deep in the backbone whose grad ops are in closed layers of the backward.
        const Operation *op = nullptr;
        std::vector<const Operation *> grads;
        int seen = 0;
        for (const Operation *candidate : s->forward->program().block().ops()) {
            auto it = s->gradOpsOf.find(candidate);
            if (candidate->name() != "pd_op.add" || it == s->gradOpsOf.end() || it->second.empty()
                || seen++ < 20)
                continue;
            op = candidate;
            grads = it->second;
            break;
        }
        QVERIFY(op);
        QVERIFY(hiddenInClosedLayer(backward, grads.front()));

        w.selectOp(op);
        QVERIFY(QTest::qWaitFor(
            [&] { return readableInView(forward, op) && readableInView(backward, grads.front()); }, 30000));
        QVERIFY(backward->graphScene()->itemForOp(grads.front())->isHighlighted());

        // And back: a grad op picked in the backward pane brings its forward op into view.
        const Operation *other = nullptr;
        const Operation *otherGrad = nullptr;
        for (const auto &[fwd, gradOps] : s->gradOpsOf)
            if (!gradOps.empty() && hiddenInClosedLayer(forward, fwd) && fwd->name() == "pd_op.conv2d") {
                other = fwd;
                otherGrad = gradOps.front();
                break;
            }
        QVERIFY(other && otherGrad);
        w.selectOp(otherGrad);
        QVERIFY(QTest::qWaitFor(
            [&] { return readableInView(backward, otherGrad) && readableInView(forward, other); }, 30000));
        QVERIFY(forward->graphScene()->itemForOp(other)->isHighlighted());

        // The crossing-values table: the forward value's producer comes into view.
        QTableView *cut = w.splitView()->cutView();
        const Operation *producer = nullptr;
        for (int row = 0; row < cut->model()->rowCount() && !producer; ++row) {
            const Value v = valueFromIndex(cut->model()->index(row, 0));
            if (v && v.definingOp() && v.definingOp()->name() == "pd_op.hardswish"
                && hiddenInClosedLayer(forward, v.definingOp())) {
                producer = v.definingOp();
                cut->setCurrentIndex(cut->model()->index(row, 0));
            }
        }
        QVERIFY(producer);
        QVERIFY(QTest::qWaitFor([&] { return readableInView(forward, producer); }, 30000));
    }
};

QTEST_MAIN(TestRevealOnSelect)
#include "tst_revealonselect.moc"
