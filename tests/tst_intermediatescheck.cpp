#include "clirunner.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/npyio.h"
#include "core/session/pipelinesource.h"
#include "core/transform/pipelineresult.h"
#include "runlogtestfiles.h"

#include <QtTest>
#include <filesystem>

using namespace ps;

namespace {

const char *const kBundles[] = { "mlp_ce", "lenet", "conv_bn_relu", "transformer_encoder", "inplace_chain",
    "pruned_param", "nested_output", "embedding_mean", "nan_log" };

QString bundle(const char *name)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + QLatin1String(name);
}

QJsonObject verify(const QStringList &args, int expectedExit)
{
    const CliResult r
        = runPirscopeCli(QStringList { "verify" } + args + QStringList { "--intermediates", "--json" });
    if (r.exitCode != expectedExit)
        qWarning("exit %d: %s %s", r.exitCode, r.out.constData(), r.err.constData());
    [&] { QCOMPARE(r.exitCode, expectedExit); }();
    return QJsonDocument::fromJson(r.out).object().value("intermediates").toObject();
}

QString alteredCopy(const QTemporaryDir &dir, const char *name, const std::string &file, float delta)
{
    return alteredBundleCopy(dir, bundle(name), file, delta);
}

} // namespace

class TestIntermediatesCheck : public QObject
{
    Q_OBJECT

private slots:
    void manifestListsThem()
    {
        DiagnosticList diagnostics;
        auto b = TraceBundle::open(bundle("mlp_ce").toStdString(), diagnostics);
        QVERIFY(b);
        QCOMPARE(b->intermediatesProgram(), std::string("train_program"));
        QCOMPARE(b->intermediates().size(), size_t(22));
        QCOMPARE(b->intermediates()[0].opIndex, size_t(6));
        QCOMPARE(b->intermediates()[0].opName, std::string("pd_op.matmul"));

        DiagnosticList bad;
        QVERIFY(!TraceBundle::fromManifestText(
            "{\"name\": \"x\", \"inputs\": [], \"outputs\": [], \"intermediates\": {\"program\": \"other\", "
            "\"values\": []}}",
            "/tmp/x/manifest.json", bad));
        QVERIFY(bad.hasErrors());
        QVERIFY(bad.items()[0].toString().find("intermediates.program") != std::string::npos);
    }

    void everyFixtureAgreesWithPaddleOpByOp()
    {
        for (const char *name : kBundles) {
            const QJsonObject r = verify({ bundle(name), "--isolate" }, 0);
            QVERIFY2(r.value("first_divergent").isNull(), name);
            QCOMPARE(r.value("compared").toInt(), r.value("values").toInt());
            QVERIFY2(r.value("isolated").toObject().value("compared").toInt() > 0, name);
            QVERIFY2(r.value("isolated").toObject().value("first_divergent").isNull(), name);
        }
    }

    /// A parameter changed in the bundle: the first op that reads it diverges on its own, the next
    /// ones inherit it.
    void alteredParameterDivergesAtItsConsumer()
    {
        QTemporaryDir dir;
        const QString copy = alteredCopy(dir, "mlp_ce", "params/linear_1.w_0.npy", 1.0f);
        QVERIFY(!copy.isEmpty());
        const QJsonObject r = verify({ copy }, 1);
        const QJsonObject first = r.value("first_divergent").toObject();
        QCOMPARE(first.value("op").toString(), QString("train:9"));
        QCOMPARE(first.value("op_name").toString(), QString("pd_op.matmul"));
        QCOMPARE(first.value("part").toString(), QString("forward"));
        QCOMPARE(first.value("operands_already_differed").toBool(), false);
        QVERIFY(first.value("error").toDouble() > 1); // max |difference| / tolerance
        QCOMPARE(
            first.value("split_op").toString(), QString("fwd:9")); // the same op in run_program's forward
        bool inherited = false;
        for (const QJsonValue &w : r.value("worst").toArray())
            inherited = inherited
                || (w.toObject().value("op").toString() == "train:10"
                    && w.toObject().value("operands_already_differed").toBool());
        QVERIFY(inherited);
        // The text report lists the ten worst of the 15 divergent values, every one of them.
        const CliResult text = runPirscopeCli({ "verify", copy, "--intermediates" });
        QCOMPARE(text.exitCode, 1);
        QVERIFY(text.out.contains("15 beyond tolerance"));
        QVERIFY(text.out.contains("worst 10:\n"));
        QCOMPARE(text.out.count("\n  train:"), 10);
    }

    /// Paddle's value of one matmul altered: the full run differs there; isolated, the matmul
    /// differs on Paddle's own operands, so the error is the op's, not inherited.
    void isolationTellsOwnErrorFromInherited()
    {
        QTemporaryDir dir;
        const QString copy = alteredCopy(dir, "mlp_ce", "intermediates/0009_0.npy", 0.5f);
        QVERIFY(!copy.isEmpty());
        const QJsonObject r = verify({ copy, "--isolate" }, 1);
        const QJsonObject first = r.value("first_divergent").toObject();
        QCOMPARE(first.value("op").toString(), QString("train:9"));
        QCOMPARE(first.value("worst_index").toInt(), 0);
        QCOMPARE(first.value("mismatches").toInt(), 1);
        const QJsonObject isolated = r.value("isolated").toObject().value("first_divergent").toObject();
        QCOMPARE(isolated.value("op").toString(), QString("train:9"));
        QCOMPARE(r.value("divergent").toInt(), 1); // the run's own add after it agrees with Paddle's
    }

    /// PipelineResult::wholeToSplit: every op of Paddle's train program that split_program cloned
    /// maps to an op of the same name in the forward or backward program, in order.
    void wholeProgramOpsMapOntoTheSplitPrograms()
    {
        for (const char *name : { "mlp_ce", "conv_bn_relu", "transformer_encoder", "inplace_chain" }) {
            DiagnosticList diagnostics;
            auto source = PipelineSource::open(bundle(name).toStdString(), diagnostics);
            QVERIFY2(source, name);
            std::optional<PipelineResult> pipeline = source->paddlePipeline(diagnostics);
            QVERIFY2(pipeline && pipeline->ok(), name);
            QCOMPARE(pipeline->wholeToSplit.size(), pipeline->whole->block().size());
            size_t mapped[2] = { 0, 0 };
            long last[2] = { -1, -1 };
            for (size_t i = 0; i < pipeline->wholeToSplit.size(); ++i) {
                const SplitOpIndex at = pipeline->wholeToSplit[i];
                if (at.segment < 0)
                    continue;
                const Program &split = at.segment == 0 ? *pipeline->forward : *pipeline->backward;
                QVERIFY2(at.index < split.block().size(), name);
                QCOMPARE(split.block().op(at.index)->name(), pipeline->whole->block().op(i)->name());
                QVERIFY2(long(at.index) > last[at.segment], name);
                last[at.segment] = long(at.index);
                ++mapped[at.segment];
            }
            QVERIFY2(mapped[0] > 0 && mapped[1] > 0, name);
        }
    }

    void bundleWithoutIntermediatesSaysHow()
    {
        const CliResult r = runPirscopeCli({ "verify", bundle("control_flow_if"), "--intermediates" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--write-intermediates"), r.err.constData());
        const CliResult isolate = runPirscopeCli({ "verify", bundle("mlp_ce"), "--isolate" });
        QCOMPARE(isolate.exitCode, 1);
        QVERIFY(isolate.err.contains("--isolate needs --intermediates"));
    }
};

QTEST_GUILESS_MAIN(TestIntermediatesCheck)
#include "tst_intermediatescheck.moc"
