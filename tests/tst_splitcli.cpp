#include "paddlebundle.h"

#include <QProcess>
#include <QtTest>

namespace {

struct CliRun
{
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QByteArray out;
    QByteArray err;
};

CliRun runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(PIRSCOPE_CLI_PATH), args);
    CliRun r;
    if (!p.waitForFinished(120000))
        return r;
    r.exitCode = p.exitCode();
    r.status = p.exitStatus();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QStringList sortedStrings(const QJsonArray &a)
{
    QStringList l;
    for (const QJsonValue &v : a)
        l << v.toString();
    l.sort();
    return l;
}

} // namespace

/// pirscope-cli split, compare and passes on the golden bundles: the documented `--json`
/// contracts and exit codes.
class TestSplitCli : public QObject
{
    Q_OBJECT

private slots:
    void splitBundleAndTrainLayout_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : bundle::kModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    /// A bundle folder and its bare train_program.txt (names and ranges inferred from the layout)
    /// both give Paddle's 12 lists.
    void splitBundleAndTrainLayout()
    {
        QFETCH(QString, model);
        const QString dir = bundle::dir(model);
        if (!QFileInfo::exists(dir + "/manifest.json"))
            QSKIP("golden bundle missing");
        const QJsonObject expected = bundle::readJson(dir + "/split/program_attributes.json");
        const QJsonObject manifest = bundle::readJson(dir + "/manifest.json");
        for (const QString &source : { dir, dir + "/train_program.txt" }) {
            const CliRun r = runCli({ "split", source, "--json" });
            QCOMPARE(r.status, QProcess::NormalExit);
            QCOMPARE(r.exitCode, 0);
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(o.value("kind").toString(), source == dir ? QString("bundle") : QString("train"));
            QCOMPARE(o.value("forward_range").toArray(), manifest.value("forward_range").toArray());
            QCOMPARE(o.value("backward_range").toArray(), manifest.value("backward_range").toArray());
            const QJsonObject attributes = o.value("attributes").toObject();
            QCOMPARE(attributes.size(), 12);
            for (auto it = expected.begin(); it != expected.end(); ++it) {
                if (it.key() == "no_need_buffers")
                    QCOMPARE(sortedStrings(attributes.value(it.key()).toArray()),
                        sortedStrings(it.value().toArray()));
                else
                    QCOMPARE(attributes.value(it.key()).toArray(), it.value().toArray());
            }
            const QJsonArray middles = o.value("middles").toArray();
            QCOMPARE(middles.size(), expected.value("fm").toArray().size());
            qint64 total = 0;
            for (const QJsonValue &m : middles)
                total += m.toObject().value("bytes").toInteger(0);
            QCOMPARE(o.value("middle_bytes").toInteger(), total);
            QVERIFY(o.value("diagnostics").toArray().isEmpty());
        }
    }

    void splitTextAndInference()
    {
        const QString dir = bundle::dir("mlp_ce");
        if (!QFileInfo::exists(dir + "/manifest.json"))
            QSKIP("golden bundle missing");
        CliRun r = runCli({ "split", dir });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("forward [0, 15), backward [18, 25)"));
        QVERIFY(r.out.contains("middle_0\ttensor<4x6xf32>\t96 bytes\tpd_op.matmul"));
        r = runCli({ "split", dir + "/origin_runnable_program.txt", "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("kind").toString(), QString("inference"));
        QCOMPARE(o.value("has_backward").toBool(), false);
        QCOMPARE(o.value("backward").toObject().value("ops").toInt(), 0);
        QCOMPARE(o.value("attributes").toObject().value("fo").toArray(), QJsonArray({ "output_0" }));
        QCOMPARE(runCli({ "split", dir, "--flavour", "nope" }).exitCode, 1);
        QCOMPARE(runCli({ "split" }).exitCode, 1);
    }

    void compareExitCodes()
    {
        const QString dir = bundle::dir("lenet");
        if (!QFileInfo::exists(dir + "/manifest.json"))
            QSKIP("golden bundle missing");
        CliRun r = runCli({ "compare", dir + "/forward_program.txt", dir + "/forward_program.txt" });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("equal"));
        r = runCli({ "compare", dir + "/split/forward_program.txt", dir + "/forward_program.txt", "--json" });
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(!o.value("equal").toBool());
        QCOMPARE(o.value("op_index").toInt(), 13); // where CSE inserted the assign
        QVERIFY(o.value("op_b").toString().contains("pd_op.assign"));
        QCOMPARE(runCli({ "compare", dir + "/missing.txt", dir + "/forward_program.txt" }).exitCode, 2);
    }

    void passesReport()
    {
        const QString dir = bundle::dir("lenet");
        if (!QFileInfo::exists(dir + "/manifest.json"))
            QSKIP("golden bundle missing");
        CliRun r = runCli(
            { "passes", dir + "/split/forward_program.txt", "--enable", "dce,cse", "--json", "--print" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray passes = o.value("passes").toArray();
        QCOMPARE(passes.size(), 2);
        QCOMPARE(passes[0].toObject().value("pass").toString(), QString("dead_code_elimination_pass"));
        const QJsonObject cse = passes[1].toObject();
        QCOMPARE(cse.value("removed").toInt(), 2);
        QCOMPARE(cse.value("added").toInt(), 1);
        QCOMPARE(cse.value("ops_after").toInt(), 36);
        // The program after the passes is Paddle's final forward program.
        auto ours = ps::PirTextReader::readString(o.value("program").toString().toStdString(), "cli").program;
        auto paddle = bundle::loadText(dir + "/forward_program.txt");
        QVERIFY(ours && paddle);
        QVERIFY(ps::ProgramDiff::compare(*ours, *paddle).equal);

        r = runCli({ "passes", dir + "/split/forward_program.txt" });
        QVERIFY(r.out.contains("common_subexpression_elimination_pass: 2 rewrites, ops 37 -> 36 (-2 +1 ~3)"));
        QVERIFY(r.out.contains("+ (%13) = \"pd_op.assign\" (%12)"));
        // Ops whose operands CSE redirected are listed as edited in place.
        QVERIFY(r.out.contains("~ (%16) = \"pd_op.reshape\" (%2, %8)"));
        QCOMPARE(runCli({ "passes", dir + "/split/forward_program.txt", "--disable", "nope" }).exitCode, 1);
        QVERIFY(runCli({ "passes", "--list" }).out.contains("cse\ton"));
    }
};

QTEST_GUILESS_MAIN(TestSplitCli)
#include "tst_splitcli.moc"
