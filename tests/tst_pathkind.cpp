// The one classifier of what a path names (core/session/pathkind.h): every kind, the paths that
// look like one kind but are another, and what cannot be read.

#include "core/session/pathkind.h"

#include <QtTest>
#include <fstream>
#include <sys/stat.h>

using namespace ps;

Q_DECLARE_METATYPE(ps::PathKind)

namespace {

const QString kFixtures = QStringLiteral(PIRSCOPE_FIXTURES_DIR);

void writeFile(const QString &path, const std::string &text)
{
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class TestPathKind : public QObject
{
    Q_OBJECT

private slots:
    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<PathKind>("kind");
        QTest::newRow("PIR JSON") << kFixtures + "/paddle/lenet/program.json" << PathKind::Program;
        QTest::newRow("PIR text") << kFixtures + "/paddle/lenet/program.txt" << PathKind::Program;
        QTest::newRow("bundle folder") << kFixtures + "/paddle/lenet" << PathKind::TraceBundle;
        QTest::newRow("bundle folder, trailing slash")
            << kFixtures + "/paddle/lenet/" << PathKind::TraceBundle;
        QTest::newRow("bundle manifest")
            << kFixtures + "/paddle/lenet/manifest.json" << PathKind::TraceBundle;
        QTest::newRow("pass log") << kFixtures + "/paddle_logs/conv_infer_cpu.log" << PathKind::PassLog;
        QTest::newRow("per-pass dumps") << kFixtures + "/paddle_logs/perpass_dir" << PathKind::PassDumpFolder;
        QTest::newRow("paddle run log") << kFixtures + "/paddle/mlp_ce/paddle_run.log" << PathKind::RunLog;
        // One dump of a dump folder is a program.
        QTest::newRow("one dump") << kFixtures + "/paddle_logs/perpass_dir/00_input.txt" << PathKind::Program;
    }

    void fixtures()
    {
        QFETCH(QString, path);
        QFETCH(PathKind, kind);
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        QCOMPARE(classifyPath(path.toStdString()), kind);
    }

    void runLogFolder()
    {
        // set_nan_inf_debug_path writes worker_cpu (worker_gpu.N) files into a folder.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(kFixtures + "/paddle/mlp_ce/paddle_run.log", dir.filePath("worker_cpu")));
        QCOMPARE(classifyPath(dir.path().toStdString()), PathKind::RunLog);
        QVERIFY(!opensAsTimeline(PathKind::RunLog));
    }

    void foldersThatAreNoBundle()
    {
        QTemporaryDir dir;
        // Empty, or only sub-folders: nothing to read as dumps, so the program reader says why.
        QCOMPARE(classifyPath(dir.path().toStdString()), PathKind::Program);
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
        QCOMPARE(classifyPath(dir.path().toStdString()), PathKind::Program);
        // A file makes it a folder of dumps; a manifest.json makes it a bundle.
        writeFile(dir.filePath(QStringLiteral("01_after_x_pass.txt")), "{\n}\n");
        QCOMPARE(classifyPath(dir.path().toStdString()), PathKind::PassDumpFolder);
        writeFile(dir.filePath(QStringLiteral("manifest.json")), "{}\n");
        QCOMPARE(classifyPath(dir.path().toStdString()), PathKind::TraceBundle);
    }

    void logsAreSniffedNotNamed()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("program.txt"));
        writeFile(log, "I0101 12:00:00 IR After lowering ---\n{\n}\n");
        QCOMPARE(classifyPath(log.toStdString()), PathKind::PassLog);
        const QString notLog = dir.filePath(QStringLiteral("run.log"));
        writeFile(notLog, "{\n (%0) = \"pd_op.data\" () {name:\"x\"} : () -> tensor<2xf32>\n}\n");
        QCOMPARE(classifyPath(notLog.toStdString()), PathKind::Program);
    }

    void missingPaths()
    {
        QCOMPARE(classifyPath("/nonexistent/model.json"), PathKind::Program);
        QCOMPARE(classifyPath("/nonexistent/folder/"), PathKind::Program);
        QCOMPARE(classifyPath(""), PathKind::Program);
        // A manifest.json is a bundle by its name, so its absence is reported as a bundle's.
        QCOMPARE(classifyPath("/nonexistent/bundle/manifest.json"), PathKind::TraceBundle);
    }

    void devicesAndFifosAreNotRead()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("pipe.log")).toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QCOMPARE(classifyPath(fifo), PathKind::Program);
        QCOMPARE(classifyPath("/dev/zero"), PathKind::Program);
    }

    void timelineKinds()
    {
        QVERIFY(opensAsTimeline(PathKind::PassLog));
        QVERIFY(opensAsTimeline(PathKind::PassDumpFolder));
        QVERIFY(!opensAsTimeline(PathKind::Program));
        QVERIFY(!opensAsTimeline(PathKind::TraceBundle));
    }
};

QTEST_GUILESS_MAIN(TestPathKind)
#include "tst_pathkind.moc"
