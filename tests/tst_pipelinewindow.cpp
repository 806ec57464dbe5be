#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "shapeinferenceprograms.h"
#include "ui/common/itemroles.h"
#include "ui/crossingvaluesmodel.h"
#include "ui/debugger/debugsession.h"
#include "ui/diagnosticsmodel.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/inplacegroupsmodel.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/oplistmodel.h"
#include "ui/oplistpanel.h"
#include "ui/passlistmodel.h"
#include "ui/passpanel.h"
#include "ui/pipelinerunner.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programattributesmodel.h"
#include "ui/programdocument.h"
#include "ui/programpickerpanel.h"
#include "ui/propertiesmodel.h"
#include "ui/splitview.h"
#include "ui/valuenamemapmodel.h"

#include <QAction>
#include <QLabel>
#include <QMimeData>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace ps;

namespace {

// w needs a gradient; the only output is arg_max's int64 index.
const char kArgmaxProgram[]
    = "{\n"
      "    (%0) = \"builtin.parameter\" () {parameter_name:\"w\",stop_gradient:[false]} : () -> "
      "tensor<4x3xf32>\n"
      "    (%1) = \"pd_op.data\" () "
      "{dtype:float32,name:\"x\",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> "
      "tensor<2x4xf32>\n"
      "    (%2) = \"pd_op.matmul\" (%1, %0) {stop_gradient:[false],transpose_x:false,transpose_y:false} : "
      "(tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>\n"
      "    (%3) = \"pd_op.full\" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : "
      "() -> tensor<1xi64>\n"
      "    (%4) = \"pd_op.argmax\" (%2, %3) {dtype:int64,flatten:false,keepdims:false,stop_gradient:[true]} "
      ": (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xi64>\n"
      "    (%5) = \"pd_op.fetch\" (%4) {col:0,name:\"out\"} : (tensor<2xi64>) -> tensor<2xi64>\n"
      "}\n";

const char *const kModels[] = { "mlp_ce", "lenet", "conv_bn_relu", "transformer_encoder", "inplace_chain",
    "pruned_param", "nested_output", "control_flow", "control_flow_if", "embedding_mean" };

QString bundleDir(const QString &model)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + model;
}

/// Waits for the pipeline of the current mode and, with the split tab shown, its two layouts.
bool waitForPipeline(MainWindow &w, int timeout = 60000)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeout) {
        if (w.snapshot() && !w.pipelineRunner()->isBusy()
            && (w.currentTab() != MainWindow::Tab::Split || !w.splitView()->isLayoutPending()))
            return true;
        QTest::qWait(20);
    }
    return false;
}

bool openSplit(MainWindow &w, const QString &path)
{
    if (!w.openFile(path))
        return false;
    w.showTab(MainWindow::Tab::Split);
    return waitForPipeline(w);
}

/// Writes `program` to `name` in `dir`, opens it in the split view of `w` (1200x800, shown) and
/// switches to a train step.
bool openTrainStep(MainWindow &w, const QTemporaryDir &dir, const QString &name, const QByteArray &program)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(program) != program.size())
        return false;
    f.close();
    w.resize(1200, 800);
    w.show();
    if (!openSplit(w, path))
        return false;
    w.setTraining(true);
    return waitForPipeline(w);
}

const Operation *nthOp(const ProgramDocument &doc, std::string_view name, int n = 0)
{
    for (const Operation *op : doc.program().block().ops())
        if (op->name() == name && n-- == 0)
            return op;
    return nullptr;
}

int highlightedOps(GraphScene *scene, std::vector<const Operation *> *ops = nullptr)
{
    int count = 0;
    for (GraphNodeItem *item : scene->nodeItems())
        if (item && item->isHighlighted() && item->op() && !item->isGhost()) {
            ++count;
            if (ops)
                ops->push_back(item->op());
        }
    return count;
}

} // namespace

