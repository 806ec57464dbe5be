#include "ui/launchoptions.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowrunlog.h"
#include "ui/programdocument.h"
#include "ui/runlogresult.h"

#include <QSettings>
#include <QStandardPaths>
#include <QtTest>
#include <optional>

using namespace ps;

namespace {

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
const QString kPassLog = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle_logs/conv_infer_cpu.log");

std::optional<LaunchOptions> parse(const QStringList &args, QString &error)
{
    error.clear();
    return LaunchOptions::parse(QStringList { QStringLiteral("pirscope") } + args, error);
}

/// The message a refused command line gives; empty when it is accepted.
QString refusal(const QStringList &args)
{
    QString error;
    return parse(args, error) ? QString() : error;
}

} // namespace

/// Issue 19: `pirscope`'s command line is parsed and applied in ui/ (LaunchOptions); main() only
/// wires it to the application, the window and the screenshot.
class TestLaunchOptions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_launchoptions"));
        QSettings().clear();
    }

    void defaults()
    {
        QString error;
        const std::optional<LaunchOptions> bare = parse({}, error);
        QVERIFY2(bare, qPrintable(error));
        QVERIFY(bare->file.isEmpty() && bare->screenshot.isEmpty());
        QVERIFY(!bare->size.isValid()); // the size saved at the last close
        QCOMPARE(bare->tab, MainWindow::Tab::Program);
        QCOMPARE(bare->steps, uint64_t(0));
        QVERIFY(!bare->training && !bare->maxMemory && !bare->dark);

        const std::optional<LaunchOptions> shot = parse({ kExample, "--screenshot", "a.png" }, error);
        QVERIFY2(shot, qPrintable(error));
        QCOMPARE(shot->file, kExample);
        QCOMPARE(shot->screenshot, QStringLiteral("a.png"));
        QCOMPARE(shot->size, QSize(1600, 1000));
    }

    void values()
    {
        QString error;
        const std::optional<LaunchOptions> o
            = parse({ kExample, "--screenshot", "a.png", "--size", "1280x720", "--steps", "12", "--select",
                        "0:25", "--inspect", "%30", "--mode", "train", "--view", "split", "--shape",
                        "x=1x1x28x28", "--shape", "y=2", "--max-memory", "2Gi", "--dark" },
                error);
        QVERIFY2(o, qPrintable(error));
        QCOMPARE(o->size, QSize(1280, 720));
        QCOMPARE(o->steps, uint64_t(12));
        QCOMPARE(o->select, QStringLiteral("0:25"));
        QCOMPARE(o->inspect, QStringLiteral("%30"));
        QVERIFY(o->training == std::optional<bool>(true));
        QCOMPARE(o->tab, MainWindow::Tab::Split);
        QCOMPARE(o->shapes, QStringList({ "x=1x1x28x28", "y=2" }));
        QVERIFY(o->maxMemory == std::optional<uint64_t>(uint64_t(2) << 30));
        QVERIFY(o->dark);
    }

    /// A pass log, a dump folder or --pipeline show the Passes tab; --step counts from 1.
    void passesTab()
    {
        QString error;
        const std::optional<LaunchOptions> log = parse({ kPassLog, "--step", "3" }, error);
        QVERIFY2(log, qPrintable(error));
        QCOMPARE(log->tab, MainWindow::Tab::Passes);
        QCOMPARE(log->passStep, 2);
        const std::optional<LaunchOptions> pipeline
            = parse({ kExample, "--pipeline", "inference-cpu" }, error);
        QVERIFY2(pipeline, qPrintable(error));
        QCOMPARE(pipeline->tab, MainWindow::Tab::Passes);
        QCOMPARE(pipeline->pipeline, QStringLiteral("inference-cpu"));
    }

    /// `--paddle-log` checks the log once the bundle is open and shows the split tab.
    void paddleLog()
    {
        const QString bundle = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce");
        const QString log = bundle + QStringLiteral("/paddle_run.log");
        QString error;
        const std::optional<LaunchOptions> o = parse({ bundle, "--paddle-log", log }, error);
        QVERIFY2(o, qPrintable(error));
        QCOMPARE(o->paddleLog, log);
        QCOMPARE(o->tab, MainWindow::Tab::Split);
        const std::optional<LaunchOptions> program
            = parse({ bundle, "--paddle-log", log, "--view", "program" }, error);
        QVERIFY2(program, qPrintable(error));
        QCOMPARE(program->tab, MainWindow::Tab::Program);
        MainWindow w;
        QVERIFY2(o->applyTo(w, error), qPrintable(error));
        QVERIFY(w.runLog()->result() && w.runLog()->result()->ok());
        QVERIFY(w.runLog()->result()->check->report.match.matched > 0);
        QCOMPARE(w.currentTab(), MainWindow::Tab::Split);

        const std::optional<LaunchOptions> junk = parse({ bundle, "--paddle-log", kExample }, error);
        QVERIFY2(junk, qPrintable(error));
        MainWindow other;
        QVERIFY(!junk->applyTo(other, error));
        QVERIFY2(error.startsWith(QStringLiteral("--paddle-log ")), qPrintable(error));
    }

    void refusedValues()
    {
        QVERIFY(refusal({ kExample, "--max-memory", "lots" }).startsWith(QStringLiteral("--max-memory: ")));
        QVERIFY(refusal({ kExample, "--debug-steps", "-3" }).startsWith(QStringLiteral("--debug-steps: ")));
        for (const char *step : { "-1", "0", "1.5", "abc", "99999999999999999999", "1000001" })
            QVERIFY2(refusal({ kPassLog, "--step", step }).startsWith(QStringLiteral("--step: ")), step);
        for (const char *steps : { "1.5", "1e3", "-0" })
            QVERIFY2(
                refusal({ kExample, "--steps", steps }).startsWith(QStringLiteral("--debug-steps: ")), steps);
        QVERIFY(refusal({ kExample, "--screenshot", "a.png", "--size", "big" })
                    .startsWith(QStringLiteral("--size: 'big'")));
        QCOMPARE(refusal({ kExample, "--select", "conv2d" }), QStringLiteral("--select needs --screenshot"));
        QCOMPARE(refusal({ kExample, "--screenshot", "a.png", "--inspect", "%30" }),
            QStringLiteral("--inspect: needs a debug session (--steps N)"));
        QCOMPARE(refusal({ kPassLog, "--screenshot", "a.png", "--select", "0:1" }),
            QStringLiteral("--select and --inspect act on the Program and split tabs, not on the passes"));
    }

    /// applyTo opens the file, then sets the mode and the tab; a refused value says why.
    void applyToWindow()
    {
        QString error;
        const std::optional<LaunchOptions> o
            = parse({ kExample, "--mode", "train", "--view", "split" }, error);
        QVERIFY2(o, qPrintable(error));
        MainWindow w;
        QVERIFY2(o->applyTo(w, error), qPrintable(error));
        QVERIFY(w.document());
        QCOMPARE(w.document()->path(), kExample);
        QVERIFY(w.isTraining());
        QCOMPARE(w.currentTab(), MainWindow::Tab::Split);

        const std::optional<LaunchOptions> pipeline
            = parse({ kExample, "--pipeline", "no-such-pipeline" }, error);
        QVERIFY2(pipeline, qPrintable(error));
        MainWindow other;
        QVERIFY(!pipeline->applyTo(other, error));
        QCOMPARE(error, QStringLiteral("unknown --pipeline no-such-pipeline"));

        const std::optional<LaunchOptions> shape = parse({ kExample, "--shape", "x" }, error);
        QVERIFY2(shape, qPrintable(error));
        MainWindow third;
        QVERIFY(!shape->applyTo(third, error));
        QVERIFY2(error.startsWith(QStringLiteral("--shape ")), qPrintable(error));
    }

    /// A screenshot of a file that does not open names the file and its first error.
    void screenshotOfABrokenFile()
    {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ not json");
        f.close();
        QString error;
        const std::optional<LaunchOptions> o
            = parse({ broken, "--screenshot", dir.filePath("a.png") }, error);
        QVERIFY2(o, qPrintable(error));
        MainWindow w;
        QVERIFY(!o->applyTo(w, error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot open ") + broken + QStringLiteral(": ")),
            qPrintable(error));
    }
};

QTEST_MAIN(TestLaunchOptions)
#include "tst_launchoptions.moc"
