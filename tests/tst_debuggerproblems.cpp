#include "core/io/memorybudget.h"
#include "ui/debugger/debugsession.h"
#include "ui/diagnosticsmodel.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps;

namespace {

using State = DebugSession::State;

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
const QString kExampleParams = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.pdiparams");

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

QString write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(bytes);
    return path;
}

/// The Problems panel's rows as "severity: message".
QStringList problems(const MainWindow &w)
{
    QStringList rows;
    for (const Diagnostic &d : w.diagnosticsModel()->diagnostics().items())
        rows << QStringLiteral("%1: %2").arg(
            d.severity == Diagnostic::Severity::Error ? QStringLiteral("error") : QStringLiteral("warning"),
            QString::fromStdString(d.message));
    return rows;
}

bool anyContains(const QStringList &rows, const QString &text)
{
    for (const QString &r : rows)
        if (r.contains(text))
            return true;
    return false;
}

} // namespace

/// Issue 9 in the GUI: what makes a debug session fail (an op past the memory limit, a truncated
/// .pdiparams) or can never stop it (a name breakpoint matching nothing) lands in the Problems
/// panel, and the window goes on working with the next program.
class TestDebuggerProblems : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_debuggerproblems"));
        QSettings().clear();
    }

    void cleanup() { MemoryBudget::setLimit(0); }

    void opPastTheLimitIsAProblemAndTheWindowGoesOn()
    {
        QTemporaryDir dir;
        const QString program = write(dir.path() + "/full.txt",
            "{\n    (%0) = \"pd_op.full\" () "
            "{dtype:float32,place:Place(cpu),shape:[1000000,1000000],value:1.5} : () -> "
            "tensor<1000000x1000000xf32>\n"
            "    () = \"builtin.shadow_output\" (%0) {output_name:\"out\"} : (tensor<1000000x1000000xf32>) "
            "-> "
            "\n}\n");
        MemoryBudget::setLimit(uint64_t(1) << 30);
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, program));
        DebugSession *session = w.debugger()->session();
        // The memory model's predicted peak does not fit: refused before anything is allocated.
        session->start();
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::NotStarted);
        const QStringList rows = problems(w);
        QVERIFY2(anyContains(rows, QStringLiteral("pd_op.full at 0:0")), qPrintable(rows.join('\n')));
        QVERIFY2(
            anyContains(rows, QStringLiteral("needs 4.0 TB, limit 1.1 GB")), qPrintable(rows.join('\n')));
        QVERIFY2(anyContains(rows, QStringLiteral("refused before anything is allocated")),
            qPrintable(rows.join('\n')));
        QVERIFY(w.diagnosticsDock()->isVisible());
        QCOMPARE(MemoryBudget::inUse(), uint64_t(0));

        // The same window debugs the next program.
        session->stop();
        QVERIFY(openAndLayOut(w, kExample));
        session->start();
        QVERIFY(waitIdle(*session));
        session->stepOver();
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Paused);
        QCOMPARE(session->position()->toString(), std::string("0:16")); // past the parameter loads
    }

    void truncatedPdiparamsIsAProblem()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(kExample, dir.path() + "/lenet_bn.json"));
        QFile params(kExampleParams);
        QVERIFY(params.open(QIODevice::ReadOnly));
        const QByteArray bytes = params.readAll();
        write(dir.path() + "/lenet_bn.pdiparams", bytes.left(bytes.size() / 2));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, dir.path() + "/lenet_bn.json"));
        DebugSession *session = w.debugger()->session();
        QSignalSpy errors(session, &DebugSession::error);
        session->start();
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::NotStarted);
        QVERIFY(errors.count() > 0);
        const QStringList rows = problems(w);
        QVERIFY2(anyContains(rows, QStringLiteral("lenet_bn.pdiparams")), qPrintable(rows.join('\n')));
        QVERIFY2(anyContains(rows, QStringLiteral("truncated")), qPrintable(rows.join('\n')));
    }

    void breakpointMatchingNothingWarns()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, kExample));
        DebugSession *session = w.debugger()->session();
        QString error;
        QVERIFY(session->addNameBreakpoint(QStringLiteral("no_such_value"), &error) >= 0);
        QVERIFY2(
            anyContains(problems(w), QStringLiteral("warning: Breakpoint 'no_such_value': no op writes")),
            qPrintable(problems(w).join('\n')));
        // A pathological pattern compiles (RE2) and a run over every op with it ends at once.
        QVERIFY(session->addNameBreakpoint(QStringLiteral("(a+)+$"), &error) >= 0);
        QElapsedTimer timer;
        timer.start();
        session->continueRun();
        QVERIFY(waitIdle(*session));
        QCOMPARE(session->state(), State::Finished);
        qDebug("lenet_bn run with (a+)+$ as a name breakpoint: %lld ms", timer.elapsed());
        QVERIFY(session->addNameBreakpoint(QStringLiteral("("), &error) < 0);
        QVERIFY2(error.startsWith(QStringLiteral("invalid regular expression '('")), qPrintable(error));
    }
};

QTEST_MAIN(TestDebuggerProblems)
#include "tst_debuggerproblems.moc"
