#include "core/io/tracebundle.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/npyio.h"
#include "core/runtime/programrunner.h"
#include "core/runtime/tensorcomparison.h"
#include "core/session/bundleprograms.h"
#include "core/session/runprogramsplit.h"
#include "core/transform/partialprogram.h"
#include "paddlebundle.h"

#include <QtTest>
#include <map>

using namespace ps;

namespace {

// fp32 tolerance: |ours - paddle| <= kAtol + kRtol * |paddle|.
constexpr double kRtol = 1e-4;
constexpr double kAtol = 1e-5;

struct Loaded
{
    std::unique_ptr<TraceBundle> bundle;
    std::optional<PipelineResult> pipeline;
    QString error;
};

/// Paddle's train program of a bundle through our dy2static pipeline (split + passes +
/// program_attr), as run_program receives it.
Loaded load(const QString &model)
{
    Loaded l;
    DiagnosticList diagnostics;
    l.bundle = TraceBundle::open(bundle::dir(model).toStdString(), diagnostics);
    if (!l.bundle) {
        l.error = "cannot open the bundle";
        return l;
    }
    auto layer = BundlePrograms::makeLayer(*l.bundle, diagnostics);
    std::optional<RunnableProgram> train = BundlePrograms::paddleTrainProgram(*l.bundle, diagnostics);
    if (!layer || !train) {
        l.error = "cannot build the pipeline";
        return l;
    }
    layer->useTrainProgram(std::move(*train));
    PipelineResult r = layer->snapshot(true);
    if (!r.ok()) {
        l.error = "snapshot failed";
        return l;
    }
    l.pipeline = std::move(r);
    return l;
}

ProgramRunner::Options bundleOptions(const TraceBundle &b)
{
    ProgramRunner::Options options;
    options.inputs = TensorSource::npyDirectory(b.filePath("inputs"));
    options.params = TensorSource::npyDirectory(b.filePath("params"));
    for (const auto &[index, file] : b.outputGradFiles())
        options.outputGradFiles[index] = b.filePath(file);
    return options;
}

/// "" when `actual` matches the .npy at `file`.
QString mismatch(const QString &what, const Tensor &actual, const std::string &file)
{
    std::string error;
    const Tensor expected = NpyIO::read(file, error);
    if (!expected.defined())
        return what + ": " + QString::fromStdString(error);
    if (!actual.defined())
        return what + ": no value (Paddle has " + QString::fromStdString(expected.describe()) + ")";
    const TensorComparison c = TensorComparison::compare(actual, expected, kRtol, kAtol);
    // Paddle's 0-d outputs were saved as shape (1,).
    const bool sameShape
        = actual.shape() == expected.shape() || (actual.numElements() == 1 && expected.numElements() == 1);
    if (c.ok() && sameShape)
        return {};
    return what + ": "
        + QString::fromStdString(actual.describe() + " vs " + expected.describe() + ": " + c.summary());
}

double sumOf(const std::vector<ProgramRunner::NamedTensor> &outputs)
{
    double s = 0;
    for (const auto &o : outputs)
        if (o.tensor.defined())
            for (double v : o.tensor.toDoubles())
                s += v;
    return s;
}

} // namespace

/// ProgramRunner on every golden Paddle 3.3.1 bundle: forward + backward on the CPU backend with
/// Paddle's inputs, parameters and output gradients; outputs, every gradient and the parameters
/// updated in place compared with Paddle's .npy files (rel 1e-4). A bundle whose run stops at a
/// missing CPU kernel is skipped with the kernel's name; any other failure fails.
class TestProgramRunner : public QObject
{
    Q_OBJECT