/// MainWindow with trace bundles and the pipeline: opening every golden bundle, the train/infer
/// switch, the split view's cross highlighting, the program-attributes panel, the pass panel
/// and plain programs with nothing to differentiate.
class TestPipelineWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_pipelinewindow"));
        QSettings().clear();
        if (!QFileInfo::exists(bundleDir("mlp_ce") + "/manifest.json"))
            QSKIP("golden bundles missing");
    }

    void opensEveryBundle_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : kModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    /// Each golden bundle opens in the window (by folder), in train mode, with both split
    /// graphs laid out and the cut and attributes filled.
    void opensEveryBundle()
    {
        QFETCH(QString, model);
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy changed(&w, &MainWindow::documentChanged);
        QVERIFY(openSplit(w, bundleDir(model)));
        QCOMPARE(changed.count(), 1);
        QVERIFY(w.windowTitle().startsWith(model));
        QVERIFY(w.isTraining());
        QVERIFY(w.trainAction()->isChecked());
        const auto s = w.snapshot();
        QVERIFY2(s->ok(), qPrintable(s->notice));
        QVERIFY(s->training);
        QVERIFY(w.splitView()->forwardView()->graphScene()->nodeItems().size() > 0);
        QVERIFY(w.splitView()->backwardView()->graphScene()->nodeItems().size() > 0);
        QCOMPARE(w.splitView()->cutModel()->rowCount(), int(s->cut.size()));
        QVERIFY(!s->cut.empty());
        QCOMPARE(w.attributesModel()->rowCount(), 12);
        QVERIFY(w.pipelineStatusLabel()->text().contains(QStringLiteral("Train pipeline")));
        QVERIFY(w.splitView()->cutSummaryLabel()->text().contains(QStringLiteral("cross")));
        QVERIFY(!w.splitView()->noticeLabel()->isVisible());
    }

    /// The manifest path opens the same bundle; a drop of the folder too.
    void opensByManifestAndDrop()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(bundleDir("lenet") + "/manifest.json"));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("lenet")));
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(bundleDir("mlp_ce")) });
        QDragEnterEvent enter(w.rect().center(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy changed(&w, &MainWindow::documentChanged);
        QDropEvent drop(w.rect().center(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QCOMPARE(changed.count(), 1);
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("mlp_ce")));
        QVERIFY(waitForPipeline(w));
    }

    /// A broken bundle keeps the previous document and names the manifest and the JSON path.
    void brokenBundleKeepsDocument()
    {
        MainWindow w;
        QVERIFY(w.openFile(bundleDir("mlp_ce")));
        const auto before = w.document();
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("manifest.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"inputs\": [{\"name\": 3}], \"outputs\": []}");
        f.close();
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        QVERIFY(!w.openFile(dir.path()));
        QCOMPARE(failed.count(), 1);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(
            message.contains(QStringLiteral("manifest.json: at inputs[0].name: error: expected a string")),
            qPrintable(message));
        QCOMPARE(w.document(), before);
        QVERIFY(w.diagnosticsModel()->rowCount() > 0);
    }

    /// Train shows the backward appended; infer shows the forward alone (an empty backward).
    void trainInferSwitch()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(openSplit(w, bundleDir("mlp_ce")));
        const auto train = w.snapshot();
        QVERIFY(train->training);
        QCOMPARE(w.splitView()->snapshot(), train);
        QVERIFY(train->result.backward->numOps() > 0);
        const size_t trainForwardOps = train->result.forward->numOps();
        QSignalSpy changed(&w, &MainWindow::pipelineChanged);

        w.inferAction()->trigger();
        QVERIFY(!w.isTraining());
        QVERIFY(waitForPipeline(w));
        const auto infer = w.snapshot();
        QVERIFY(infer != train);
        QVERIFY(!infer->training);
        QCOMPARE(w.splitView()->snapshot(), infer);
        QCOMPARE(infer->result.backward->numOps(), size_t(0));
        QVERIFY(infer->result.forward->numOps() < trainForwardOps); // no middles to output
        QVERIFY(w.splitView()->cutModel()->rowCount() == 0);
        QVERIFY(w.pipelineStatusLabel()->text().contains(QStringLiteral("Infer pipeline")));
        QVERIFY(changed.count() >= 1);

        w.trainAction()->trigger();
        QVERIFY(waitForPipeline(w));
        QCOMPARE(w.snapshot(), train); // cached
        QCOMPARE(w.splitView()->forwardView()->graphScene()->model(), train->forward->graph().get());
    }

    /// Selecting a forward op highlights the grad ops made from it; selecting a grad op
    /// highlights its forward op.
    void forwardGradHighlight()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(openSplit(w, bundleDir("mlp_ce")));
        const auto s = w.snapshot();
        GraphScene *forward = w.splitView()->forwardView()->graphScene();
        GraphScene *backward = w.splitView()->backwardView()->graphScene();
        const Operation *matmul = nthOp(*s->forward, "pd_op.matmul", 1);
        const Operation *matmulGrad = nthOp(*s->backward, "pd_op.matmul_grad", 0);
        QVERIFY(matmul && matmulGrad);

        forward->itemForOp(matmul)->setSelected(true);
        std::vector<const Operation *> lit;
        QCOMPARE(highlightedOps(backward, &lit), 1);
        QCOMPARE(lit.front(), matmulGrad);
        QCOMPARE(w.activeSide(), ProgramSide::Forward);
        QCOMPARE(w.propertiesModel()->currentOp(), matmul);
        QCOMPARE(w.opListPanel()->model()->document(), s->forward.get());

        const Operation *reluGrad = nthOp(*s->backward, "pd_op.relu_grad");
        backward->itemForOp(reluGrad)->setSelected(true);
        lit.clear();
        QCOMPARE(highlightedOps(forward, &lit), 1);
        QCOMPARE(std::string(lit.front()->name()), std::string("pd_op.relu"));
        QCOMPARE(highlightedOps(backward), 0);
        QCOMPARE(w.activeSide(), ProgramSide::Backward);
        QCOMPARE(w.propertiesModel()->currentOp(), reluGrad);

        // The op list follows the backward program: picking a row selects and links too.
        QTableView *list = w.opListPanel()->view();
        const int row = w.opListPanel()->model()->rowOf(matmulGrad);
        list->selectionModel()->setCurrentIndex(
            list->model()->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(backward->itemForOp(matmulGrad)->isSelected());
        lit.clear();
        QCOMPARE(highlightedOps(forward, &lit), 1);
        QCOMPARE(lit.front(), matmul);

        // MainWindow::selectOp finds the op's program.
        w.selectOp(matmul);
        QVERIFY(forward->itemForOp(matmul)->isSelected());
        QCOMPARE(highlightedOps(backward), 1);
    }

    /// Clicking a program-attribute entry selects its value's producer (forward) or keyword
    /// argument node (backward) in the split graphs.
    void attributeClickSelects()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(openSplit(w, bundleDir("mlp_ce")));
        w.showTab(MainWindow::Tab::Program);
        const auto s = w.snapshot();
        ProgramAttributesModel *m = w.attributesModel();
        QTreeView *view = w.attributesView();
        const QModelIndex fm = m->index(m->keyRow("fm"), 0);
        const QModelIndex middle = m->index(1, 0, fm);
        view->selectionModel()->setCurrentIndex(
            middle, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(w.currentTab(), MainWindow::Tab::Split);
        const Value v = valueFromIndex(middle);
        GraphScene *forward = w.splitView()->forwardView()->graphScene();
        QVERIFY(forward->itemForOp(v.definingOp())->isSelected());
        QCOMPARE(w.propertiesModel()->currentValue(), v);
        QCOMPARE(w.activeSide(), ProgramSide::Forward);

        const QModelIndex bp = m->index(m->keyRow("bp"), 0);
        const QModelIndex param = m->index(0, 0, bp);
        view->selectionModel()->setCurrentIndex(
            param, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const Value kw = valueFromIndex(param);
        GraphScene *backward = w.splitView()->backwardView()->graphScene();
        GraphNodeItem *node = backward->itemForValue(kw);
        QVERIFY(node);
        QVERIFY(node->isSelected());
        QCOMPARE(w.activeSide(), ProgramSide::Backward);
        QCOMPARE(w.propertiesModel()->currentValue(), kw);

        // The cut: picking a row selects the forward value and highlights the backward kwarg.
        QTableView *cut = w.splitView()->cutView();
        cut->selectionModel()->setCurrentIndex(
            cut->model()->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(backward->itemForValue(s->cut[0].backward)->isHighlighted());
        QCOMPARE(w.propertiesModel()->currentValue(), s->cut[0].forward);
    }

    /// Value names and inplace groups follow the program last clicked and can be picked.
    void namesAndInplaceOverBothPrograms()
    {
        MainWindow w;
        w.show();
        QVERIFY(openSplit(w, bundleDir("inplace_chain")));
        const auto s = w.snapshot();
        w.selectOp(s->forward->ops().back());
        QCOMPARE(w.activeSide(), ProgramSide::Forward);
        QCOMPARE(w.valueNamesPicker()->side(), ProgramSide::Forward);
        QCOMPARE(w.valueNameMapModel()->rowCount(), int(s->forward->nameMap().entries().size()));
        QCOMPARE(w.inplaceGroupsModel()->document(), s->forward.get());
        QVERIFY(w.inplaceGroupsModel()->rowCount() > 0);
        w.valueNamesPicker()->setSide(ProgramSide::Backward);
        QCOMPARE(w.valueNameMapModel()->rowCount(), int(s->backward->nameMap().entries().size()));
        w.selectOp(w.document()->ops().front());
        QCOMPARE(w.activeSide(), ProgramSide::Origin);
        QCOMPARE(w.valueNamesPicker()->side(), ProgramSide::Origin);
        QCOMPARE(w.valueNameMapModel()->rowCount(), int(w.document()->nameMap().entries().size()));
    }

    /// Switching CSE off in the pass panel recomputes: lenet's forward gets its op back.
    void passToggleRecomputes()
    {
        MainWindow w;
        w.show();
        QVERIFY(openSplit(w, bundleDir("lenet")));
        const auto before = w.snapshot();
        PassListModel *passes = w.passPanel()->model();
        const QModelIndex cse = passes->index(passes->passRow(QStringLiteral("cse")), 0);
        QCOMPARE(cse.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);
        QSignalSpy changed(&w, &MainWindow::pipelineChanged);
        QVERIFY(passes->setData(cse, Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(w.pipelineRunner()->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(changed.count() >= 1 && !w.pipelineRunner()->isBusy(), 30000);
        const auto after = w.snapshot();
        QVERIFY(after != before);
        QCOMPARE(after->result.forward->numOpsTotal(), before->result.forward->numOpsTotal() + 1);
        QVERIFY(after->result.passLog.empty());
        const QModelIndex cseAfter = passes->index(passes->passRow(QStringLiteral("cse")), 0);
        QCOMPARE(cseAfter.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked);
        QCOMPARE(w.splitView()->snapshot(), after);
    }

    /// A plain program: inputs, parameters and outputs from its ops; in train mode a program
    /// with nothing to differentiate says so.
    void plainProgramNothingToDifferentiate()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("frozen.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({
    (%0) = "builtin.parameter" () {parameter_name:"w",stop_gradient:[true]} : () -> tensor<4x3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%2) = "pd_op.matmul" (%1, %0) {stop_gradient:[true],transpose_x:false,transpose_y:false} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"out"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
)");
        f.close();
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(openSplit(w, path));
        QVERIFY(!w.isTraining()); // a plain program opens in infer mode
        QVERIFY(w.snapshot()->ok());
        QVERIFY(w.snapshot()->notice.startsWith(QStringLiteral("Infer mode")));
        w.setTraining(true);
        QVERIFY(waitForPipeline(w));
        QVERIFY(w.snapshot()->training);
        QCOMPARE(w.snapshot()->notice,
            QStringLiteral("Nothing to differentiate: the 1 input and 1 parameter are all "
                           "stop_gradient, so the backward program is empty. paddle.jit.save writes "
                           "inference programs this way; a trace bundle or a print of the program "
                           "being trained has the gradients."));
        QVERIFY(w.splitView()->noticeLabel()->isVisible());
        QCOMPARE(w.splitView()->noticeLabel()->text(), w.snapshot()->notice);
    }

    /// A train step of a program with a dynamic input: the middle's bytes are "dynamic" until the
    /// input has a shape, then concrete (inferred), and the cut's kept total says so.
    void cutBytesFromInferredShapes()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(openTrainStep(
            w, dir, QStringLiteral("two_layers.txt"), QByteArray::fromStdString(shapeprograms::kTwoLayers)));
        QVERIFY(w.snapshot()->training && w.snapshot()->ok());
        const CrossingValuesModel *cut = w.splitView()->cutModel();
        auto middleBytes = [cut]() {
            for (int r = 0; r < cut->rowCount(); ++r)
                if (cut->index(r, CrossingValuesModel::RoleColumn).data().toString()
                    == QStringLiteral("middle"))
                    return cut->index(r, CrossingValuesModel::BytesColumn).data().toString();
            return QString();
        };
        QTRY_COMPARE(middleBytes(), QStringLiteral("dynamic"));
        DebugSession *session = w.debugger()->session();
        DebugSources sources = session->sources();
        sources.shapes["x"] = { 16, 8 };
        session->setSources(sources);
        QTRY_COMPARE(middleBytes(), QStringLiteral("256 B"));
        QTRY_VERIFY2(w.splitView()->cutSummaryLabel()->text().contains(
                         QStringLiteral("sizes inferred from the input shapes")),
            qPrintable(w.splitView()->cutSummaryLabel()->text()));
    }

    /// A parameter needs a gradient but the only output is an integer: the notice says the
    /// output does not depend on it, not that nothing is differentiable.
    void integerOutputHasNoBackward()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(openTrainStep(w, dir, QStringLiteral("argmax.txt"), kArgmaxProgram));
        QVERIFY(w.snapshot()->ok());
        QCOMPARE(w.snapshot()->notice,
            QStringLiteral("The backward program is empty: its output does not depend on an input or "
                           "parameter that needs a gradient (every path goes through stop_gradient "
                           "or integer values)."));
    }
};

QTEST_MAIN(TestPipelineWindow)
#include "tst_pipelinewindow.moc"
