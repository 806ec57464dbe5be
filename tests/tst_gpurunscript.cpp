// tests/gpu/run.sh gives a verdict whatever happens: a fake check program that hangs is cut by a
// short deadline (INCOMPLETE), a failing one makes FAIL, terminating the script still writes the
// verdict line, and the real stages run through cuda-sim end with PASS.

#include <QtTest>

namespace {

QString script()
{
    return QStringLiteral(PIRSCOPE_SOURCE_DIR "/tests/gpu/run.sh");
}

/// A kit whose pirscope-gpu-check runs `body` (bash, $1 is the subcommand).
QString fakeKit(const QTemporaryDir &dir, const QString &body)
{
    QDir().mkpath(dir.filePath("kit/bin"));
    const QString check = dir.filePath("kit/bin/pirscope-gpu-check");
    QFile f(check);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(("#!/usr/bin/env bash\n" + body + "\n").toUtf8());
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    return dir.filePath("kit");
}

QStringList summaryLines(const QTemporaryDir &dir)
{
    QFile f(dir.filePath("out/summary.md"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
}

QProcessEnvironment environment(const QTemporaryDir &dir, const QString &kit, int deadline)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OUT", dir.filePath("out"));
    env.insert("PIRSCOPE_GPU_KIT", kit);
    env.insert("PIRSCOPE_GPU_DEADLINE", QString::number(deadline));
    env.insert("PIRSCOPE_GPU_CLI", "/bin/true");
    env.insert("PIRSCOPE_GPU_SANITIZER", "none");
    return env;
}

} // namespace

class TestGpuRunScript : public QObject
{
    Q_OBJECT

private slots:
    void deadlineCutsAHangingStage()
    {
        QTemporaryDir dir;
        const QString kit = fakeKit(dir, "case $1 in info) echo 'Device: fake';; *) sleep 60;; esac");
        QProcess p;
        p.setWorkingDirectory(PIRSCOPE_SOURCE_DIR);
        p.setProcessEnvironment(environment(dir, kit, 12));
        QElapsedTimer timer;
        timer.start();
        p.start("bash", { script() });
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(timer.elapsed() < 30000, "the deadline did not stop the run");
        QCOMPARE(p.exitCode(), 3);
        const QStringList lines = summaryLines(dir);
        QVERIFY(!lines.isEmpty());
        QCOMPARE(lines.last(), QStringLiteral("VERDICT: INCOMPLETE"));
        QVERIFY(lines.filter(QRegularExpression("^\\| device info \\| ok \\|")).size() == 1);
        QVERIFY(lines.filter(QStringLiteral("INCOMPLETE**: stopped after")).size() >= 1);
        QVERIFY(lines.filter(QStringLiteral("deadline has passed")).size() >= 1);
    }

    void aFailingStageFails()
    {
        QTemporaryDir dir;
        const QString kit = fakeKit(dir, "case $1 in kernels) echo 'broken'; exit 1;; *) echo ok;; esac");
        QProcess p;
        p.setWorkingDirectory(PIRSCOPE_SOURCE_DIR);
        p.setProcessEnvironment(environment(dir, kit, 120));
        p.start("bash", { script() });
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 1);
        const QStringList lines = summaryLines(dir);
        QCOMPARE(lines.last(), QStringLiteral("VERDICT: FAIL"));
        QCOMPARE(lines.filter(QRegularExpression("^\\| kernel fixtures: .* \\| \\*\\*FAILED\\*\\* \\(exit 1\\)")).size(), 4);
    }

    void terminatedScriptStillGivesAVerdict()
    {
        QTemporaryDir dir;
        const QString kit = fakeKit(dir, "case $1 in info) echo 'Device: fake';; *) sleep 60;; esac");
        QProcess p;
        p.setWorkingDirectory(PIRSCOPE_SOURCE_DIR);
        p.setProcessEnvironment(environment(dir, kit, 500));
        p.start("bash", { script() });
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(summaryLines(dir).filter(QStringLiteral("device info")).size() == 1, 20000);
        p.terminate(); // SIGTERM, as a call's timeout sends
        QVERIFY(p.waitForFinished(20000));
        const QStringList lines = summaryLines(dir);
        QCOMPARE(lines.last(), QStringLiteral("VERDICT: INCOMPLETE"));
        QVERIFY(lines.filter(QStringLiteral("(terminated)")).size() == 1);
    }

