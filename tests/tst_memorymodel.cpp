#include "clirunner.h"
#include "core/io/programloader.h"
#include "core/ir/program.h"
#include "core/session/memorymodel.h"

#include <QtTest>

using namespace ps;

namespace {

constexpr int64_t kB = 256 * 256 * 4; // one 256x256 float32 value

/// data x → relu → exp, sin (both read the relu) → add → the output. Paddle's inplace_pass
/// turns sin (the relu dies at it) and add (exp dies at it) into sin_ and add_.
const char *const kDiamond
    = "{\n"
      "    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[%1],"
      "stop_gradient:[true]} : () -> tensor<%1xf32>\n"
      "    (%1) = \"pd_op.relu\" (%0) {stop_gradient:[true]} : (tensor<%1xf32>) -> tensor<%1xf32>\n"
      "    (%2) = \"pd_op.exp\" (%1) {stop_gradient:[true]} : (tensor<%1xf32>) -> tensor<%1xf32>\n"
      "    (%3) = \"pd_op.sin\" (%1) {stop_gradient:[true]} : (tensor<%1xf32>) -> tensor<%1xf32>\n"
      "    (%4) = \"pd_op.add\" (%2, %3) {stop_gradient:[true]} : (tensor<%1xf32>, "
      "tensor<%1xf32>) -> tensor<%1xf32>\n"
      "    () = \"builtin.shadow_output\" (%4) {output_name:\"out\"} : (tensor<%1xf32>) -> \n"
      "}\n";

std::string diamondText(const std::string &dims, const std::string &shape)
{
    std::string text = kDiamond;
    for (size_t at; (at = text.find("%1xf32")) != std::string::npos;)
        text.replace(at, 6, dims + "xf32");
    for (size_t at; (at = text.find("shape:[%1]")) != std::string::npos;)
        text.replace(at, 10, "shape:[" + shape + "]");
    return text;
}

std::unique_ptr<Program> diamond(const std::string &dims, const std::string &shape)
{
    LoadResult r = loadProgramFromString(diamondText(dims, shape), "diamond.txt");
    return std::move(r.program);
}

QJsonObject memoryJson(const QString &path)
{
    const CliResult r = runPirscopeCli({ "memory", path, "--json" });
    if (r.exitCode != 0)
        qWarning("%s %s", r.out.constData(), r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

double ratio(double predicted, double measured)
{
    return measured > 0 ? predicted / measured : 0;
}

} // namespace

/// MemoryModel: a run's allocations as Paddle's executor makes them, against Paddle's own
/// measurement of three train steps (tests/fixtures/memory, tools/measure_paddle_memory.py).
class TestMemoryModel : public QObject
{
    Q_OBJECT

private slots:
    /// Eager deletion and inplace reuse on a hand-made program, byte for byte.
    void inferRunFreesAndReuses()
    {
        const std::unique_ptr<Program> program = diamond("256x256", "256,256");
        QVERIFY(program);
        const MemoryReport r = MemoryModel::infer(*program);
        QCOMPARE(r.mode, std::string("infer"));
        QCOMPARE(r.timeline.size(), size_t(6));
        QCOMPARE(r.baselineBytes, kB); // the input
        // relu allocates (its input is the data), exp allocates (the relu is read again), sin_
        // and add_ reuse the buffers that die at them: two buffers at most beside the input.
        QCOMPARE(r.timeline[1].liveBytes, 2 * kB);
        QCOMPARE(r.timeline[2].liveBytes, 3 * kB);
        QCOMPARE(r.timeline[3].liveBytes, 3 * kB);
        QCOMPARE(r.timeline[4].liveBytes, 3 * kB);
        QCOMPARE(r.peakBytes, 3 * kB);
        QCOMPARE(r.peakOp, std::string("0:2"));
        QCOMPARE(r.peakOpName, std::string("pd_op.exp"));
        QCOMPARE(r.timeline[5].liveBytes, 2 * kB); // sin_'s buffer went with the add
        QCOMPARE(r.afterStepBytes, kB); // the output
        QCOMPARE(r.keptAfterForwardBytes, int64_t(0));
        QVERIFY(r.unknown.empty());
        QCOMPARE(r.topAtPeak.size(), size_t(2));
        QCOMPARE(r.topAtPeak[0].bytes, kB);
        QVERIFY(r.recompute.empty());
    }

    /// The same program run with eager deletion: the allocator holds what the model predicts after
    /// every op, byte for byte (sin_ and add_ run in place), and its peak adds only the kernels'
    /// temporaries: a kernel run in place computes into a new buffer and copies it back.
    void runtimeFollowsThePredictionOpByOp()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("diamond.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(diamondText("256x256", "256,256")));
        f.close();
        const CliResult cli = runPirscopeCli({ "memory", f.fileName(), "--measure", "--json" });
        QCOMPARE(cli.exitCode, 0);
        const QJsonObject r = QJsonDocument::fromJson(cli.out).object();
        for (const QJsonValue &p : r.value("timeline").toArray()) {
            const QJsonObject point = p.toObject();
            QCOMPARE(point.value("measured_bytes").toDouble(), point.value("live_bytes").toDouble());
        }
        const QJsonObject measured = r.value("measured").toObject();
        QCOMPARE(measured.value("peak_bytes").toDouble(), double(4 * kB));
        QVERIFY(measured.value("kept_after_forward_bytes").isNull()); // one program
        const CliResult text = runPirscopeCli({ "memory", f.fileName(), "--measure" });
        QVERIFY2(text.out.contains("measured in a CPU run: peak 1.05 MB (1.33x the prediction"),
            text.out.constData());
    }

    /// The three traced train steps run by PIRScope itself, freed as Paddle frees them: after
    /// every op its allocator holds what the model predicts (within 8 KB: Paddle's 0-d and
    /// no-size tensors), what the forward keeps agrees, and the peak, kernels' temporaries
    /// included, is within 10% above the prediction. `run --json` reports the same peak.
    void runtimePeakAgreesWithThePrediction_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("mlp") << "mlp";
        QTest::newRow("cnn_bn") << "cnn_bn";
        QTest::newRow("attention") << "attention";
    }

    void runtimePeakAgreesWithThePrediction()
    {
        QFETCH(QString, model);
        const QString dir = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/memory/") + model;
        const CliResult cli = runPirscopeCli(
            { "memory", dir, "--measure", "--inputs", "random", "--params", "random", "--json" });
        QCOMPARE(cli.exitCode, 0);
        const QJsonObject r = QJsonDocument::fromJson(cli.out).object();
        const QJsonObject measured = r.value("measured").toObject();
        double worst = 0;
        for (const QJsonValue &p : r.value("timeline").toArray()) {
            const QJsonObject point = p.toObject();
            QVERIFY2(!point.value("measured_bytes").isNull(), qPrintable(point.value("op").toString()));
            worst = std::max(worst,
                std::fabs(point.value("measured_bytes").toDouble() - point.value("live_bytes").toDouble()));
        }
        const double predictedPeak = r.value("peak_bytes").toDouble();
        const double peakRatio = measured.value("peak_bytes").toDouble() / predictedPeak;
        const double keptRatio = measured.value("kept_after_forward_bytes").toDouble()
            / r.value("kept_after_forward_bytes").toDouble();
        qInfo("%s: measured peak x%.3f of the prediction, kept after forward x%.4f, worst op %.0f B off",
            qPrintable(model), peakRatio, keptRatio, worst);
        QVERIFY(worst <= 8192);
        QVERIFY(peakRatio >= 0.999 && peakRatio <= 1.10);
        QVERIFY(std::fabs(keptRatio - 1) <= 0.01);

        const CliResult run
            = runPirscopeCli({ "run", dir, "--inputs", "random", "--params", "random", "--json" });
        QCOMPARE(run.exitCode, 0);
        const QJsonObject runJson = QJsonDocument::fromJson(run.out).object();
        QVERIFY(runJson.value("eager_deletion").toBool());
        QCOMPARE(runJson.value("start_bytes").toDouble(), r.value("baseline_bytes").toDouble());
        const double runRatio = runJson.value("peak_bytes").toDouble() / predictedPeak;
        QVERIFY2(runRatio >= 0.999 && runRatio <= 1.10, qPrintable(QString::number(runRatio)));
    }

    /// A dynamic dim: the values it reaches are listed as unknown and counted nowhere.
    void dynamicDimsAreReportedNotGuessed()
    {
        const std::unique_ptr<Program> program = diamond("-1x256", "-1,256");
        QVERIFY(program);
        const MemoryReport r = MemoryModel::infer(*program);
        QCOMPARE(r.baselineBytes, int64_t(0));
        QCOMPARE(r.peakBytes, int64_t(0));
        QCOMPARE(r.unknown.size(), size_t(3)); // the data, relu and exp; sin_ and add_ reuse
        for (const MemoryValue &v : r.unknown)
            QCOMPARE(v.bytes, int64_t(-1));
        QCOMPARE(r.unknown[0].name, std::string("x"));
        QTemporaryDir dir;
        QFile f(dir.filePath("dynamic.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(diamondText("-1x-1", "-1,-1")));
        f.close();
        const CliResult cli = runPirscopeCli({ "memory", f.fileName() });
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(cli.out.contains("have no static size and are not counted"), cli.out.constData());
        QVERIFY2(cli.out.contains("inputs without a shape: x (?x?) (give --shape x="), cli.out.constData());
        // --shape sizes them by shape inference, without a run: the same bytes as the static program.
        const CliResult sized = runPirscopeCli({ "memory", f.fileName(), "--shape", "x=256x256", "--json" });
        QCOMPARE(sized.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(sized.out).object();
        QCOMPARE(json.value("measured_values").toInt(), 5); // x, relu, exp, sin_, add_
        QCOMPARE(json.value("sizes_from").toString(), QString("inference"));
        QVERIFY(json.value("unknown").toArray().isEmpty());
        // Paddle's inplace_pass refuses a -1 dim past the first (its strict numel check), so sin
        // and add get buffers of their own: one more than the static program's 3.
        QCOMPARE(qint64(json.value("peak_bytes").toDouble()), qint64(4 * kB));
        QCOMPARE(qint64(json.value("baseline_bytes").toDouble()), qint64(kB));
        // A dynamic batch dim alone takes 1, as a run gives it, and the report says so.
        QFile batch(dir.filePath("batch.txt"));
        QVERIFY(batch.open(QIODevice::WriteOnly));
        batch.write(QByteArray::fromStdString(diamondText("-1x256", "-1,256")));
        batch.close();
        const CliResult batchOnly = runPirscopeCli({ "memory", batch.fileName() });
        QCOMPARE(batchOnly.exitCode, 0);
        QVERIFY2(batchOnly.out.contains("input x: 1x256 (batch 1)"), batchOnly.out.constData());
        const CliResult bad = runPirscopeCli({ "memory", f.fileName(), "--shape", "x=2x3x4" });
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains("--shape"), bad.err.constData());
    }

    /// Paddle 3.3.1's measured train steps (host_memory_stat on the CPU): the peak above the
    /// memory before the step, what the forward leaves for the backward and what the backward
    /// leaves (the gradients), each within 10%.
    void trainStepsMatchPaddlesMeasurement_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("mlp") << "mlp";
        QTest::newRow("cnn_bn") << "cnn_bn";
        QTest::newRow("attention") << "attention";
    }

    void trainStepsMatchPaddlesMeasurement()
    {
        QFETCH(QString, model);
        const QString dir = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/memory/") + model;
        QFile file(dir + "/paddle_memory.json");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject paddle = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonObject r = memoryJson(dir);
        QCOMPARE(r.value("mode").toString(), QString("train"));
        const double peak = r.value("peak_bytes").toDouble() - r.value("baseline_bytes").toDouble();
        const double kept = r.value("kept_after_forward_bytes").toDouble();
        const double after = r.value("after_step_bytes").toDouble();
        const double peakRatio = ratio(peak, paddle.value("peak_above_before_bytes").toDouble());
        const double keptRatio = ratio(kept, paddle.value("kept_after_forward_bytes").toDouble());
        const double afterRatio = ratio(after, paddle.value("after_backward_bytes").toDouble());
        qInfo("%s: peak above baseline %.0f (x%.3f of Paddle's), kept after forward %.0f (x%.3f), after the "
              "step %.0f (x%.3f); peak at %s",
            qPrintable(model), peak, peakRatio, kept, keptRatio, after, afterRatio,
            qPrintable(r.value("peak_op").toString()));
        QVERIFY(std::fabs(peakRatio - 1) <= 0.1);
        QVERIFY(std::fabs(keptRatio - 1) <= 0.1);
        QVERIFY(std::fabs(afterRatio - 1) <= 0.1);
        // `split` says the same: what the forward keeps, not the sum of the middles it names.
        const CliResult split = runPirscopeCli({ "split", dir, "--json" });
        QCOMPARE(split.exitCode, 0);
        const QJsonObject splitJson = QJsonDocument::fromJson(split.out).object();
        QCOMPARE(splitJson.value("kept_after_forward_bytes").toDouble(), kept);
        QVERIFY(splitJson.value("middle_bytes").toDouble() > kept);

        // The report's parts agree with each other.
        const QJsonArray timeline = r.value("timeline").toArray();
        QVERIFY(r.value("cut").toInt() > 0 && r.value("cut").toInt() < timeline.size());
        QVERIFY(timeline.at(r.value("cut").toInt()).toObject().value("op").toString().startsWith("bwd:0"));
        double maxLive = 0, keptSum = 0, layerSum = 0;
        for (const QJsonValue &p : timeline)
            maxLive = std::max(maxLive, p.toObject().value("live_bytes").toDouble());
        QCOMPARE(maxLive, r.value("peak_bytes").toDouble());
        for (const QJsonValue &v : r.value("kept").toArray())
            keptSum += v.toObject().value("bytes").toDouble();
        for (const QJsonValue &l : r.value("kept_by_layer").toArray())
            layerSum += l.toObject().value("bytes").toDouble();
        QCOMPARE(keptSum, kept);
        QCOMPARE(layerSum, kept);
        QVERIFY(!r.value("top_at_peak").toArray().isEmpty());
        QVERIFY(r.value("unknown").toArray().size() <= 2); // batch norm's reserve space (no size on the CPU)
        // Every top-level layer has a recomputation line with its FLOPs.
        const QJsonArray recompute = r.value("recompute").toArray();
        QVERIFY(!recompute.isEmpty());
        for (const QJsonValue &rc : recompute) {
            QVERIFY(rc.toObject().value("flops").toDouble() > 0);
            QVERIFY(rc.toObject().value("saves_bytes").toDouble() <= kept);
        }
    }

    /// Recomputing the MLP's layers: the first Linear keeps nothing only it reads (its output
    /// feeds the relu outside it), the FLOPs are the matmuls' 2·M·N·K plus the adds.
    void recomputationCountsFlops()
    {
        const QJsonObject r = memoryJson(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/memory/mlp"));
        QHash<QString, QJsonObject> byLayer;
        for (const QJsonValue &rc : r.value("recompute").toArray())
            byLayer[rc.toObject().value("layer").toString()] = rc.toObject();
        QVERIFY(byLayer.contains("/Linear/"));
        // JSON keeps 7 significant digits.
        QVERIFY(
            std::fabs(
                ratio(byLayer["/Linear/"].value("flops").toDouble(), 2.0 * 512 * 512 * 256 + 512 * 512) - 1)
            < 1e-6);
        QVERIFY(
            std::fabs(
                ratio(byLayer["/Linear_2/"].value("flops").toDouble(), 2.0 * 512 * 10 * 512 + 512 * 10) - 1)
            < 1e-6);
    }

    /// A run whose predicted peak passes --max-memory is refused before anything is allocated,
    /// naming the op of the peak.
    void runRefusesAPeakPastTheBudget()
    {
        const CliResult r = runPirscopeCli(
            { "run", QStringLiteral(PIRSCOPE_FIXTURES_DIR "/memory/mlp"), "--max-memory", "4M" });
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("pd_op.matmul_grad at bwd:6: needs 6.3 MB, limit 4.0 MB"), r.err.constData());
        QVERIFY(r.err.contains("refused before anything is allocated"));
    }

    void usageAndModeErrors()
    {
        const CliResult usage = runPirscopeCli({ "memory" });
        QVERIFY(usage.exitCode != 0);
        QVERIFY(usage.err.contains("usage: pirscope-cli memory"));
        const CliResult wrongMode = runPirscopeCli(
            { "memory", QStringLiteral(PIRSCOPE_FIXTURES_DIR "/memory/mlp"), "--mode", "infer" });
        QVERIFY(wrongMode.exitCode != 0);
        QVERIFY2(wrongMode.err.contains("traced in train mode"), wrongMode.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestMemoryModel)
#include "tst_memorymodel.moc"
