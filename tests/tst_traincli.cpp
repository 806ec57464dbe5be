#include "core/ir/valuenumbering.h"
#include "core/runtime/npyio.h"
#include "core/runtime/tensor.h"
#include "core/runtime/tensorcomparison.h"
#include "paddlebundle.h"

#include <QtTest>

namespace {

struct CliRun
{
    int exitCode = -1;
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
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

ps::Tensor readNpy(const QString &path)
{
    std::string error;
    return ps::NpyIO::read(path.toStdString(), error);
}

} // namespace

/// `--mode train` on plain programs: split, run and passes build the backward as the GUI's Train
/// mode does, and the gradients of `run --mode train --output ...` on a golden bundle's program.txt
/// (the program `print(program)` shows: no backward, no output marked) equal Paddle's.
class TestTrainCli : public QObject
{
    Q_OBJECT

private slots:
    void runGradientsEqualPaddle_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : bundle::kModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    void runGradientsEqualPaddle()
    {
        QFETCH(QString, model);
        const QString dir = bundle::dir(model);
        const QJsonObject manifest = bundle::readJson(dir + "/manifest.json");
        if (manifest.isEmpty())
            QSKIP("golden bundle missing");
        if (!manifest.value("training").toBool())
            QSKIP("an eval-mode bundle has no gradients");
        for (const QJsonValue &e : manifest.value("errors").toArray())
            if (e.toObject().value("stage").toString() == "backward")
                QSKIP(qPrintable("Paddle's own backward failed, no gradients to compare: "
                    + e.toObject().value("error").toString()));
        // program.txt marks no output (print(program) has no shadow outputs): name the values the
        // layer returned, as the manifest records them, by their printer ids.
        auto program = bundle::loadText(dir + "/program.txt");
        QVERIFY(program);
        const ps::ValueNumbering numbering(*program);
        QStringList args { "run", dir + "/program.txt", "--mode", "train", "--inputs", dir + "/inputs", "--params",
            dir + "/params", "--json" };
        for (const QJsonValue &o : manifest.value("outputs").toArray()) {
            const QJsonObject def = o.toObject().value("defined_by").toObject();
            const ps::Operation *op = program->block().op(size_t(def.value("op_index").toInt()));
            const QString id = QString::fromStdString(numbering.name(op->result(unsigned(def.value("result_index").toInt()))));
            if (!args.contains(id))
                args << "--output" << id;
        }
        QTemporaryDir out;
        args << "--dump" << out.path();
        const CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["status"].toString(), QString("finished"));
        QCOMPARE(o["segments"].toArray().size(), 2);

        double worst = 0;
        int compared = 0;
        for (const char *group : { "inputs", "parameters" }) {
            for (const QJsonValue &entry : manifest.value(group).toArray()) {
                const QJsonObject e = entry.toObject();
                const QString expectedFile = e.value("grad_file").toString();
                if (expectedFile.isEmpty())
                    continue;
                const QString sub = QString(group) == "inputs" ? "grads/inputs/" : "grads/params/";
                const ps::Tensor expected = readNpy(dir + "/" + expectedFile);
                const ps::Tensor actual = readNpy(out.filePath(sub + e.value("name").toString() + ".npy"));
                QVERIFY2(
                    actual.defined(), qPrintable("no gradient written for " + e.value("name").toString()));
                const ps::TensorComparison c = ps::TensorComparison::compare(actual, expected, 1e-4, 1e-5);
                QVERIFY2(c.ok(),
                    qPrintable(e.value("name").toString() + ": " + QString::fromStdString(c.summary())));
                worst = std::max(worst, c.maxAbsError);
                ++compared;
            }
        }
        QVERIFY(compared > 0);
        qInfo("%s: %d gradients equal to Paddle's, max abs error %g", qPrintable(model), compared, worst);
    }

    void parametersSortedByNameAsPaddle_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *model : { "mlp_ce", "lenet", "conv_bn_relu", "transformer_encoder" })
            QTest::newRow(model) << QString(model);
    }

    void parametersSortedByNameAsPaddle()
    {
        // dy2static lists a layer's parameters sorted by name (ParametersRecorder.pop), not in
        // the order the program creates them: the split of the plain program names fp, bp and
        // bp_g as Paddle 3.3.1 did when it traced the model (program_attributes.json).
        QFETCH(QString, model);
        const QString dir = bundle::dir(model.toLatin1().constData());
        if (!QFileInfo::exists(dir + "/program.txt"))
            QSKIP("golden bundle missing");
        QFile text(dir + "/program.txt");
        QVERIFY(text.open(QIODevice::ReadOnly));
        QStringList programOrder;
        const QRegularExpression name(QStringLiteral("parameter_name:\"([^\"]+)\""));
        for (auto it = name.globalMatch(QString::fromUtf8(text.readAll())); it.hasNext();)
            programOrder << it.next().captured(1);
        QStringList sorted = programOrder;
        sorted.sort();
        QVERIFY2(programOrder != sorted, "the program creates its parameters in name order");

        const CliRun r = runCli({ "split", dir + "/program.txt", "--mode", "train", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject ours = QJsonDocument::fromJson(r.out).object()["attributes"].toObject();
        QFile attributes(dir + "/program_attributes.json");
        QVERIFY(attributes.open(QIODevice::ReadOnly));
        const QJsonObject paddle = QJsonDocument::fromJson(attributes.readAll()).object();
        auto compact = [](const QJsonValue &v) {
            return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
        };
        for (const char *key : { "fx", "fp", "bp", "bp_g", "bx_g" })
            QVERIFY2(ours[key] == paddle[key],
                qPrintable(QString("%1: %2, Paddle: %3").arg(key, compact(ours[key]), compact(paddle[key]))));
        QCOMPARE(ours["fp"].toArray().size(), programOrder.size());
    }

    void splitAndPassesInTrainMode()
    {
        const QString program = bundle::dir("mlp_ce") + "/program.txt";
        if (!QFileInfo::exists(program))
            QSKIP("golden bundle missing");
        CliRun r = runCli({ "split", program, "--mode", "train", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["kind"].toString(), QString("train"));
        QVERIFY(o["has_backward"].toBool());
        QVERIFY(o["backward"].toObject()["ops"].toInt() > 0);
        // Infer mode (the default) keeps the program forward-only.
        r = runCli({ "split", program, "--json" });
        QCOMPARE(QJsonDocument::fromJson(r.out).object()["kind"].toString(), QString("inference"));

        // The passes see the whole train program: gradients are among the outputs checked.
        r = runCli(
            { "passes", program, "--mode", "train", "--enable", "fold", "--check-numerics", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        o = QJsonDocument::fromJson(r.out).object();
        bool gradientChecked = false;
        for (const QJsonValue &p : o["passes"].toArray())
            for (const QJsonValue &out : p.toObject()["numerics"].toObject()["outputs"].toArray())
                gradientChecked |= out.toObject()["name"].toString().startsWith("grad_output_");
        QVERIFY(gradientChecked);

        QCOMPARE(runCli({ "run", program, "--mode", "sideways" }).exitCode, 1);
        QCOMPARE(runCli({ "run", program, "--mode", "train", "--output", "%999" }).exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestTrainCli)
#include "tst_traincli.moc"