    /// `prepare.sh --deps` lays out Debian's simdjson so that build_and_run.sh's CMake on the GPU
    /// machine finds it in the kit (plain files, the package file inside the kit), and the kit
    /// names the commit; build_and_run.sh refuses a kit without them.
    void depsKitIsFoundByCMake()
    {
        if (!QFileInfo::exists("/usr/include/simdjson.h"))
            QSKIP("libsimdjson-dev is not installed");
        QTemporaryDir dir;
        const QString kit = dir.filePath("kit");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PIRSCOPE_GPU_KIT", kit);
        QProcess prepare;
        prepare.setProcessEnvironment(env);
        prepare.start("bash", { QStringLiteral(PIRSCOPE_SOURCE_DIR "/tests/gpu/prepare.sh"), "--deps" });
        QVERIFY(prepare.waitForFinished(60000));
        QVERIFY2(prepare.exitCode() == 0, prepare.readAllStandardError().constData());
        QVERIFY(QFileInfo::exists(kit + "/COMMIT"));
        QDirIterator files(kit + "/deps", QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System,
            QDirIterator::Subdirectories);
        int libraries = 0;
        while (files.hasNext()) {
            const QFileInfo f(files.next());
            QVERIFY2(!f.isSymLink(), qPrintable(f.filePath() + " is a link"));
            libraries += f.fileName().startsWith("libsimdjson.so.");
        }
        QVERIFY(libraries >= 1);

        QDir().mkpath(dir.filePath("project"));
        QFile lists(dir.filePath("project/CMakeLists.txt"));
        QVERIFY(lists.open(QIODevice::WriteOnly));
        lists.write("cmake_minimum_required(VERSION 3.25)\nproject(probe LANGUAGES CXX)\n"
                    "find_package(simdjson REQUIRED)\nmessage(STATUS \"simdjson from ${simdjson_DIR}\")\n");
        lists.close();
        QProcess cmake;
        cmake.setProcessChannelMode(QProcess::MergedChannels);
        cmake.start("cmake", { "-S", dir.filePath("project"), "-B", dir.filePath("project/build"),
                                 "-DCMAKE_PREFIX_PATH=" + kit + "/deps/usr" });
        QVERIFY(cmake.waitForFinished(60000));
        const QString log = QString::fromUtf8(cmake.readAll());
        QVERIFY2(cmake.exitCode() == 0, qPrintable(log));
        QVERIFY2(log.contains("simdjson from " + kit + "/deps/usr/lib/x86_64-linux-gnu/cmake/simdjson"), qPrintable(log));

        QProcess run;
        env.insert("OUT", dir.filePath("out"));
        env.insert("PIRSCOPE_GPU_KIT", dir.filePath("empty-kit"));
        run.setProcessEnvironment(env);
        run.setWorkingDirectory(PIRSCOPE_SOURCE_DIR);
        run.start("bash", { QStringLiteral(PIRSCOPE_SOURCE_DIR "/tests/gpu/build_and_run.sh") });
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 2);
        QVERIFY(run.readAllStandardError().contains("prepare.sh --deps"));
    }

    void cudaSimRunPasses()
    {
#ifndef PIRSCOPE_GPU_CHECK_SIM
        QSKIP("built without cuda-sim");
#else
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("OUT", dir.filePath("out"));
        env.insert("PIRSCOPE_GPU_CHECK", PIRSCOPE_GPU_CHECK_SIM);
        env.insert("PIRSCOPE_GPU_CLI", PIRSCOPE_CLI_PATH);
        env.insert("PIRSCOPE_GPU_QUICK", "1");
        env.insert("PIRSCOPE_GPU_DEADLINE", "280");
        QProcess p;
        p.setWorkingDirectory(PIRSCOPE_SOURCE_DIR);
        p.setProcessEnvironment(env);
        p.start("bash", { script() });
        QVERIFY(p.waitForFinished(300000));
        const QStringList lines = summaryLines(dir);
        QFile details(dir.filePath("out/details.md"));
        QVERIFY(details.open(QIODevice::ReadOnly));
        const QByteArray text = details.readAll();
        QVERIFY2(!lines.isEmpty() && lines.last() == QStringLiteral("VERDICT: PASS"),
            qPrintable(lines.join('\n') + "\n" + QString::fromUtf8(text.right(6000))));
        QCOMPARE(p.exitCode(), 0);
        for (const QString &l : lines)
            if (l.startsWith('|'))
                qInfo("%s", qPrintable(l));
#endif
    }
};

QTEST_GUILESS_MAIN(TestGpuRunScript)
#include "tst_gpurunscript.moc"
