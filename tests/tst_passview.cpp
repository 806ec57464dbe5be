#include "core/io/paddlepasslog.h"
#include "core/io/pirtextreader.h"
#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/deadcodeelimination.h"
#include "core/transform/passmanager.h"
#include "core/transform/passpipeline.h"
#include "core/transform/passtimeline.h"
#include "core/transform/passtimelinerecorder.h"
#include "passprograms.h"
#include "ui/graphedgeitem.h"
#include "ui/graphgroupitem.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowpasses.h"
#include "ui/passdiffview.h"
#include "ui/passlistmodel.h"
#include "ui/passpanel.h"
#include "ui/passtextdiffview.h"
#include "ui/passtimelinemodel.h"
#include "ui/passtimelinerunner.h"
#include "ui/passview.h"
#include "ui/pipelinerunner.h"
#include "ui/programdocument.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSlider>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTreeView>
#include <QtTest>

using namespace ps;

namespace {

QString logPath(const char *name)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle_logs/") + QLatin1String(name);
}

std::shared_ptr<PassTimeline> logTimeline(const char *name)
{
    DiagnosticList d;
    auto index = PaddlePassLog::index(logPath(name).toStdString(), d);
    return index ? PassTimeline::fromLog(index) : nullptr;
}

int stepNamed(const PassTimeline &t, const std::string &pass)
{
    for (size_t i = 0; i < t.size(); ++i)
        if (t.step(i).pass == pass)
            return int(i);
    return -1;
}

/// Shows `step` and waits until its diff is on screen and laid out.
bool showStep(PassView &view, int step)
{
    QSignalSpy laidOut(view.graphDiff()->graphView(), &GraphView::layoutFinished);
    view.setCurrentStep(step);
    if (!QTest::qWaitFor([&] { return view.shownStep() == step; }, 30000))
        return false;
    if (!view.graphDiff()->diffGraph())
        return true; // a message, no graph
    return QTest::qWaitFor(
        [&] { return !laidOut.isEmpty() && !view.graphDiff()->graphView()->isLayoutRunning(); }, 60000);
}

GraphNodeItem *nodeOf(PassDiffView &view, std::string_view opName)
{
    for (GraphNodeItem *item : view.graphView()->graphScene()->nodeItems())
        if (item && !item->isGhost() && item->op() && item->op()->name() == opName)
            return item;
    return nullptr;
}

/// Writes passprograms::kRedundant to `dir` and returns its path.
QString writeRedundant(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("redundant.txt"));
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(passprograms::kRedundant);
    return path;
}

} // namespace

