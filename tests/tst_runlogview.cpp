#include "core/io/paddlerunlog.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/pipelineresult.h"
#include "debugwait.h"
#include "pipelinewait.h"
#include "runlogtestfiles.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/itemroles.h"
#include "ui/debugger/debugsession.h"
#include "ui/diagnosticsmodel.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/intermediatesmodel.h"
#include "ui/intermediatesresult.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowrunlog.h"
#include "ui/pipelinerunner.h"
#include "ui/pipelinesnapshot.h"
#include "ui/runlogmodel.h"
#include "ui/runlogpanel.h"
#include "ui/runlogresult.h"
#include "ui/selectionmodel.h"
#include "ui/splitview.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using namespace ps;
using Accuracy = NodeMarks::Accuracy;

namespace {

const QString kBundle = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce");
const QString kLog = kBundle + QStringLiteral("/paddle_run.log");

/// Opens the bundle and waits for its train pipeline (the forward and backward graphs).
bool openBundle(MainWindow &w, const QString &bundle = kBundle)
{
    return openAndWaitForPipeline(w, bundle);
}

/// Shows the split tab and waits until its forward graph is laid out.
bool showForward(MainWindow &w)
{
    GraphView *forward = w.splitView()->forwardView();
    QSignalSpy laidOut(forward, &GraphView::layoutFinished);
    w.showTab(MainWindow::Tab::Split);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && laidOut.isEmpty() && forward->graphScene()->items().isEmpty())
        QTest::qWait(10);
    return !forward->graphScene()->items().isEmpty();
}

QString opName(const Operation *op)
{
    return op ? QString::fromUtf8(op->name().data(), qsizetype(op->name().size())) : QString();
}

} // namespace

