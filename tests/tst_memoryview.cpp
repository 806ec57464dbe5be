#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/memorymodel.h"
#include "debugwait.h"
#include "pipelinewait.h"
#include "ui/common/elidedlabel.h"
#include "ui/crossingvaluesmodel.h"
#include "ui/debugger/debugsession.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowmemory.h"
#include "ui/memorychart.h"
#include "ui/memorypanel.h"
#include "ui/memoryvaluesmodel.h"
#include "ui/pipelinerunner.h"
#include "ui/pipelinesnapshot.h"
#include "ui/selectionmodel.h"
#include "ui/splitview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using namespace ps;

/// The Memory dock: the memory model of the programs shown, charted op by op; a click selects the
/// op, the debugger's position is marked.
class TestMemoryView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_memoryview"));
        QSettings().clear();
    }

    /// A train step of the MLP Paddle was measured on: the dock shows the same report as the
    /// CLI, and clicking the peak selects the op there.
    void chartShowsTheTrainStepAndSelects()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openAndWaitForPipeline(w, QStringLiteral(PIRSCOPE_FIXTURES_DIR "/memory/mlp")));
        MainWindowMemory *memory = w.memory();
        QVERIFY(!memory->dock()->isVisible());
        QVERIFY(!memory->report()); // computed when the dock is shown
        memory->dock()->show();
        QTRY_VERIFY(memory->report());
        const MemoryReport expected = MemoryModel::train(w.snapshot()->result);
        const MemoryReport &shown = *memory->report();
        QCOMPARE(shown.peakBytes, expected.peakBytes);
        QCOMPARE(shown.peakOp, std::string("bwd:6"));
        QCOMPARE(shown.timeline.size(), expected.timeline.size());
        QVERIFY(memory->panel()->summary()->text().contains(QStringLiteral("peak 6.34 MB at bwd:6")));
        QVERIFY(
            memory->panel()->summary()->text().contains(QStringLiteral("kept after the forward 2.12 MB")));

        // The snapshot carries the model (computed on the pipeline's thread), and the cut's "kept"
        // is what the forward leaves for the backward.
        QCOMPARE(w.snapshot()->memory.get(), memory->report().get());
        QVERIFY2(w.splitView()->cutSummaryLabel()->text().contains(
                     CrossingValuesModel::bytesText(shown.keptAfterForwardBytes) + QStringLiteral(" kept")),
            qPrintable(w.splitView()->cutSummaryLabel()->text()));

        // The timeline's ops: the forward's then the backward's.
        const Operation *first = memory->opAt(0);
        QVERIFY(first);
        QCOMPARE(memory->opAt(long(shown.cut))->parentBlock(),
            w.snapshot()->result.backward->block().ops()[0]->parentBlock());
        QVERIFY(!memory->opAt(long(shown.timeline.size())));

        // A click on the peak selects its op (matmul_grad in the backward).
        MemoryChart *chart = memory->panel()->chart();
        QTRY_VERIFY(chart->width() > 100);
        long peak = -1;
        for (size_t i = 0; i < shown.timeline.size(); ++i)
            if (shown.timeline[i].op == shown.peakOp)
                peak = long(i);
        QVERIFY(peak > long(shown.cut));
        const QPoint at(int(chart->xOf(peak)), int(chart->plotRect().center().y()));
        QCOMPARE(chart->indexAt(at.x()), peak);
        QTest::mouseClick(chart, Qt::LeftButton, {}, at);
        QVERIFY(w.selection()->currentOp());
        QCOMPARE(std::string(w.selection()->currentOp()->name()), std::string("pd_op.matmul_grad"));
        QCOMPARE(w.selection()->currentOp(), memory->opAt(peak));
        QCOMPARE(chart->indexAt(chart->plotRect().left() - 5), -1L);
        // The buffers the forward keeps, largest first; a row selects the op that allocates it.
        MemoryPanel *panel = memory->panel();
        QCOMPARE(panel->listChooser()->currentIndex(), int(MemoryPanel::List::Kept));
        QTableView *table = panel->table();
        QCOMPARE(table->model()->rowCount(), int(shown.kept.size()));
        const QModelIndex top = table->model()->index(0, MemoryValuesModel::Op);
        QCOMPARE(
            table->model()->index(0, MemoryValuesModel::Bytes).data(MemoryValuesModel::SortRole).toLongLong(),
            qlonglong(shown.kept.front().bytes));
        w.selection()->clear();
        table->setCurrentIndex(top);
        emit table->clicked(top);
        const QString label = top.data(MemoryValuesModel::OpLabelRole).toString();
        QVERIFY(w.selection()->currentOp());
        QCOMPARE(w.selection()->currentOp(), memory->opAt(memory->indexOfLabel(label)));
        panel->showList(MemoryPanel::List::TopAtPeak);
        QCOMPARE(table->model()->rowCount(), int(shown.topAtPeak.size()));
        panel->showList(MemoryPanel::List::Unknown);
        QCOMPARE(table->model()->rowCount(), 0);

        // On the graph: each forward op's kept bytes, adding up to what the forward keeps.
        GraphScene *forward = w.splitView()->forwardView()->graphScene();
        QVERIFY(forward->opKeptBytes().empty());
        panel->onGraph()->setChecked(true);
        int64_t onGraph = 0;
        for (const auto &[op, bytes] : forward->opKeptBytes()) {
            QCOMPARE(op->parentBlock(), w.snapshot()->result.forward->block().ops()[0]->parentBlock());
            onGraph += bytes;
        }
        QCOMPARE(onGraph, shown.keptAfterForwardBytes);
        panel->onGraph()->setChecked(false);
        QVERIFY(forward->opKeptBytes().empty());

        // The chart paints (no report and with one) without trouble at a small size.
        chart->resize(chart->minimumSizeHint());
        QVERIFY(!chart->grab().isNull());
    }

    /// A debug run of the MLP's train step (6.3 MB at its peak; random inputs: the fixture keeps
    /// no tensors) is measured beside the prediction: freeing as Paddle, the bytes after every
    /// op are the predicted ones (within 8 KB); keeping the values for the inspector, they are
    /// more, and the summary says why.
    void debugRunIsMeasuredBesideThePrediction()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openAndWaitForPipeline(w, QStringLiteral(PIRSCOPE_FIXTURES_DIR "/memory/mlp")));
        MainWindowMemory *memory = w.memory();
        memory->dock()->show();
        QTRY_VERIFY(memory->report());
        MemoryChart *chart = memory->panel()->chart();
        QVERIFY(chart->measured().empty());
        w.showTab(MainWindow::Tab::Split);
        DebugSession *session = w.debugger()->session();
        DebugSources sources = session->sources();
        std::string error;
        QVERIFY(sources.setFromText(false, "random", error));
        QVERIFY(sources.setFromText(true, "random", error));
        session->setSources(sources);
        memory->panel()->freeAsPaddle()->setChecked(true);
        QVERIFY(session->freeAsPaddle());
        QVERIFY(QSettings().value(QStringLiteral("memory/freeAsPaddle")).toBool());
        session->continueRun();
        QVERIFY(waitUntilIdle(*session));
        QCOMPARE(session->state(), DebugSession::State::Finished);
        const std::shared_ptr<const MemoryReport> report = memory->report();
        QVERIFY(report->peakBytes > 6'000'000);
        const std::vector<MemoryTimelinePoint> &timeline = report->timeline;
        if (!(chart->measured().size() == timeline.size() && chart->measured().back() >= 0))
            qWarning("records %zu state %d measured %zu, timeline %zu, report %p vs %p, first op %p", session->records().size(), int(session->state()), chart->measured().size(),
                timeline.size(), (void *)report.get(), (void *)chart->report().get(),
                (void *)session->opAt(ProgramPosition { 0, { 0 } }));
        QTRY_VERIFY(chart->measured().size() == timeline.size() && chart->measured().back() >= 0);
        for (size_t i = 0; i < timeline.size(); ++i) {
            QVERIFY2(chart->measured()[i] >= 0, timeline[i].op.c_str());
            QVERIFY2(
                std::llabs(chart->measured()[i] - timeline[i].liveBytes) <= 8192, timeline[i].op.c_str());
        }
        QVERIFY2(memory->panel()->summary()->text().contains(QStringLiteral("measured so far")),
            qPrintable(memory->panel()->summary()->text()));
        session->stop();
        QVERIFY(waitUntilIdle(*session));

        // Keeping every value: never less than predicted, more at the end of the forward.
        memory->panel()->freeAsPaddle()->setChecked(false);
        session->continueRun();
        QVERIFY(waitUntilIdle(*session));
        QTRY_VERIFY(chart->measured().size() == timeline.size() && chart->measured().back() >= 0);
        int64_t kept = 0, predicted = 0;
        for (size_t i = 0; i < timeline.size(); ++i) {
            kept = std::max(kept, chart->measured()[i]);
            predicted = std::max(predicted, timeline[i].liveBytes);
        }
        QVERIFY(kept > predicted);
        QVERIFY(memory->panel()->summary()->text().contains(QStringLiteral("values kept")));
        session->stop();
        QVERIFY(waitUntilIdle(*session));
    }

    /// Inference mode: one program, no cut; the debugger's position is marked and follows steps.
    void debuggerPositionIsMarked()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openAndWaitForPipeline(w, QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce")));
        MainWindowMemory *memory = w.memory();
        memory->dock()->show();
        QTRY_VERIFY(memory->report());
        QCOMPARE(memory->report()->mode, std::string("train"));
        QCOMPARE(memory->panel()->chart()->current(), -1L);
        w.showTab(MainWindow::Tab::Split);
        DebugSession *session = w.debugger()->session();
        session->stepOver();
        QVERIFY(waitUntilIdle(*session));
        session->stepOver();
        QVERIFY(waitUntilIdle(*session));
        QCOMPARE(session->state(), DebugSession::State::Paused);
        QTRY_VERIFY(memory->panel()->chart()->current() >= 0);
        QCOMPARE(memory->opAt(memory->panel()->chart()->current()), session->currentOp());
        session->stop();
        QVERIFY(waitUntilIdle(*session));
        QTRY_COMPARE(memory->panel()->chart()->current(), -1L);

        // Infer mode: a new snapshot, modelled again while the dock is shown.
        w.setTraining(false);
        QTRY_VERIFY_WITH_TIMEOUT(memory->report() && memory->report()->mode == "infer", 60000);
        QCOMPARE(memory->report()->cut, memory->report()->timeline.size());
        QVERIFY(memory->panel()->summary()->text().startsWith(QStringLiteral("Inference run")));
    }
};

QTEST_MAIN(TestMemoryView)
#include "tst_memoryview.moc"