class TestPassView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (!QFile::exists(logPath("conv_gpu_passes.log")))
            QSKIP("tests/fixtures/paddle_logs is missing");
    }

    void timelineTableAndSlider()
    {
        const auto timeline = logTimeline("conv_gpu_passes.log");
        QVERIFY(timeline && timeline->size() > 5);
        PassView view;
        view.resize(1000, 700);
        view.show();
        view.setTimeline(timeline, false);
        QCOMPARE(view.model()->rowCount(), int(timeline->size()));
        QCOMPARE(view.slider()->maximum(), int(timeline->size()) - 1);
        QVERIFY(!(view.model()->flags(view.model()->index(0, PassTimelineModel::PassColumn))
            & Qt::ItemIsUserCheckable));
        // The slider moves the selection, and the selection the slider.
        view.slider()->setValue(3);
        QCOMPARE(view.currentStep(), 3);
        QCOMPARE(view.table()->currentIndex().row(), 3);
        view.table()->setCurrentIndex(view.model()->index(5, 1));
        QCOMPARE(view.slider()->value(), 5);
        // Every step's counts are filled in, off the UI thread.
        QSignalSpy finished(&view, &PassView::countsFinished);
        QVERIFY(finished.wait(60000) || finished.count() == 1);
        const int fuse = stepNamed(*timeline, "conv2d_add_act_fuse_pass");
        QVERIFY(fuse >= 0);
        const QString changes = view.model()->index(fuse, PassTimelineModel::ChangesColumn).data().toString();
        QVERIFY2(changes.contains(QStringLiteral("+1")), qPrintable(changes));
        QCOMPARE(view.model()->index(0, PassTimelineModel::ChangesColumn).data().toString(),
            QStringLiteral("no change"));
        // Paddle's match statistics are in the tooltip of the pass that printed them: the log's
        // "detected [1] subgraphs" follows conv2d_add_act_fuse_pass's dump; conv2d_add_fuse_pass
        // after it matched nothing and printed no statistics.
        const auto toolTip = [&](int row) {
            return view.model()->index(row, PassTimelineModel::PassColumn).data(Qt::ToolTipRole).toString();
        };
        QVERIFY2(toolTip(fuse).contains(QStringLiteral("detected [1] subgraphs")), qPrintable(toolTip(fuse)));
        const int add = stepNamed(*timeline, "conv2d_add_fuse_pass");
        QVERIFY(add > fuse);
        QVERIFY2(!toolTip(add).contains(QStringLiteral("detected")), qPrintable(toolTip(add)));
    }

    void graphDiffMarksAndModes()
    {
        const auto timeline = logTimeline("conv_gpu_passes.log");
        PassView view;
        view.resize(1200, 800);
        view.show();
        view.setTimeline(timeline, false);
        const int fuse = stepNamed(*timeline, "conv2d_add_act_fuse_pass");
        QVERIFY(showStep(view, fuse));
        PassDiffView &diff = *view.graphDiff();
        QVERIFY(diff.diffGraph());
        // conv2d + add + relu became one fused_conv2d_add_act: red, red, red and green.
        GraphNodeItem *fused = nodeOf(diff, "pd_op.fused_conv2d_add_act");
        GraphNodeItem *relu = nodeOf(diff, "pd_op.relu");
        QVERIFY(fused && relu);
        QCOMPARE(fused->marks().change, NodeMarks::Change::Added);
        QCOMPARE(relu->marks().change, NodeMarks::Change::Removed);
        QVERIFY(fused->lines().last().contains(QStringLiteral("relu")));
        QVERIFY(view.stepLabel()->text().contains(QStringLiteral("conv2d_add_act_fuse_pass")));
        // The three pictures share one layout: nothing moves, the other side's ops fade. (The
        // node's box is compared, not its bounding rect: marks add room for a badge above it.)
        const auto box = [](const GraphNodeItem *n) { return n->mapRectToScene(n->rect()); };
        const QRectF fusedRect = box(fused);
        const QRectF reluRect = box(relu);
        diff.setMode(PassDiffView::Mode::After);
        QVERIFY(relu->marks().faded);
        QVERIFY(relu->opacity() < 0.5);
        QVERIFY(!fused->marks().faded);
        QCOMPARE(fused->marks().change, NodeMarks::Change::None);
        diff.setMode(PassDiffView::Mode::Before);
        QVERIFY(fused->marks().faded && !relu->marks().faded);
        QCOMPARE(box(fused), fusedRect);
        QCOMPARE(box(relu), reluRect);
        int fadedEdges = 0;
        for (GraphEdgeItem *e : diff.graphView()->graphScene()->edgeItems())
            fadedEdges += e && e->opacity() < 0.5;
        QVERIFY(fadedEdges > 0);
        diff.setMode(PassDiffView::Mode::Diff);
        QVERIFY(!relu->marks().faded);
        // Selecting the fused op highlights the ops it was made from.
        diff.selectOp(fused->op());
        QVERIFY(relu->isHighlighted());
        QVERIFY(diff.selectionText().contains(QStringLiteral("made from")));
        QVERIFY(diff.selectionText().contains(QStringLiteral("pd_op.relu")));
        // And the text diff shows the same step.
        const QString text = view.textDiff()->text();
        QVERIFY(text.contains(QStringLiteral("- ")));
        QVERIFY(text.contains(QStringLiteral("+ ")));
        QVERIFY(text.contains(QStringLiteral("fused_conv2d_add_act")));
        view.textDiff()->setChangesOnly(false);
        QVERIFY(view.textDiff()->text().contains(QStringLiteral("builtin.parameter")));
    }

    void changedLayersOpenAndCount()
    {
        // PP-OCRv5 det through inference-gpu: conv2d_add_fuse_pass rewrites 43 conv2d + add
        // deep in closed layers. The layers it changed open by themselves; a closed one carries
        // the counts of what changed inside it; F8 / Shift+F8 step through the changes.
        const QString path
            = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/PP-OCRv5_mobile_det_infer.inference.json");
        if (!QFile::exists(path))
            QSKIP("../shared/samples is absent");
        LoadResult loaded = loadProgram(path.toStdString());
        QVERIFY(loaded.ok());
        std::string error;
        std::optional<PassManager> pm = PassPipeline::build("inference-gpu", {}, error);
        QVERIFY2(pm, error.c_str());
        const std::shared_ptr<PassTimeline> timeline = PassTimelineRecorder::run(*pm, *loaded.program);
        const int fuse = stepNamed(*timeline, "conv2d_add_fuse_pass");
        QVERIFY(fuse >= 0);
        PassView view;
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTimeline(timeline, false);
        QVERIFY(showStep(view, fuse));
        PassDiffView &diff = *view.graphDiff();
        GraphScene *scene = diff.graphView()->graphScene();
        const std::vector<int> &changes = diff.changeNodes();
        QVERIFY(changes.size() >= 86 + 43);
        // Every change is drawn itself (its layers opened) or counted on the closed box around it.
        int shown = 0;
        int removedInside = 0, addedInside = 0;
        for (int node : changes)
            shown += scene->nodeItems()[size_t(node)] != nullptr;
        for (GraphGroupItem *g : scene->groupItems()) {
            if (!g || g->isExpanded())
                continue;
            removedInside += g->marks().removedInside;
            addedInside += g->marks().addedInside;
        }
        QVERIFY2(shown > int(changes.size()) / 2, qPrintable(QString::number(shown)));
        int drawnRemoved = 0, drawnAdded = 0;
        for (GraphNodeItem *item : scene->nodeItems()) {
            if (!item || item->isGhost())
                continue;
            drawnRemoved += item->marks().change == NodeMarks::Change::Removed;
            drawnAdded += item->marks().change == NodeMarks::Change::Added;
        }
        QVERIFY(drawnRemoved > 0 && drawnAdded > 0);
        QCOMPARE(drawnRemoved + removedInside, 86);
        QCOMPARE(drawnAdded + addedInside, 43);
        // The first picture is centred on the first change.
        const QRectF visible
            = diff.graphView()->mapToScene(diff.graphView()->viewport()->rect()).boundingRect();
        QVERIFY(scene->visibleItemForNode(changes.front()));
        QVERIFY(visible.intersects(scene->visibleItemForNode(changes.front())->sceneBoundingRect()));

        // F8 from the table (where the focus is) selects the first change, readable and in view.
        view.table()->setFocus();
        QSignalSpy selected(&diff, &PassDiffView::opSelected);
        QTest::keyClick(view.table(), Qt::Key_F8);
        QCOMPARE(diff.currentChange(), 0);
        QVERIFY(QTest::qWaitFor([&] { return !selected.isEmpty(); }, 30000));
        const auto inView = [&](int node) {
            GraphNodeItem *item = scene->nodeItems()[size_t(node)];
            const QRectF seen
                = diff.graphView()->mapToScene(diff.graphView()->viewport()->rect()).boundingRect();
            return item && seen.contains(item->sceneBoundingRect().center());
        };
        QVERIFY(inView(changes[0]));
        QVERIFY(diff.graphView()->zoom() >= GraphView::kReadableZoom - 1e-6);
        QCOMPARE(scene->selectedOp(), scene->model()->nodes[size_t(changes[0])].op);
        // The last change, far from the first: Shift+F8 wraps around to it.
        QTest::keyClick(view.table(), Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(diff.currentChange(), int(changes.size()) - 1);
        QVERIFY(QTest::qWaitFor(
            [&] { return inView(changes.back()) && !diff.graphView()->isLayoutRunning(); }, 30000));
        QCOMPARE(scene->selectedOp(), scene->model()->nodes[size_t(changes.back())].op);
        QVERIFY(diff.selectionText().contains(QStringLiteral("removed"))
            || diff.selectionText().contains(QStringLiteral("added"))
            || diff.selectionText().contains(QStringLiteral("changed")));

        // The text diff: kept lines in both numberings where they differ, removed ones in the
        // before program's own.
        view.textDiff()->setChangesOnly(true);
        const QString text = view.textDiff()->text();
        QVERIFY2(text.contains(QStringLiteral("\u2192%")), qPrintable(text.left(2000)));
        // With the text diff in front, F8 steps through its changed lines, the graph stays.
        view.tabs()->setCurrentWidget(view.textDiff());
        const int graphChange = diff.currentChange();
        QPlainTextEdit *editor = view.textDiff()->editor();
        editor->moveCursor(QTextCursor::Start);
        QTest::keyClick(view.table(), Qt::Key_F8);
        const QString first = editor->textCursor().block().text();
        QVERIFY2(first.startsWith(QStringLiteral("- ")) || first.startsWith(QStringLiteral("+ "))
                || first.startsWith(QStringLiteral("~-")),
            qPrintable(first));
        const int firstLine = editor->textCursor().blockNumber();
        QTest::keyClick(view.table(), Qt::Key_F8);
        QVERIFY(editor->textCursor().blockNumber() > firstLine);
        QTest::keyClick(view.table(), Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(editor->textCursor().blockNumber(), firstLine);
        QCOMPARE(diff.currentChange(), graphChange);
        // The View menu's Pass Changes entries go the same way (PassView::goToChange).
        view.goToChange(1);
        QVERIFY(editor->textCursor().blockNumber() > firstLine);
        view.tabs()->setCurrentWidget(&diff);
        QCOMPARE(view.goToChange(1), (graphChange + 1) % int(changes.size()));
        QCOMPARE(diff.currentChange(), (graphChange + 1) % int(changes.size()));
    }

    void stepWithoutProgramBefore()
    {
        // dy2static prints only the program after its first pass.
        const auto timeline = logTimeline("dy2static_train.log");
        QVERIFY(timeline);
        PassView view;
        view.show();
        view.setTimeline(timeline, false);
        QVERIFY(!timeline->step(0).before);
        QVERIFY(showStep(view, 0));
        QVERIFY(!view.graphDiff()->diffGraph());
        QVERIFY(view.textDiff()->text().contains(QStringLiteral("does not show the program before")));
        QCOMPARE(view.model()->index(0, PassTimelineModel::ChangesColumn).data().toString(),
            QStringLiteral("\u2014"));
    }

    void openLogInMainWindow()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(MainWindowPasses::isPassLog(logPath("conv_infer_cpu.log")));
        QVERIFY(
            !MainWindowPasses::isPassLog(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/lenet/program.txt")));
        QVERIFY(w.openFile(logPath("conv_infer_cpu.log")));
        QCOMPARE(w.currentTab(), MainWindow::Tab::Passes);
        PassView *view = w.passes()->view();
        QVERIFY(view->timeline() && view->timeline()->logIndex());
        QVERIFY(w.passes()->logTimeline());
        // The window's program is the log's first one.
        QCOMPARE(w.document()->program().numOpsTotal(), view->timeline()->input()->opCount());
        QVERIFY(QTest::qWaitFor([&] { return view->shownStep() == 0; }, 30000));
        // A folder of per-pass dumps opens the same way.
        QVERIFY(w.openFile(logPath("perpass_dir")));
        QVERIFY(view->timeline()->logIndex());
        QCOMPARE(view->timeline()->size(), size_t(5));
        // A plain program afterwards brings PIRScope's own passes back.
        QTemporaryDir dir;
        const QString program = writeRedundant(dir);
        QVERIFY(w.openFile(program));
        QVERIFY(!w.passes()->logTimeline());
        QVERIFY(QTest::qWaitFor([&] { return view->timeline() && !view->timeline()->logIndex(); }, 30000));
    }

    void pipelineChoiceAndNumerics()
    {
        QTemporaryDir dir;
        const QString program = writeRedundant(dir);
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.openFile(program));
        PassTimelineRunner *runner = w.passes()->runner();
        PassView *view = w.passes()->view();
        QVERIFY(QTest::qWaitFor([&] { return runner->current() && !runner->isBusy(); }, 30000));
        // A small program is checked numerically by default: CSE (step 2) keeps the numbers.
        QVERIFY(runner->checkNumerics());
        QVERIFY(!view->numericsBox()->isHidden() && view->numericsBox()->isChecked());
        const QModelIndex cse = view->model()->index(1, PassTimelineModel::NumericsColumn);
        QVERIFY2(
            cse.data().toString().startsWith(QStringLiteral("\u2713")), qPrintable(cse.data().toString()));
        QVERIFY(cse.data(Qt::ToolTipRole).toString().contains(QStringLiteral("within tolerance")));

        // Paddle's CPU inference pipeline: its passes listed, those PIRScope lacks not run.
        QSignalSpy ready(runner, &PassTimelineRunner::timelineReady);
        const int cpu = view->pipelineBox()->findData(QStringLiteral("inference-cpu"));
        QVERIFY(cpu > 0);
        view->pipelineBox()->setCurrentIndex(cpu);
        emit view->pipelineBox()->activated(cpu);
        QVERIFY(ready.wait(30000));
        QCOMPARE(runner->pipelineName(), std::string("inference-cpu"));
        QCOMPARE(view->timeline()->size(), size_t(11)); // no params_sync_among_devices_pass on a CPU
        const int lowering = stepNamed(*view->timeline(), "pd_op_to_kernel_pass");
        QVERIFY(lowering >= 0);
        QCOMPARE(view->model()->index(lowering, PassTimelineModel::ChangesColumn).data().toString(),
            QStringLiteral("not implemented"));
        // The counts are computed off the UI thread after the timeline is shown ("\u2026" until
        // then): wait for them. The dead exp went, nothing else changed.
        const int dce = stepNamed(*view->timeline(), "dead_code_elimination_pass");
        const QModelIndex dceChanges = view->model()->index(dce, PassTimelineModel::ChangesColumn);
        QVERIFY(
            QTest::qWaitFor([&] { return dceChanges.data().toString() != QStringLiteral("\u2026"); }, 30000));
        QCOMPARE(dceChanges.data().toString(), QStringLiteral("\u22121"));

        // Switching the check off re-runs without it.
        view->numericsBox()->setChecked(false);
        QVERIFY(ready.wait(30000));
        QVERIFY(!view->timeline()->step(size_t(dce)).numerics);
    }

    void switchingAPassRecomputesDownstream()
    {
        QTemporaryDir dir;
        const QString program = writeRedundant(dir);
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.openFile(program));
        PassTimelineRunner *runner = w.passes()->runner();
        PassView *view = w.passes()->view();
        QVERIFY(QTest::qWaitFor([&] { return runner->current() && !runner->isBusy(); }, 30000));
        const auto first = runner->current();
        QCOMPARE(view->timeline(), first);
        QCOMPARE(first->size(), size_t(2)); // dce (off), cse (on)
        // Nothing switched yet: the Program tab shows the program as loaded.
        QCOMPARE(w.documentOf(ProgramSide::Origin), w.document());
        QVERIFY(view->model()->flags(view->model()->index(1, PassTimelineModel::PassColumn))
            & Qt::ItemIsUserCheckable);

        // Switch CSE (step 2) off in the pass view: only step 2 is recomputed.
        QSignalSpy ready(runner, &PassTimelineRunner::timelineReady);
        QVERIFY(view->model()->setData(
            view->model()->index(1, PassTimelineModel::PassColumn), Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(ready.wait(30000));
        QCOMPARE(runner->lastRunFrom(), size_t(1));
        const auto second = runner->current();
        QCOMPARE(second->step(0).after, first->step(0).after);
        QVERIFY(!second->step(1).enabled);
        QCOMPARE(view->timeline(), second);
        // The split pipeline follows the same switch.
        QVERIFY(QTest::qWaitFor([&] { return !w.pipelineRunner()->isBusy(); }, 30000));
        QCOMPARE(w.pipelineRunner()->passSwitches().at("common_subexpression_elimination_pass"), false);

        // Switch DCE on from the Passes dock: everything is recomputed, the Program tab shows
        // the result (the exp is gone).
        PassListModel *dock = w.passPanel()->model();
        QVERIFY(QTest::qWaitFor([&] { return dock->passRow(QStringLiteral("dce")) >= 0; }, 30000));
        QVERIFY(dock->setData(dock->index(dock->passRow(QStringLiteral("dce")), PassListModel::PassColumn),
            Qt::Checked, Qt::CheckStateRole));
        QVERIFY(ready.wait(30000));
        QCOMPARE(runner->lastRunFrom(), size_t(0));
        QVERIFY(runner->resultDocument());
        QCOMPARE(w.documentOf(ProgramSide::Origin), runner->resultDocument());
        QCOMPARE(w.documentOf(ProgramSide::Origin)->program().block().size(), size_t(7));
        auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("centralTabs"));
        QCOMPARE(tabs->tabText(0), QStringLiteral("Program (after passes)"));
        QVERIFY(QTest::qWaitFor(
            [&] {
                return w.graphView()->graphScene()->model()
                    == w.documentOf(ProgramSide::Origin)->graph().get();
            },
            30000));
        // Back to the defaults that change nothing... CSE on again: the result changes again.
        QVERIFY(dock->setData(dock->index(dock->passRow(QStringLiteral("dce")), PassListModel::PassColumn),
            Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(ready.wait(30000));
        QCOMPARE(w.documentOf(ProgramSide::Origin), w.document());
        QCOMPARE(tabs->tabText(0), QStringLiteral("Program"));
    }

    void switchingOneInstanceOfARepeatedPass()
    {
        // A pipeline may list a pass twice (inference-onednn: matmul_add_act_fuse_pass and
        // fc_onednn_enable_pass); the timeline's check box switches the instance on its row.
        LoadResult loaded = PirTextReader::readString(passprograms::kRedundant, "redundant.txt");
        QVERIFY(loaded.ok());
        PassTimelineRunner runner;
        runner.setPipeline([](const PassOptions &) {
            PassManager pm;
            pm.addPass(std::make_unique<DeadCodeElimination>(), true);
            pm.addPass(std::make_unique<DeadCodeElimination>(), true);
            return pm;
        });
        QSignalSpy ready(&runner, &PassTimelineRunner::timelineReady);
        runner.setInput(std::shared_ptr<const Program>(std::move(loaded.program)), QStringLiteral("r.txt"));
        QVERIFY(ready.wait(30000));
        QVERIFY(runner.current()->step(0).enabled && runner.current()->step(1).enabled);

        runner.setPassEnabledAt(1, false);
        QVERIFY(ready.wait(30000));
        QCOMPARE(runner.lastRunFrom(), size_t(1));
        QVERIFY(runner.current()->step(0).enabled);
        QVERIFY(!runner.current()->step(1).enabled);

        runner.setPassEnabledAt(0, false);
        QVERIFY(ready.wait(30000));
        QCOMPARE(runner.lastRunFrom(), size_t(0));
        QVERIFY(!runner.current()->step(0).enabled && !runner.current()->step(1).enabled);

        // By name (the Passes dock): every instance, and the per-row switches are forgotten.
        runner.setPassEnabled("dead_code_elimination_pass", true);
        QVERIFY(ready.wait(30000));
        QVERIFY(runner.current()->step(0).enabled && runner.current()->step(1).enabled);
        runner.setPassEnabledAt(7, false); // out of range: ignored
        QVERIFY(!runner.isBusy());
    }

    void passesDockChangesColumnIsNotCut()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.openFile(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/lenet")));
        QTreeView *tree = w.passPanel()->view();
        QVERIFY(QTest::qWaitFor(
            [&] { return !w.pipelineRunner()->isBusy() && w.passPanel()->model()->rowCount() > 0; }, 60000));
        for (int row = 0; row < w.passPanel()->model()->rowCount(); ++row) {
            const QString text
                = w.passPanel()->model()->index(row, PassListModel::ChangeColumn).data().toString();
            QVERIFY2(tree->header()->sectionSize(PassListModel::ChangeColumn)
                    >= tree->fontMetrics().horizontalAdvance(text),
                qPrintable(text));
        }
    }
};

QTEST_MAIN(TestPassView)
#include "tst_passview.moc"