/// The "Paddle run log" dock, the graphs' colours and Run to first divergence on mlp_ce's real
/// Paddle 3.3.1 log, and on the same log with one record altered.
class TestRunLogView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_runlogview"));
        QSettings().clear();
    }

    void aRealLogAgreesEverywhere()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openBundle(w));
        MainWindowRunLog *runLog = w.runLog();
        QVERIFY(runLog->openAction()->isEnabled());
        QVERIFY(runLog->openLog(kLog));
        QVERIFY(runLog->waitUntilDone());
        const std::shared_ptr<const RunLogResult> result = runLog->result();
        QVERIFY(result);
        QVERIFY2(result->ok(), qPrintable(result->error));
        const RunLogReport &report = result->check->report;
        qInfo("%s", qPrintable(result->summary()));
        QVERIFY(report.match.matched > 0);
        QCOMPARE(report.divergent, size_t(0));
        QCOMPARE(report.differences.size(), report.compared);
        QVERIFY(!runLog->runToDivergenceAction()->isEnabled());
        QVERIFY(runLog->dock()->isVisible());
        // One row per record; unmatched rows say why.
        RunLogPanel *panel = runLog->panel();
        QCOMPARE(panel->model()->rowCount(), int(report.records));
        for (int row = 0; row < panel->model()->rowCount(); ++row) {
            const QModelIndex op = panel->model()->index(row, RunLogModel::Op);
            if (!opFromIndex(op))
                QVERIFY(op.data().toString().startsWith(QStringLiteral("unmatched: ")));
        }
        QVERIFY(panel->summary()->text().contains(QStringLiteral("%1 records").arg(report.records)));
        QVERIFY(panel->legend()->isVisible());
        // Every matched forward op is coloured, green: they all agree.
        GraphScene *forward = w.splitView()->forwardView()->graphScene();
        QVERIFY(!forward->opAccuracy().empty());
        const Operation *first = result->opOf(0);
        QVERIFY(first);
        QCOMPARE(forward->opAccuracy().at(first), Accuracy::Agrees);
        QVERIFY(showForward(w));
        w.selection()->selectOp(first); // opens its layers
        QTRY_VERIFY(forward->itemForOp(first) != nullptr);
        QCOMPARE(forward->itemForOp(first)->marks().accuracy, Accuracy::Agrees);
        // Clearing removes table and colours.
        runLog->clearAction()->trigger();
        QVERIFY(!runLog->result());
        QVERIFY(forward->opAccuracy().empty());
        QCOMPARE(forward->itemForOp(first)->marks().accuracy, Accuracy::None);
        QCOMPARE(panel->model()->rowCount(), 0);
    }

    /// Issue 22: a check whose result nobody waits for any more (a newer one, a closed window)
    /// stops PIRScope's run at its next op instead of running it to the end.
    void aCanceledCheckStopsItsRun()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openBundle(w));
        MainWindowRunLog *runLog = w.runLog();
        QVERIFY(runLog->openLog(kLog));
        QVERIFY(runLog->waitUntilDone());
        QVERIFY(runLog->result() && runLog->result()->ok());
        const DebugTarget target = runLog->result()->target;
        QVERIFY(runLog->result()->check->runProblem.empty());
        const auto log = RunLogResult::compute(kLog, target, [] { return true; });
        QVERIFY(log->ok());
        QVERIFY2(QString::fromStdString(log->check->runProblem).contains("canceled after 0 executed ops"),
            log->check->runProblem.c_str());
        const auto intermediates = IntermediatesResult::compute(target, [] { return true; });
        QVERIFY2(intermediates->ok(), qPrintable(intermediates->error));
        QVERIFY2(QString::fromStdString(intermediates->report->runProblem)
                     .contains("canceled after 0 executed ops"),
            intermediates->report->runProblem.c_str());
    }

    void anAlteredRecordIsRedAndRunToStopsThere()
    {
        QTemporaryDir dir;
        const QString altered
            = writeFile(dir, QStringLiteral("paddle_run.log"), alterRecord(readAll(kLog), 6, "mean", 1.5));
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openBundle(w));
        // openFile on a run log checks it against the bundle open.
        QVERIFY(w.openFile(altered));
        MainWindowRunLog *runLog = w.runLog();
        QVERIFY(runLog->waitUntilDone());
        const std::shared_ptr<const RunLogResult> result = runLog->result();
        QVERIFY(result && result->ok());
        const RunLogReport &report = result->check->report;
        QVERIFY(report.firstDivergent);
        const size_t record = report.firstDivergent->record;
        QCOMPARE(result->log->records[record].line, 6);
        QCOMPARE(result->opLabel(record), QStringLiteral("fwd:9"));
        const Operation *op = result->firstDivergentOp();
        QCOMPARE(opName(op), QStringLiteral("pd_op.matmul"));
        QVERIFY(runLog->panel()->summary()->text().contains(QStringLiteral("line 6")));

        // The divergent op is red in the forward graph, its role in the scene's colours too.
        GraphScene *forward = w.splitView()->forwardView()->graphScene();
        QCOMPARE(forward->opAccuracy().at(op), Accuracy::Divergent);
        QVERIFY(showForward(w));

        // Sorted by error: the divergent record is the first row; the error cell has the colour.
        RunLogPanel *panel = runLog->panel();
        QTableView *view = panel->view();
        const QModelIndex top = view->model()->index(0, RunLogModel::Line);
        QCOMPARE(top.data().toInt(), 6);
        QCOMPARE(view->model()->index(0, RunLogModel::Stat).data().toString(), QStringLiteral("mean"));
        QVERIFY(view->model()->index(0, RunLogModel::Error).data().toDouble() > 1);

        // Clicking the row selects the op in the forward graph.
        w.selection()->clear();
        view->setCurrentIndex(view->model()->index(0, RunLogModel::Kernel));
        QCOMPARE(w.selection()->currentOp(), op);
        QCOMPARE(w.currentTab(), MainWindow::Tab::Split);
        QCOMPARE(forward->selectedOp(), op);
        QTRY_VERIFY(forward->itemForOp(op) != nullptr);
        QCOMPARE(forward->itemForOp(op)->marks().accuracy, Accuracy::Divergent);
        QVERIFY(forward->itemForOp(op)->marksText().contains(QStringLiteral("diverges")));

        // Run to first divergence: paused at fwd:9.
        QAction *runTo = runLog->runToDivergenceAction();
        QVERIFY(runTo->isEnabled());
        runTo->trigger();
        DebugSession *session = w.debugger()->session();
        QVERIFY(waitUntilIdle(*session));
        QCOMPARE(session->state(), DebugSession::State::Paused);
        QCOMPARE(session->currentOp(), op);
        QTRY_VERIFY(forward->itemForOp(op)->marks().current);
        // The run log's colour stays under the debugger's marks.
        QCOMPARE(forward->itemForOp(op)->marks().accuracy, Accuracy::Divergent);
        // Again from a session past it: it starts over and stops there again.
        session->stepOver();
        QVERIFY(waitUntilIdle(*session));
        QVERIFY(session->currentOp() != op);
        QVERIFY(runLog->runToFirstDivergence());
        QVERIFY(waitUntilIdle(*session));
        QTRY_COMPARE(session->currentOp(), op);
        QCOMPARE(session->state(), DebugSession::State::Paused);
        session->stop();
        QVERIFY(waitUntilIdle(*session));
    }

    /// The float64 referee from the dock: Paddle's altered mean is far from the double result.
    void refereeJudgesTheFirstDivergence()
    {
        QTemporaryDir dir;
        const QString altered
            = writeFile(dir, QStringLiteral("paddle_run.log"), alterRecord(readAll(kLog), 6, "mean", 3));
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openBundle(w));
        MainWindowRunLog *runLog = w.runLog();
        QVERIFY(runLog->openLog(altered));
        QVERIFY(runLog->waitUntilDone());
        QAction *referee = runLog->refereeAction();
        QVERIFY(referee->isEnabled());
        QSignalSpy verdict(runLog, &MainWindowRunLog::verdictReady);
        referee->trigger();
        QVERIFY(verdict.wait(60000));
        const QString text = verdict.first().first().toString();
        QVERIFY2(text.contains(QStringLiteral("line 6 fwd:9 pd_op.matmul")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("PIRScope is closer")), qPrintable(text));
        QCOMPARE(runLog->panel()->verdict()->text(), text);
        QVERIFY(runLog->panel()->verdict()->isVisibleTo(runLog->panel()));

        // The real log: nothing diverges, nothing to referee.
        QVERIFY(runLog->openLog(kLog));
        QVERIFY(runLog->waitUntilDone());
        QVERIFY(!referee->isEnabled());
        QVERIFY(!runLog->referee());
    }

    /// A bundle with Paddle's intermediates is compared by itself once its pipeline is shown: every
    /// value agrees, so the forward and backward graphs are green, the dock stays closed and the
    /// debugger's Values panel has Paddle's file for the split programs' values.
    void intermediatesAreComparedWhenTheBundleOpens()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openBundle(w));
        MainWindowRunLog *runLog = w.runLog();
        QVERIFY(runLog->compareIntermediatesAction()->isEnabled() || runLog->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(runLog->intermediates() && !runLog->isBusy(), 60000);
        const std::shared_ptr<const IntermediatesResult> result = runLog->intermediates();
        QVERIFY(result);
        QVERIFY2(result->ok(), qPrintable(result->error));
        qInfo("%s", qPrintable(result->summary()));
        QCOMPARE(result->report->divergent, size_t(0));
        QCOMPARE(result->report->compared, result->report->values);
        QVERIFY(!runLog->dock()->isVisible()); // nothing to look at: the status bar says so
        QVERIFY(!runLog->runToDivergenceAction()->isEnabled());
        // Both split graphs are coloured, every compared op green.
        GraphScene *forward = w.splitView()->forwardView()->graphScene();
        GraphScene *backward = w.splitView()->backwardView()->graphScene();
        QVERIFY(!forward->opAccuracy().empty());
        QVERIFY(!backward->opAccuracy().empty());
        for (const auto &[op, accuracy] : forward->opAccuracy())
            QCOMPARE(accuracy, Accuracy::Agrees);
        // One row per compared value, each on an op of the split programs.
        IntermediatesModel *model = runLog->panel()->intermediatesModel();
        QCOMPARE(model->rowCount(), int(result->report->compared));
        int shown = 0;
        for (int row = 0; row < model->rowCount(); ++row)
            shown += opFromIndex(model->index(row, IntermediatesModel::Op)) != nullptr;
        QVERIFY(shown > model->rowCount() / 2);
        // The Values panel's Paddle column: every forward op result Paddle wrote has its file.
        DebugSession *session = w.debugger()->session();
        w.showTab(MainWindow::Tab::Split);
        const PipelineResult &pipeline = w.snapshot()->result;
        QTRY_VERIFY(session->segmentPrograms().size() == 2);
        int withFile = 0;
        for (size_t i = 0; i < result->count(); ++i) {
            const Operation *op = result->shownOp[i];
            if (!op || result->differenceAt(i).part != "forward")
                continue;
            const QString file
                = session->referenceFile(op->result(unsigned(result->differenceAt(i).resultIndex)));
            QVERIFY2(file.contains(QStringLiteral("/intermediates/")), qPrintable(file));
            ++withFile;
        }
        QVERIFY(withFile > 5);
        QVERIFY(pipeline.forward);
        // Clearing removes the colours and does not come back by itself.
        runLog->clearAction()->trigger();
        QVERIFY(!runLog->intermediates());
        QVERIFY(forward->opAccuracy().empty());
        QCOMPARE(runLog->panel()->intermediatesModel()->rowCount(), 0);
        // By hand from the File menu: the dock opens.
        QVERIFY(runLog->compareIntermediates());
        QVERIFY(runLog->waitUntilDone());
        QVERIFY(runLog->intermediates() && runLog->intermediates()->ok());
        QVERIFY(runLog->dock()->isVisible());
        QVERIFY(runLog->panel()->summary()->text().contains(QStringLiteral("no divergence")));
    }

    /// A parameter altered in the bundle: PIRScope's run (on the altered parameter) differs from
    /// Paddle's values first at the matmul reading it; red there, first in the table, and Run to
    /// first divergence stops at it.
    void anAlteredParameterIsRedAtItsConsumer()
    {
        QTemporaryDir dir;
        const QString copy = alteredBundleCopy(dir, kBundle, "params/linear_1.w_0.npy", 1.0f);
        QVERIFY(!copy.isEmpty());
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(openBundle(w, copy));
        MainWindowRunLog *runLog = w.runLog();
        QTRY_VERIFY_WITH_TIMEOUT(runLog->intermediates() && !runLog->isBusy(), 60000);
        const std::shared_ptr<const IntermediatesResult> result = runLog->intermediates();
        QVERIFY(result && result->ok());
        QVERIFY(result->report->divergent > 0);
        QVERIFY(runLog->dock()->isVisible()); // a divergence opens the dock
        const long first = result->firstDivergentIndex();
        QVERIFY(first >= 0);
        QCOMPARE(result->opLabel(size_t(first)), QStringLiteral("fwd:9"));
        QVERIFY(!result->differenceAt(size_t(first)).operandsAlreadyDiffered);
        const Operation *op = result->firstDivergentOp();
        QCOMPARE(opName(op), QStringLiteral("pd_op.matmul"));
        GraphScene *forward = w.splitView()->forwardView()->graphScene();
        QCOMPARE(forward->opAccuracy().at(op), Accuracy::Divergent);
        QVERIFY(runLog->panel()->summary()->text().contains(QStringLiteral("first divergent: fwd:9")));
        // The backward graph has red ops too: the gradients inherit the error.
        bool redBackward = false;
        for (const auto &[o, accuracy] : w.splitView()->backwardView()->graphScene()->opAccuracy())
            redBackward = redBackward || accuracy == Accuracy::Divergent;
        QVERIFY(redBackward);

        // Sorted by error, largest first; clicking the row of the first divergent value selects it.
        QTableView *view = runLog->panel()->view();
        QVERIFY(
            view->model()->index(0, IntermediatesModel::Error).data(IntermediatesModel::SortRole).toDouble()
            > 1);
        int row = -1;
        for (int r = 0; r < view->model()->rowCount() && row < 0; ++r)
            if (opFromIndex(view->model()->index(r, IntermediatesModel::Op)) == op)
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(view->model()->index(row, IntermediatesModel::Inherited).data().toString(), QString());
        w.selection()->clear();
        view->setCurrentIndex(view->model()->index(row, IntermediatesModel::ValueColumn));
        QCOMPARE(w.selection()->currentOp(), op);

        QVERIFY(showForward(w));
        QVERIFY(runLog->runToDivergenceAction()->isEnabled());
        runLog->runToDivergenceAction()->trigger();
        DebugSession *session = w.debugger()->session();
        QVERIFY(waitUntilIdle(*session));
        QCOMPARE(session->state(), DebugSession::State::Paused);
        QCOMPARE(session->currentOp(), op);
        session->stop();
        QVERIFY(waitUntilIdle(*session));

        // A run log replaces the intermediates; a bundle without intermediates cannot compare.
        QVERIFY(runLog->openLog(copy + QStringLiteral("/paddle_run.log")));
        QVERIFY(runLog->waitUntilDone());
        QVERIFY(runLog->result() && !runLog->intermediates());
        QCOMPARE(runLog->panel()->intermediatesModel()->rowCount(), 0);
        QVERIFY(runLog->panel()->model()->rowCount() > 0);
        QVERIFY(w.openFile(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/control_flow")));
        QVERIFY(!runLog->compareIntermediatesAction()->isEnabled());
        QVERIFY(!runLog->compareIntermediates());
        QVERIFY(!runLog->intermediates());
    }

    void aRunLogWithoutAProgramSaysWhatToOpen()
    {
        MainWindow w;
        QVERIFY(!w.runLog()->openAction()->isEnabled());
        QVERIFY(!w.openFile(kLog));
        QVERIFY(!w.runLog()->result());
        const Diagnostic *first = w.diagnosticsModel()->diagnostics().firstError();
        QVERIFY(first);
        QVERIFY(QString::fromStdString(first->message)
                    .contains(QStringLiteral("open the program or trace bundle")));
    }

    void badAndForeignLogsSayWhy()
    {
        MainWindow w;
        QVERIFY(openBundle(w));
        MainWindowRunLog *runLog = w.runLog();
        // Not a log at all.
        QTemporaryDir dir;
        const QString junk = writeFile(dir, QStringLiteral("junk.log"), QByteArray("hello\nworld\n"));
        QVERIFY(runLog->openLog(junk));
        QVERIFY(runLog->waitUntilDone());
        QVERIFY(runLog->result() && !runLog->result()->ok());
        QVERIFY(runLog->result()->error.contains(QStringLiteral("no readable")));
        QVERIFY(w.runLog()->panel()->summary()->text().contains(QStringLiteral("no readable")));
        // A log of another program: counts, no crash.
        QVERIFY(runLog->openLog(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/lenet/paddle_run.log")));
        QVERIFY(runLog->waitUntilDone());
        QVERIFY(runLog->result());
        qInfo("lenet log on mlp_ce: %s", qPrintable(runLog->result()->summary()));
        QVERIFY(runLog->panel()->summary()->text().contains(QStringLiteral("records")));
        // A new program clears the log.
        QVERIFY(w.openFile(kBundle));
        QVERIFY(!runLog->result());
    }
};

QTEST_MAIN(TestRunLogView)
#include "tst_runlogview.moc"
