#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

/// `pirscope-cli bench pipeline` smoke tests: it runs on a small generated program and its
/// `--json` output carries every documented key. Times are not checked.
class TestBenchPipeline : public QObject
{
    Q_OBJECT

    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    static Run cli(const QStringList &args)
    {
        Run r;
        QProcess p;
        p.start(QStringLiteral(PIRSCOPE_CLI_PATH), args);
        if (!p.waitForFinished(240000))
            return r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

private slots:
    void json_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("opsPerLayer");
        QTest::addColumn<int>("trainOpsPerLayer");
        // Train program per layer: the forward ops, one grad op per differentiable op (plus the
        // add_n + combine that sum the gradients of values used twice), one grad_output shadow
        // output per parameter.
        QTest::newRow("mlp") << "mlp" << 8 << 16;
        QTest::newRow("transformer") << "transformer" << 50 << 99;
    }
    void json()
    {
        QFETCH(QString, kind);
        QFETCH(int, opsPerLayer);
        QFETCH(int, trainOpsPerLayer);
        const Run r
            = cli({ "bench", "pipeline", "--ops", "500", "--kind", kind, "--json", "--min-seconds", "0" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject o = doc.object();
        for (const char *key : { "kind", "layers", "forward_ops", "train_ops", "forward_program_ops",
                 "backward_program_ops", "allocator", "seconds", "cpu_seconds", "ratio_total_to_clone", "target_seconds",
                 "forward_ops_per_second" })
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value("kind").toString(), kind);
        const int layers = o.value("layers").toInt();
        QCOMPARE(o.value("forward_ops").toInt(), 3 + layers * opsPerLayer + 1); // + output_0 shadow output
        QVERIFY(o.value("forward_ops").toInt() <= 501);
        QVERIFY(o.value("forward_ops").toInt() > 500 - opsPerLayer);
        // + full, full_like, grad_input_0, mean_grad and the input's grad_output_0.
        QCOMPARE(o.value("train_ops").toInt(),
            o.value("forward_ops").toInt() + layers * (trainOpsPerLayer - opsPerLayer) + 5);
        QVERIFY(o.value("backward_program_ops").toInt() > 0);
        for (const char *group : { "seconds", "cpu_seconds" }) {
            const QJsonObject seconds = o.value(QLatin1String(group)).toObject();
            for (const char *key : { "clone_baseline", "clone", "backward", "split", "program_name_attr",
                     "total", "program_attr", "create_program" }) {
                QVERIFY2(seconds.value(QLatin1String(key)).isDouble(), key);
                QVERIFY2(seconds.value(QLatin1String(key)).toDouble() > 0, key);
            }
        }
        QVERIFY(o.value("ratio_total_to_clone").toDouble() > 0);
    }

    void dumpProgram()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("mlp.txt");
        const Run r
            = cli({ "bench", "pipeline", "--ops", "40", "--min-seconds", "0", "--dump-program", path });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("backward + split"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QCOMPARE(text.count("\"pd_op.matmul\""), 4); // (40 - 3) / 8 layers
        QVERIFY(text.contains("parameter_name:\"linear_3.w_0\""));
        QVERIFY(text.contains("\"pd_op.mean\""));
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("kind") << QStringList { "--kind", "cnn" };
        QTest::newRow("ops") << QStringList { "--ops", "zero" };
        QTest::newRow("negative") << QStringList { "--ops", "-5" };
        QTest::newRow("positional") << QStringList { "extra" };
    }
    void badArguments()
    {
        QFETCH(QStringList, args);
        const Run r = cli(QStringList { "bench", "pipeline" } + args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.startsWith("error:"));
    }
};

QTEST_GUILESS_MAIN(TestBenchPipeline)
#include "tst_benchpipeline.moc"
