#include "ui/debugger/debugsession.h"
#include "ui/graphview.h"
#include "ui/launchoptions.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/screenshotrunner.h"

#include <QImage>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <optional>

using namespace ps;

namespace {

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");

/// What `pirscope kExample ARGS --screenshot DIR/shot.png` does, in this process: the runner's
/// first verdict (empty: the PNG was written), or nullopt when it gave none within a minute.
std::optional<QString> shoot(const QStringList &args, const QString &png, MainWindow &w)
{
    QString error;
    const std::optional<LaunchOptions> options = LaunchOptions::parse(
        QStringList { QStringLiteral("pirscope"), kExample } + args + QStringList { "--screenshot", png },
        error);
    if (!options)
        return QStringLiteral("refused: ") + error;
    w.resize(options->size);
    ScreenshotRunner runner(w, *options);
    QSignalSpy finished(&runner, &ScreenshotRunner::finished);
    w.show();
    if (!options->applyTo(w, error))
        return QStringLiteral("not opened: ") + error;
    if (finished.isEmpty() && !finished.wait(60000))
        return std::nullopt;
    return finished.first().first().toString();
}

} // namespace

/// Issue 19: `pirscope --screenshot` runs in ui/ (ScreenshotRunner), not in main(): it waits for
/// the graphs and the debug session, sets the scene, and writes a PNG of exactly the asked size,
/// or ends with the reason.
class TestScreenshotRunner : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_screenshotrunner"));
        QSettings().clear();
    }

    void writesThePngOfTheAskedSize()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        MainWindow w;
        const std::optional<QString> verdict = shoot({ "--size", "1280x720" }, png, w);
        QVERIFY2(verdict, "no verdict within a minute");
        QVERIFY2(verdict->isEmpty(), qPrintable(*verdict));
        QVERIFY(w.document());
        QVERIFY(!w.graphView()->isLayoutRunning());
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1280, 720));
    }

    /// With --steps the shot waits until the debug session has stepped over that many ops.
    void stepsBeforeTheShot()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        MainWindow w;
        DebugSession *session = w.debugger()->session();
        // The session starts paused at the first op; the steps then run ops (a step over a feed or
        // parameter op may run several records).
        std::optional<size_t> ranBeforeFirstStop;
        connect(session, &DebugSession::stoppedAt, this, [&] {
            if (!ranBeforeFirstStop)
                ranBeforeFirstStop = session->records().size();
        });
        const std::optional<QString> verdict = shoot({ "--size", "1280x720", "--steps", "3" }, png, w);
        QVERIFY2(verdict, "no verdict within a minute");
        QVERIFY2(verdict->isEmpty(), qPrintable(*verdict));
        QCOMPARE(session->state(), DebugSession::State::Paused);
        QVERIFY(ranBeforeFirstStop);
        QVERIFY(session->records().size() >= *ranBeforeFirstStop + 3);
        QVERIFY(QFile::exists(png));
    }

    /// A --select that names no op ends the run with the reason and writes nothing.
    void unknownSelectionEndsTheRun()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        MainWindow w;
        const std::optional<QString> verdict
            = shoot({ "--size", "1280x720", "--select", "no_such_op" }, png, w);
        QVERIFY2(verdict, "no verdict within a minute");
        QCOMPARE(*verdict, QStringLiteral("--select: no op or result name matches 'no_such_op'"));
        QVERIFY(!QFile::exists(png));
    }

    /// A PNG that cannot be written ends the run with its path.
    void unwritablePngEndsTheRun()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("no_such_folder/shot.png"));
        MainWindow w;
        const std::optional<QString> verdict = shoot({ "--size", "1280x720" }, png, w);
        QVERIFY2(verdict, "no verdict within a minute");
        QCOMPARE(*verdict, QStringLiteral("cannot write ") + png);
    }
};

QTEST_MAIN(TestScreenshotRunner)
#include "tst_screenshotrunner.moc"
