#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
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

QString samples()
{
    return QStringLiteral(PIRSCOPE_SAMPLES_DIR);
}

QString example()
{
    return QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
}

} // namespace

/// pirscope-cli end to end: the documented `--json` contracts, value ids shared with `print`,
/// and exit status 1 with a positioned `error:` on bad input (never a signal).
class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void infoJsonOnSamples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("ops");
        QTest::addColumn<int>("parameters");
        QTest::addColumn<int>("version");
        QTest::newRow("mobile_det") << "json/PP-OCRv5_mobile_det_infer.inference.json" << 668 << 234 << 1;
        QTest::newRow("server_det") << "json/PP-OCRv5_server_det_infer.inference.json" << 1052 << -1 << 1;
        QTest::newRow("server_det_v3") << "json/PP-OCRv5_server_det.v3.inference.json" << 1052 << -1 << 3;
        QTest::newRow("server_rec") << "json/PP-OCRv5_server_rec_infer.inference.json" << 825 << -1 << 1;
        QTest::newRow("korean_rec") << "json/korean_PP-OCRv5_mobile_rec_infer.inference.json" << 641 << -1
                                    << 1;
        QTest::newRow("doclayout") << "json/PP-DocLayout_plus-L.inference.json" << 2641 << -1 << 1;
    }

    void infoJsonOnSamples()
    {
        QFETCH(QString, file);
        QFETCH(int, ops);
        QFETCH(int, parameters);
        QFETCH(int, version);
        const QString path = samples() + "/" + file;
        if (!QFile::exists(path))
            QSKIP("../shared/samples is absent");
        const CliRun r = runCli({ "info", path, "--json" });
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 0);
        QJsonParseError err;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(o["format"].toString(), QStringLiteral("pir-json"));
        QCOMPARE(o["version"].toInt(), version);
        QCOMPARE(o["ops"].toInt(), ops);
        QCOMPARE(o["ops_total"].toInt(), ops);
        const QJsonObject counts = o["op_counts"].toObject();
        int sum = 0;
        for (auto it = counts.begin(); it != counts.end(); ++it) {
            QVERIFY2(it.key().contains('.'), qPrintable(it.key()));
            sum += it.value().toInt();
        }
        QCOMPARE(sum, ops);
        QCOMPARE(o["parameters"].toArray().size(), counts["builtin.parameter"].toInt());
        if (parameters >= 0)
            QCOMPARE(counts["builtin.parameter"].toInt(), parameters);
        QCOMPARE(o["inputs"].toArray().size(), counts["pd_op.data"].toInt());
        QCOMPARE(o["outputs"].toArray().size(), counts["pd_op.fetch"].toInt());
        QVERIFY(o["values"].toInt()
            >= ops - counts["builtin.shadow_output"].toInt() - counts["pd_op.fetch"].toInt());
    }

    void infoOnBundledExample()
    {
        const CliRun r = runCli({ "info", example(), "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["version"].toInt(), 4);
        QCOMPARE(o["inputs"].toArray().at(0).toString(), QStringLiteral("image"));
        QCOMPARE(o["op_counts"].toObject()["pd_op.batch_norm_"].toInt(), 2);
        QCOMPARE(o["op_counts"].toObject()["pd_op.conv2d"].toInt(), 2);
    }

    void textInfoMatchesJsonInfo()
    {
        // The bundled example is the same program as JSON and as Paddle's own Gen C print.
        const CliRun json = runCli({ "info", example(), "--json" });
        const CliRun text = runCli(
            { "info", QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.txt"), "--json" });
        QCOMPARE(text.exitCode, 0);
        QJsonObject a = QJsonDocument::fromJson(json.out).object();
        QJsonObject b = QJsonDocument::fromJson(text.out).object();
        QCOMPARE(b["format"].toString(), QStringLiteral("pir-text"));
        QVERIFY(b["version"].isNull());
        QCOMPARE(b["op_counts"].toObject(), a["op_counts"].toObject());
        QCOMPARE(b["parameters"].toArray(), a["parameters"].toArray());
        QCOMPARE(b["values"].toInt(), a["values"].toInt());
    }

    void printThenInfoRoundTrips()
    {
        QTemporaryDir dir;
        for (const QString gen : { "B", "C" }) {
            const CliRun printed = runCli({ "print", example(), "--gen", gen });
            QCOMPARE(printed.exitCode, 0);
            QVERIFY(printed.out.startsWith("{\n"));
            const QString path = dir.filePath("p" + gen + ".txt");
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(printed.out);
            f.close();
            const CliRun reprinted = runCli({ "print", path, "--gen", gen });
            QCOMPARE(reprinted.exitCode, 0);
            QCOMPARE(reprinted.out, printed.out);
        }
        QVERIFY(runCli({ "print", example(), "--gen", "B" }).out.contains("builtin.tensor<"));
        QCOMPARE(runCli({ "print", example(), "--gen", "X" }).exitCode, 1);
    }

    void namesUsePrinterIds()
    {
        const CliRun r = runCli({ "names", example(), "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray names = QJsonDocument::fromJson(r.out).object()["names"].toArray();
        QVERIFY(!names.isEmpty());
        const QByteArray printed = runCli({ "print", example() }).out;
        bool sawData = false;
        for (const QJsonValue &v : names) {
            const QJsonObject e = v.toObject();
            const QString id = e["value"].toString();
            QVERIFY2(id.startsWith('%'), qPrintable(id));
            const QString source = e["source"].toString();
            QVERIFY(QStringList({ "data", "parameter", "shadow_output", "set_parameter", "kwarg" })
                        .contains(source));
            if (source == "data") {
                sawData = true;
                QCOMPARE(e["name"].toString(), QStringLiteral("image"));
                QVERIFY(printed.contains(("(" + id + ") = \"pd_op.data\"").toUtf8()));
            }
            if (source == "parameter")
                QVERIFY(printed.contains(("(" + id + ") = \"builtin.parameter\"").toUtf8()));
        }
        QVERIFY(sawData);
    }

    void inplaceGroupsOfBatchNorm()
    {
        const CliRun r = runCli({ "inplace", example(), "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray groups = o["groups"].toArray();
        // Two batch_norm_ ops, each tying mean and variance outputs to their parameters.
        QCOMPARE(groups.size(), 4);
        for (const QJsonValue &g : groups) {
            const QJsonObject group = g.toObject();
            QCOMPARE(group["members"].toArray().size(), 2);
            QVERIFY(group["root_name"].toString().startsWith("batch_norm2d_"));
            QVERIFY(group["members"].toArray().contains(group["root"]));
        }
        QVERIFY(o["renames"].toArray().isEmpty());
    }

    void dotIsGraphviz()
    {
        const CliRun r = runCli({ "dot", example() });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("digraph"));
        QVERIFY(r.out.contains("nslimit"));
        QVERIFY(r.out.contains("conv2d"));
    }

    void verifyCleanProgram()
    {
        const CliRun r = runCli({ "verify", example() });
        QCOMPARE(r.exitCode, 0);
    }

    void benchLoadJson()
    {
        const CliRun r = runCli({ "bench", "load", example(), "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["bytes"].toInt(), int(QFileInfo(example()).size()));
        QVERIFY(o["seconds"].toDouble() > 0);
        QVERIFY(o["mb_per_s"].toDouble() > 0);
        QVERIFY(o["baseline_mb_per_s"].toDouble() > 0);
        // Both forms of the same program, each against simdjson's parse of the JSON form.
        QCOMPARE(o["format"].toString(), QString("json"));
        const QJsonObject json = o["json"].toObject();
        const QJsonObject text = o["text"].toObject();
        QCOMPARE(json["bytes"].toInt(), o["bytes"].toInt());
        QVERIFY(text["bytes"].toInt() > 0);
        QVERIFY(json["ratio_to_simdjson"].toDouble() > 0);
        QVERIFY(text["ratio_to_simdjson"].toDouble() > 0);
        QCOMPARE(json["ratio_to_simdjson"].toDouble(), o["ratio_to_baseline"].toDouble());
    }

    void benchLoadTextFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("program.txt");
        const CliRun printed = runCli({ "print", example() });
        QCOMPARE(printed.exitCode, 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(printed.out);
        file.close();
        const CliRun r = runCli({ "bench", "load", path, "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["format"].toString(), QString("text"));
        QCOMPARE(o["text"].toObject()["bytes"].toInt(), int(printed.out.size()));
        QVERIFY(o["json"].toObject()["ratio_to_simdjson"].toDouble() > 0);
        QVERIFY(o["text"].toObject()["ratio_to_simdjson"].toDouble() > 0);
    }

    void userErrors_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated json")
            << QByteArray("{\"base_code\":{\"magic\":\"pir\",\"version\":1},\"prog") << "bad.txt:";
        QTest::newRow("bad magic") << QByteArray(
            "{\"base_code\":{\"magic\":\"xyz\",\"version\":1},\"program\":{}}")
                                   << "magic";
        QTest::newRow("undefined text value")
            << QByteArray("{\n    (%1) = \"pd_op.relu\" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>\n}\n")
            << "bad.txt:2:";
        QTest::newRow("garbage") << QByteArray("\x01\x02\xff not a program") << "bad.txt:";
    }

    void userErrors()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.txt");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        for (const QString cmd : { "info", "print", "names", "inplace", "dot", "verify" }) {
            const CliRun r = runCli({ cmd, path });
            QCOMPARE(r.status, QProcess::NormalExit);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("error: "), r.err.constData());
            QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
        }
    }

    void missingFileAndBadUsage()
    {
        CliRun r = runCli({ "info", "/nonexistent/x.json" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("error: "));
        QVERIFY(r.err.contains("/nonexistent/x.json"));
        QCOMPARE(runCli({ "frobnicate" }).exitCode, 1);
        QCOMPARE(runCli({ "info" }).exitCode, 1);
        QCOMPARE(runCli({ "info", example(), "--bogus" }).exitCode, 1);
        QCOMPARE(runCli({ "--help" }).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
