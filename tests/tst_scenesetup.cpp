#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/common/itemroles.h"
#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/opvaluesmodel.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/oplistpanel.h"
#include "ui/programdocument.h"
#include "ui/propertiesmodel.h"
#include "ui/scenesetup.h"
#include "ui/selectionmodel.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTreeView>
#include <QtTest>

using namespace ps;

namespace {

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
const QString kDet = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/PP-OCRv5_mobile_det_infer.inference.json");

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
    while (s.state() == DebugSession::State::Running && t.elapsed() < 60000)
        QTest::qWait(5);
    return s.state() != DebugSession::State::Running;
}

} // namespace

/// Issue 11: `pirscope --screenshot` sets the scene first: `--select OP` and `--inspect VALUE`
/// (SceneSetup) name an op or a value as `--break` does and go through the one selection, so the
/// graph, the Ops list, Properties and the debugger's Values and inspector all show it.
class TestSceneSetup : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_scenesetup"));
        QSettings().clear();
    }

    void parseSize()
    {
        QString error;
        QCOMPARE(SceneSetup::parseSize(QStringLiteral("1280x720"), error), QSize(1280, 720));
        QCOMPARE(SceneSetup::parseSize(QStringLiteral("1600X1000"), error), QSize(1600, 1000));
        for (const char *bad : { "1280", "1280x", "x720", "1280x720x2", "-5x100", "12x720", "1e3x720", "" }) {
            error.clear();
            QVERIFY2(!SceneSetup::parseSize(QString::fromLatin1(bad), error), bad);
            QVERIFY2(!error.isEmpty(), bad);
        }
    }

    void selectFollowsEverywhere()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(openAndLayOut(w, kExample));
        const Program &program = w.document()->program();
        const Operation *conv = program.block().op(25);
        QCOMPARE(conv->name(), std::string_view("pd_op.conv2d"));

        QString error;
        QVERIFY2(SceneSetup::selectOp(w, QStringLiteral("0:25"), error), qPrintable(error));
        QCOMPARE(w.selection()->currentOp(), conv);
        QCOMPARE(w.graphView()->graphScene()->selectedOp(), conv);
        QCOMPARE(opFromIndex(w.opListPanel()->view()->currentIndex()), conv);
        QCOMPARE(w.propertiesModel()->currentOp(), conv);
        QTRY_VERIFY(!w.graphView()->isLayoutRunning());
        QVERIFY(w.graphView()->zoom() >= GraphView::kReadableZoom - 1e-9);
        const QRectF visible = w.graphView()->mapToScene(w.graphView()->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(w.graphView()->graphScene()->itemForOp(conv)->sceneBoundingRect()));

        // A regular expression naming one op by its name.
        QVERIFY2(SceneSetup::selectOp(w, QStringLiteral("pd_op\\.softmax$"), error), qPrintable(error));
        QCOMPARE(w.selection()->currentOp()->name(), std::string_view("pd_op.softmax"));
        QVERIFY2(SceneSetup::selectOp(w, QStringLiteral("0:25"), error), qPrintable(error));

        // No match, or several: refused with the reference and the candidates; the selection stays.
        error.clear();
        QVERIFY(!SceneSetup::selectOp(w, QStringLiteral("no_such_op"), error));
        QVERIFY2(error.contains(QStringLiteral("no_such_op")), qPrintable(error));
        QVERIFY(!SceneSetup::selectOp(w, QStringLiteral("conv2d"), error));
        QVERIFY2(error.contains(QStringLiteral("matches")) && error.contains(QStringLiteral("0:17")),
            qPrintable(error));
        QVERIFY(!SceneSetup::selectOp(w, QStringLiteral("0:999"), error));
        QVERIFY2(error.contains(QStringLiteral("0:999")), qPrintable(error));
        QCOMPARE(w.selection()->currentOp(), conv);

        // Without a debug session there is nothing to inspect.
        QVERIFY(!SceneSetup::inspectValue(w, QStringLiteral("%30"), error));
        QVERIFY2(error.contains(QStringLiteral("debug session")), qPrintable(error));
    }

    void selectOpensClosedLayers()
    {
        if (!QFile::exists(kDet))
            QSKIP("needs ../shared/samples");
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(openAndLayOut(w, kDet));
        const Operation *op = w.document()->program().block().op(300);
        GraphScene *scene = w.graphView()->graphScene();
        QVERIFY2(!scene->itemForOp(op), "op 300 starts inside a closed layer");
        QString error;
        QVERIFY2(SceneSetup::selectOp(w, QStringLiteral("0:300"), error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!w.graphView()->isLayoutRunning(), 60000);
        QVERIFY(scene->itemForOp(op));
        QCOMPARE(scene->selectedOp(), op);
        QVERIFY(w.graphView()->zoom() >= GraphView::kReadableZoom - 1e-9);
        const QRectF visible = w.graphView()->mapToScene(w.graphView()->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(scene->itemForOp(op)->sceneBoundingRect().center()));
    }

    void inspectShowsTheTensor()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(openAndLayOut(w, kExample));
        const Program &program = w.document()->program();
        DebugSession *session = w.debugger()->session();
        session->start();
        QVERIFY(waitIdle(*session));
        session->runToCursor(ProgramPosition { 0, { 27 } });
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->position()->toString(), std::string("0:27"));

        // %30 is conv2d #25's result; the value is shown at the op selected first when it uses
        // or produces it.
        const Operation *conv = program.block().op(25);
        QString error;
        QVERIFY2(SceneSetup::selectOp(w, QStringLiteral("0:25"), error), qPrintable(error));
        QVERIFY2(SceneSetup::inspectValue(w, QStringLiteral("%30"), error), qPrintable(error));
        DebuggerPanel *panel = w.debugger()->panel();
        QCOMPARE(panel->inspectedValue(), conv->result(0));
        QVERIFY(panel->inspector()->tensor().defined());
        QCOMPARE(panel->valuesModel()->op(), conv);
        QCOMPARE(w.selection()->currentValue(), conv->result(0));
        QCOMPARE(w.selection()->currentOp(), conv);
        QCOMPARE(w.propertiesModel()->currentValue(), conv->result(0));

        // Unknown, or not computed yet (the reshape at 0:27 has not run).
        QVERIFY(!SceneSetup::inspectValue(w, QStringLiteral("%9999"), error));
        QVERIFY2(error.contains(QStringLiteral("%9999")), qPrintable(error));
        QVERIFY(!SceneSetup::inspectValue(w, QStringLiteral("%32"), error));
        QVERIFY2(error.contains(QStringLiteral("no tensor yet")), qPrintable(error));
        QCOMPARE(panel->inspectedValue(), conv->result(0));
        session->stop();
        QVERIFY(waitIdle(*session));
    }
};

QTEST_MAIN(TestSceneSetup)
#include "tst_scenesetup.moc"