    std::unique_ptr<Backend> m_cpu = createCpuBackend();

private slots:
    void bundles_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : bundle::kModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }
    void bundles()
    {
        QFETCH(QString, model);
        if (!QFileInfo::exists(bundle::dir(model) + "/manifest.json"))
            QSKIP("golden bundle missing");
        Loaded l = load(model);
        QVERIFY2(l.pipeline, qPrintable(l.error));
        const TraceBundle &b = *l.bundle;
        ProgramRunner runner(runProgramSplit(*l.pipeline), *m_cpu);
        std::string error;
        QVERIFY2(runner.prepare(bundleOptions(b), error), error.c_str());
        QVERIFY(runner.hasBackward());
        const StopInfo stop = runner.run();
        if (stop.reason == StopReason::Error) {
            const OpError &e = *runner.interpreter().error();
            if (e.missingKernel && e.message.find("'" + e.opName + "'") != std::string::npos)
                QSKIP(qPrintable("missing CPU kernel: " + QString::fromStdString(e.toString())));
            QFAIL(e.toString().c_str());
        }
        QCOMPARE(stop.reason, StopReason::Finished);

        QStringList problems;
        const auto outputs = runner.outputs();
        QCOMPARE(outputs.size(), b.outputs().size());
        for (const TraceBundle::Output &o : b.outputs()) {
            const QString m
                = mismatch("output " + QString::number(o.index), outputs[o.index].tensor, b.filePath(o.file));
            if (!m.isEmpty())
                problems << m;
        }
        std::map<std::string, Tensor> grads;
        for (const auto &g : runner.inputGrads())
            grads[g.name] = g.tensor;
        for (const auto &g : runner.parameterGrads())
            grads[g.name] = g.tensor;
        int comparedGrads = 0;
        for (const auto *list : { &b.inputs(), &b.parameters() }) {
            for (const TraceBundle::Tensor &t : *list) {
                if (t.gradFile.empty())
                    continue;
                ++comparedGrads;
                const QString m = mismatch(
                    "grad " + QString::fromStdString(t.name), grads[t.name], b.filePath(t.gradFile));
                if (!m.isEmpty())
                    problems << m;
            }
        }
        // Parameters the run changed in place (batch-norm running statistics).
        for (const auto &p : runner.parameterValues()) {
            const std::string after = b.filePath("params_after/" + p.name + ".npy");
            if (!QFileInfo::exists(QString::fromStdString(after)))
                continue;
            const QString m
                = mismatch("parameter after the run " + QString::fromStdString(p.name), p.tensor, after);
            if (!m.isEmpty())
                problems << m;
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
        if (b.errors().empty())
            QVERIFY(comparedGrads > 0);
        qInfo("%s: %zu ops, %d gradients compared", qPrintable(model), runner.interpreter().records().size(),
            comparedGrads);
    }

    /// control_flow: Paddle's own backward failed ("middle_2 should exist"), so the bundle has no
    /// gradients; ours are checked against central differences of the forward.
    void controlFlowGradientsByFiniteDifferences()
    {
        if (!QFileInfo::exists(bundle::dir("control_flow") + "/manifest.json"))
            QSKIP("golden bundle missing");
        Loaded l = load("control_flow");
        QVERIFY2(l.pipeline, qPrintable(l.error));
        ProgramRunner runner(runProgramSplit(*l.pipeline), *m_cpu);
        std::string error;
        ProgramRunner::Options options = bundleOptions(*l.bundle);
        options.outputGradFiles.clear(); // ones: the gradient of sum(output)
        QVERIFY2(runner.prepare(options, error), error.c_str());
        const StopInfo stop = runner.run();
        if (stop.reason == StopReason::Error && runner.interpreter().error()->missingKernel)
            QSKIP(qPrintable(
                "missing CPU kernel: " + QString::fromStdString(runner.interpreter().error()->toString())));
        QCOMPARE(stop.reason, StopReason::Finished);
        std::vector<ProgramRunner::NamedTensor> analytic = runner.inputGrads();
        for (auto &g : runner.parameterGrads())
            analytic.push_back(g);

        // Perturb one element of one input/parameter at a time (float64 differences of float32 runs).
        const double eps = 1e-2;
        for (const auto &g : analytic) {
            QVERIFY2(g.tensor.defined(), g.name.c_str());
            const bool isInput = std::find(runner.inputNames().begin(), runner.inputNames().end(), g.name)
                != runner.inputNames().end();
            std::string npyError;
            const Tensor base = NpyIO::read(
                l.bundle->filePath((isInput ? "inputs/" : "params/") + g.name + ".npy"), npyError);
            QVERIFY2(base.defined(), npyError.c_str());
            for (int64_t i = 0; i < base.numElements(); ++i) {
                double sums[2];
                for (int side = 0; side < 2; ++side) {
                    std::vector<double> v = base.toDoubles();
                    v[size_t(i)] += side ? -eps : eps;
                    runner.interpreter().restart();
                    runner.scope().set(
                        g.name, RuntimeValue(Tensor::fromDoubles(base.shape(), base.dtype(), v)));
                    runner.interpreter().snapshotScope();
                    QCOMPARE(runner.run().reason, StopReason::Finished);
                    sums[side] = sumOf(runner.outputs());
                }
                const double numeric = (sums[0] - sums[1]) / (2 * eps);
                const double got = g.tensor.valueAsDouble(i);
                QVERIFY2(std::fabs(numeric - got) <= 2e-3 + 2e-2 * std::fabs(numeric),
                    qPrintable(QString("d sum / d %1[%2]: ours %3, central difference %4")
                                   .arg(QString::fromStdString(g.name))
                                   .arg(i)
                                   .arg(got)
                                   .arg(numeric)));
            }
            // Restore the original value.
            runner.interpreter().restart();
            runner.scope().set(g.name, RuntimeValue(base));
            runner.interpreter().snapshotScope();
        }
    }

    /// The forward frees what the backward does not read; no_need_buffers keep their meta.
    void freesLikeRunProgram()
    {
        if (!QFileInfo::exists(bundle::dir("mlp_ce") + "/manifest.json"))
            QSKIP("golden bundle missing");
        Loaded l = load("mlp_ce");
        QVERIFY2(l.pipeline, qPrintable(l.error));
        ProgramRunner runner(runProgramSplit(*l.pipeline), *m_cpu);
        std::string error;
        QVERIFY2(runner.prepare(bundleOptions(*l.bundle), error), error.c_str());
        std::map<std::string, FreeReason> frees(runner.forwardFrees().begin(), runner.forwardFrees().end());
        // no_need_buffers of mlp_ce (program_attributes.json).
        for (const char *n : { "linear_0.b_0", "linear_1.b_0", "middle_0", "middle_2", "middle_4" })
            QVERIFY2(frees.count(n) && frees[n] == FreeReason::NoNeedBuffer, n);
        QVERIFY(!frees.count("output_0"));
        QVERIFY(!frees.count("middle_1"));
        Interpreter &in = runner.interpreter();
        // Stop at the first backward op: the forward's frees have happened.
        in.runToCursor(*ProgramPosition::parse("1:0"));
        QCOMPARE(in.currentSegment(), size_t(1));
        QVERIFY(runner.scope().isFreed("middle_0"));
        QVERIFY(runner.scope().contains("middle_0")); // meta kept
        QVERIFY(runner.scope().contains("output_grad_0"));
        QVERIFY(!runner.scope().isFreed("middle_1"));
    }

    void randomInputsAreReproducible()
    {
        if (!QFileInfo::exists(bundle::dir("mlp_ce") + "/manifest.json"))
            QSKIP("golden bundle missing");
        Loaded l = load("mlp_ce");
        QVERIFY2(l.pipeline, qPrintable(l.error));
        auto run = [&](uint64_t seed) {
            ProgramRunner runner(runProgramSplit(*l.pipeline), *m_cpu);
            ProgramRunner::Options options;
            options.inputs = TensorSource::random(seed);
            options.params = TensorSource::random(seed);
            std::string error;
            if (!runner.prepare(options, error))
                return std::vector<double> {};
            const RuntimeValue *label = runner.scope().find("_jst.1.label.0");
            std::vector<double> values = label->tensor().toDoubles();
            for (double v : values)
                if (v < 0 || v > 2)
                    return std::vector<double> {};
            const RuntimeValue *w = runner.scope().find("linear_0.w_0");
            for (double v : w->tensor().toDoubles())
                values.push_back(v);
            return values;
        };
        const std::vector<double> a = run(1), b = run(1), c = run(2);
        QVERIFY(!a.empty());
        QCOMPARE(a, b);
        QVERIFY(a != c);
    }

    void missingInputFileIsReported()
    {
        if (!QFileInfo::exists(bundle::dir("mlp_ce") + "/manifest.json"))
            QSKIP("golden bundle missing");
        Loaded l = load("mlp_ce");
        QVERIFY2(l.pipeline, qPrintable(l.error));
        ProgramRunner runner(runProgramSplit(*l.pipeline), *m_cpu);
        ProgramRunner::Options options = bundleOptions(*l.bundle);
        options.inputs = TensorSource::npyDirectory(QDir::tempPath().toStdString() + "/no-such-dir");
        std::string error;
        QVERIFY(!runner.prepare(options, error));
        QVERIFY2(QString::fromStdString(error).contains("_jst.0.x.0"), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestProgramRunner)
#include "tst_programrunner.moc"
