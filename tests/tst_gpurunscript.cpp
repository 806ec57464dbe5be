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
