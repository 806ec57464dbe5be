#include "clirunner.h"
#include "dynamicinputs.h"

#include <QtTest>

namespace {

using CliRun = CliResult;

CliRun runCli(const QStringList &args)
{
    return runPirscopeCli(args);
}

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    return writeTestFile(dir, name, content);
}

QString sample(const char *file)
{
    return QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/") + QLatin1String(file);
}

QString example(const char *file)
{
    return QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/") + QLatin1String(file);
}

QJsonObject shapeOf(const QJsonObject &run, const QString &name)
{
    for (const QJsonValue &v : run["shapes"].toArray())
        if (v.toObject()["name"].toString() == name)
            return v.toObject();
    return {};
}

} // namespace

/// `--shape NAME=DIMS` in `pirscope-cli run`, `verify` and `bench run`, the defaults read from the
/// `.yml` beside a program (on the real samples too), and the error that asks for a shape.
class TestShapeCli : public QObject
{
    Q_OBJECT

private slots:
    void dynamicDimsAreNeverSilentlyOne()
    {
        QTemporaryDir dir;
        const QString program = write(dir, "dyn.txt", kDynamicInputs);
        const CliRun r = runCli({ "run", program });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains("error: dynamic dims need a shape: x (?x3x?x?), ids (?x?) (no .yml beside the "
                           "program gives a default); give them with --shape x=1x3x640x640 --shape ids=1xN"),
            r.err.constData());
        // verify --numerics and bench run say the same.
        for (const QStringList &args : { QStringList { "verify", program, "--numerics" },
                 QStringList { "bench", "run", program, "--runs", "1" } }) {
            const CliRun v = runCli(args);
            QCOMPARE(v.exitCode, 1);
            QVERIFY2(v.err.contains("--shape x=1x3x640x640 --shape ids=1xN"), v.err.constData());
        }
    }

    void shapeOptionFillsTheDims()
    {
        QTemporaryDir dir;
        const QString program = write(dir, "dyn.txt", kDynamicInputs);
        const CliRun r = runCli({ "run", program, "--shape", "x=1x3x8x6", "--shape", "ids=1x4", "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["status"].toString(), QString("finished"));
        QCOMPARE(shapeOf(o, "x")["shape"].toArray(), QJsonArray({ 1, 3, 8, 6 }));
        QCOMPARE(shapeOf(o, "x")["declared"].toArray(), QJsonArray({ -1, 3, -1, -1 }));
        QCOMPARE(shapeOf(o, "x")["origin"].toString(), QString("option"));
        QCOMPARE(shapeOf(o, "ids")["shape"].toArray(), QJsonArray({ 1, 4 }));
        QCOMPARE(shapeOf(o, "s")["shape"].toArray(), QJsonArray({ 1, 2 }));
        QCOMPARE(shapeOf(o, "s")["origin"].toString(), QString("batch"));
        QCOMPARE(shapeOf(o, "y")["origin"].toString(), QString("static"));
        QCOMPARE(o["outputs"].toArray()[0].toObject()["shape"].toArray(), QJsonArray({ 1, 3, 8, 6 }));
        // The text summary names each dynamic input's shape and where it came from.
        const CliRun text = runCli({ "run", program, "--shape", "x=2x3x4x4", "--shape", "ids=1x4" });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("shapes: x 2x3x4x4 (--shape); ids 1x4 (--shape); s 1x2 (batch 1)\n"),
            text.out.constData());

        const CliRun bench = runCli({ "bench", "run", program, "--runs", "1", "--shape", "x=1x3x4x4",
            "--shape", "ids=1x2", "--json" });
        QCOMPARE(bench.exitCode, 0);
        QCOMPARE(shapeOf(QJsonDocument::fromJson(bench.out).object(), "x")["shape"].toArray(),
            QJsonArray({ 1, 3, 4, 4 }));
        const CliRun verify
            = runCli({ "verify", program, "--numerics", "--shape", "x=1x3x4x4", "--shape", "ids=1x2" });
        QCOMPARE(verify.exitCode, 0);
        QVERIFY2(verify.out.contains("shapes: x 1x3x4x4 (--shape)"), verify.out.constData());
        QVERIFY2(verify.out.contains("numerics: ok"), verify.out.constData());
    }

    void badShapesAreRefused()
    {
        QTemporaryDir dir;
        const QString program = write(dir, "dyn.txt", kDynamicInputs);
        const std::pair<QStringList, const char *> cases[] = {
            { { "--shape", "x=1x3" }, "error: --shape x=1x3: rank 2, the input has rank 4 (?x3x?x?)" },
            { { "--shape", "x=1x4x8x8" }, "error: --shape x=1x4x8x8: dim 1 is 4, the input declares 3" },
            { { "--shape", "q=1" },
                "error: --shape q: the program has no input of that name (inputs: x, ids, s, y)" },
            { { "--shape", "x" }, "error: --shape 'x': expected NAME=DIMS such as x=1x3x640x640" },
            { { "--shape", "x=1x0x2x2" }, "error: --shape '1x0x2x2' is not a shape" },
        };
        for (const auto &[extra, message] : cases) {
            const CliRun r = runCli(QStringList { "run", program, "--shape", "ids=1x2" } + extra);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(message), r.err.constData());
        }
    }

    void ymlBesideTheProgramGivesDefaults()
    {
        QTemporaryDir dir;
        const QString program = write(dir, "dyn.txt", kDynamicInputs);
        write(dir, "dyn.yml",
            "Hpi:\n  backend_configs:\n    paddle_infer:\n      trt_dynamic_shapes:\n        x:\n"
            "        - [1, 3, 8, 8]\n        - [1, 3, 16, 16]\n        - [4, 3, 64, 64]\n");
        CliRun r = runCli({ "run", program });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     "need a shape: ids (?x?) (dyn.yml gives no shape for it); give it with --shape ids=1xN"),
            r.err.constData());
        r = runCli({ "run", program, "--shape", "ids=1x3", "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(shapeOf(o, "x")["shape"].toArray(), QJsonArray({ 1, 3, 16, 16 }));
        QCOMPARE(shapeOf(o, "x")["origin"].toString(), QString("yml"));
        QCOMPARE(shapeOf(o, "x")["note"].toString(),
            QString("dyn.yml: Hpi.backend_configs.paddle_infer.trt_dynamic_shapes.x (opt of min/opt/max)"));
        // --shape wins over the .yml.
        r = runCli({ "run", program, "--shape", "ids=1x3", "--shape", "x=1x3x4x4", "--json" });
        QCOMPARE(shapeOf(QJsonDocument::fromJson(r.out).object(), "x")["shape"].toArray(),
            QJsonArray({ 1, 3, 4, 4 }));
        // A .yml that does not parse is a warning (file:line:col) and gives no default.
        write(dir, "dyn.yml", "Hpi: [1,\n");
        r = runCli({ "run", program, "--shape", "ids=1x3" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("dyn.yml:1:9: warning:"), r.err.constData());
        QVERIFY2(r.err.contains("need a shape: x (?x3x?x?)"), r.err.constData());
        // A .yml shape that cannot stand for the input (a rank of 3, a channel count of 4) is not
        // used and says why where the shape is asked for.
        write(dir, "dyn.yml",
            "Hpi:\n  backend_configs:\n    paddle_infer:\n      trt_dynamic_shapes:\n        x:\n"
            "        - [1, 4, 8, 8]\n        - [1, 4, 16, 16]\n        - [4, 4, 64, 64]\n");
        r = runCli({ "run", program, "--shape", "ids=1x3" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains("need a shape: x (?x3x?x?) (dyn.yml's 1x4x16x16 "
                           "(Hpi.backend_configs.paddle_infer.trt_dynamic_shapes.x) is not used: dim 1 is 4, "
                           "the input declares 3"),
            r.err.constData());
    }

    void ymlDefaultsOnTheSamples()
    {
        if (!QFileInfo::exists(sample("PP-OCRv5_mobile_det_infer.inference.json")))
            QSKIP("../shared/samples is absent");
        // Stopped before the second op: the inputs are in the scope and the model is not run;
        // zero parameters keep the set-up short (DocLayout has 33M).
        const QStringList stop { "--break", "0:1", "--params", "zeros" };
        // The mobile detector's summary, as a user sees it (it ran on 1x3x1x1 before).
        const CliRun det
            = runCli(QStringList { "run", sample("PP-OCRv5_mobile_det_infer.inference.json") } + stop);
        QVERIFY2(det.exitCode == 2, det.err.constData());
        QVERIFY2(
            det.out.contains("shapes: x 1x3x736x736 (.yml: PP-OCRv5_mobile_det_infer.inference.yml: "
                             "Hpi.backend_configs.paddle_infer.trt_dynamic_shapes.x (opt of min/opt/max))"),
            det.out.constData());
        const CliRun rec = runCli(
            QStringList { "run", sample("korean_PP-OCRv5_mobile_rec_infer.inference.json"), "--json" }
            + stop);
        QVERIFY2(rec.exitCode == 2, rec.err.constData());
        const QJsonObject x = shapeOf(QJsonDocument::fromJson(rec.out).object(), "x");
        QCOMPARE(x["shape"].toArray(), QJsonArray({ 1, 3, 48, 320 }));
        QCOMPARE(x["origin"].toString(), QString("yml"));
        const CliRun layout
            = runCli(QStringList { "run", sample("PP-DocLayout_plus-L.inference.json"), "--json" } + stop);
        QVERIFY2(layout.exitCode == 2, layout.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(layout.out).object();
        QCOMPARE(shapeOf(o, "image")["shape"].toArray(), QJsonArray({ 1, 3, 800, 800 }));
        QCOMPARE(shapeOf(o, "image")["origin"].toString(), QString("yml"));
        QCOMPARE(shapeOf(o, "scale_factor")["shape"].toArray(), QJsonArray({ 1, 2 }));
        QCOMPARE(shapeOf(o, "scale_factor")["origin"].toString(), QString("yml"));
        QCOMPARE(shapeOf(o, "im_shape")["shape"].toArray(), QJsonArray({ 1, 2 }));
        QCOMPARE(shapeOf(o, "im_shape")["origin"].toString(), QString("batch"));
    }

    void pdiparamsBesideTheProgramIsTheDefault()
    {
        const CliRun chosen = runCli(
            { "run", example("lenet_bn.json"), "--params", example("lenet_bn.pdiparams"), "--json" });
        const CliRun byDefault = runCli({ "run", example("lenet_bn.json"), "--json" });
        QCOMPARE(byDefault.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(byDefault.out).object();
        QVERIFY2(o["params"].toString().endsWith("lenet_bn.pdiparams"), qPrintable(o["params"].toString()));
        QCOMPARE(o["outputs"], QJsonDocument::fromJson(chosen.out).object()["outputs"]);
        const CliRun random = runCli({ "run", example("lenet_bn.json"), "--params", "random", "--json" });
        QVERIFY(QJsonDocument::fromJson(random.out).object()["outputs"] != o["outputs"]);
    }
};

QTEST_GUILESS_MAIN(TestShapeCli)
#include "tst_shapecli.moc"
