// Whole models on the CPU: the vision models exported with paddle.jit.save
// (tools/export_vision_models.py) against Paddle's own inference output, and the real inference
// programs in ../shared/samples end to end with random parameters (finite outputs, right shapes).

#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/npyio.h"
#include "core/runtime/pdiparams.h"
#include "core/runtime/programrunner.h"
#include "core/runtime/tensorcomparison.h"
#include "core/runtime/tensorstats.h"
#include "sanitizerbuild.h"

#include <QtTest>
#include <cmath>
#include <random>

using namespace ps;

namespace {

QString modelsDir()
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/models/");
}

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// tools/export_vision_models.py `hashed`: element k of the parameter at `index` (name order) is
/// lo + (hi - lo) * x with x = (splitmix64(base + k) >> 40) / 2^24, computed in double.
Tensor hashedParameter(uint64_t seed, uint64_t index, const std::vector<int64_t> &shape, double lo, double hi)
{
    Tensor t = Tensor::empty(shape, DataType::Float32);
    const uint64_t base = seed * 0x100000001B3ull + index * 0x9E3779B97F4A7C15ull;
    float *p = t.data<float>();
    for (int64_t k = 0; k < t.numElements(); ++k) {
        const double x = double(splitmix64(base + uint64_t(k)) >> 40) / double(1 << 24);
        p[k] = float(lo + (hi - lo) * x);
    }
    return t;
}

std::shared_ptr<const Program> load(const QString &path)
{
    LoadResult r = loadProgram(path.toStdString());
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

bool writeNpy(const QString &path, const Tensor &t)
{
    std::string error;
    return NpyIO::write(path.toStdString(), t, error);
}

} // namespace

class TestModelRuns : public QObject
{
    Q_OBJECT

private slots:
    void visionModelMatchesPaddle_data();
    void visionModelMatchesPaddle();
    void realSampleRuns_data();
    void realSampleRuns();
};

void TestModelRuns::visionModelMatchesPaddle_data()
{
    QTest::addColumn<QString>("model");
    QTest::newRow("mobilenet_v3_small_035") << "mobilenet_v3_small_035";
    QTest::newRow("resnet18") << "resnet18";
}

void TestModelRuns::visionModelMatchesPaddle()
{
    QFETCH(QString, model);
    const QString dir = modelsDir() + model + "/";
    const QJsonObject manifest = readJson(dir + "manifest.json");
    QVERIFY2(!manifest.isEmpty(), qPrintable(dir + "manifest.json"));
    auto program = load(dir + manifest.value("program").toString());
    QVERIFY(program);

    QTemporaryDir inputs, params;
    QVERIFY(QFile::copy(dir + "input.npy",
        inputs.filePath(manifest.value("input").toObject().value("name").toString() + ".npy")));
    ProgramRunner::Options options;
    options.inputs = TensorSource::npyDirectory(inputs.path().toStdString());
    const QJsonObject parameters = manifest.value("parameters").toObject();
    if (parameters.value("source").toString() == "pdiparams") {
        // The real .pdiparams paddle.jit.save wrote.
        options.params = TensorSource::pdiparams((dir + parameters.value("file").toString()).toStdString());
    } else {
        // Recreated from the hash the exporter used (the file would be 44.8 MB).
        const QJsonObject roles = parameters.value("roles").toObject();
        const auto names = Pdiparams::parameterNames(*program);
        for (const std::string &name : names) {
            const QJsonObject role = roles.value(QString::fromStdString(name)).toObject();
            QVERIFY2(!role.isEmpty(), ("no hash role for parameter " + name).c_str());
            std::vector<int64_t> shape;
            program->block().walk([&](Operation *op) {
                if (op->name() == "builtin.parameter" && op->stringAttribute("parameter_name") == name)
                    shape = op->result(0).type().dims();
            });
            const Tensor t = hashedParameter(uint64_t(parameters.value("seed").toInt()),
                uint64_t(role.value("index").toInt()), shape, role.value("lo").toDouble(),
                role.value("hi").toDouble());
            QVERIFY(writeNpy(params.filePath(QString::fromStdString(name) + ".npy"), t));
        }
        options.params = TensorSource::npyDirectory(params.path().toStdString());
    }
    auto backend = createCpuBackend();
    ProgramRunner runner(program, *backend);
    std::string error;
    QVERIFY2(runner.prepare(options, error), error.c_str());
    QElapsedTimer timer;
    timer.start();
    runner.run();
    QVERIFY2(runner.interpreter().finished(),
        runner.interpreter().error() ? runner.interpreter().error()->message.c_str() : "did not finish");
    qInfo(
        "%s: %zu ops in %lld ms", qPrintable(model), runner.interpreter().records().size(), timer.elapsed());
    const auto outputs = runner.outputs();
    QCOMPARE(outputs.size(), size_t(1));
    const Tensor expected = NpyIO::read((dir + "output.npy").toStdString(), error);
    QVERIFY2(expected.defined(), error.c_str());
    const TensorComparison c = TensorComparison::compare(outputs[0].tensor, expected, 1e-4, 1e-5);
    qInfo("%s vs Paddle: %s", qPrintable(model), c.summary().c_str());
    QVERIFY2(c.ok(), c.summary().c_str());
}

void TestModelRuns::realSampleRuns_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("inputs"); // name:shape(,shape)...:fill
    QTest::addColumn<QList<int>>("outputRank");
    QTest::newRow("PP-OCRv5_mobile_det") << "PP-OCRv5_mobile_det_infer.inference.json"
                                         << QStringList { "x:1x3x96x96:random" } << QList<int> { 4 };
    QTest::newRow("PP-OCRv5_server_rec") << "PP-OCRv5_server_rec_infer.inference.json"
                                         << QStringList { "x:1x3x48x160:random" } << QList<int> { 3 };
    QTest::newRow("PP-DocLayout_plus-L")
        << "PP-DocLayout_plus-L.inference.json"
        << QStringList { "image:1x3x800x800:random", "im_shape:1x2:800", "scale_factor:1x2:1" }
        << QList<int> { 2 };
}

void TestModelRuns::realSampleRuns()
{
    QFETCH(QString, file);
    QFETCH(QStringList, inputs);
    QFETCH(QList<int>, outputRank);
    const QString path = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/") + file;
    if (kSanitizerBuild && !file.startsWith("PP-OCRv5_mobile_det"))
        QSKIP("sanitizer build: the 9-50 s runs are left to the plain build");
    if (!QFile::exists(path))
        QSKIP(qPrintable("sample not found (../shared/samples is absent): " + path));
    auto program = load(path);
    QVERIFY(program);
    QTemporaryDir dir;
    std::mt19937 rng(42);
    std::normal_distribution<float> normal(0.f, 1.f);
    for (const QString &spec : inputs) {
        const QStringList parts = spec.split(':');
        std::vector<int64_t> shape;
        for (const QString &d : parts[1].split('x'))
            shape.push_back(d.toLongLong());
        Tensor t = Tensor::empty(shape, DataType::Float32);
        for (int64_t i = 0; i < t.numElements(); ++i)
            t.data<float>()[i] = parts[2] == "random" ? normal(rng) : parts[2].toFloat();
        QVERIFY(writeNpy(dir.filePath(parts[0] + ".npy"), t));
    }
    ProgramRunner::Options options;
    options.inputs = TensorSource::npyDirectory(dir.path().toStdString());
    options.params = TensorSource::random(7);
    auto backend = createCpuBackend();
    ProgramRunner runner(program, *backend);
    std::string error;
    QVERIFY2(runner.prepare(options, error), error.c_str());
    QElapsedTimer timer;
    timer.start();
    runner.run();
    QVERIFY2(runner.interpreter().finished(),
        runner.interpreter().error() ? runner.interpreter().error()->message.c_str() : "did not finish");
    qInfo("%s: %zu ops in %lld ms", qPrintable(file), runner.interpreter().records().size(), timer.elapsed());
    const auto outputs = runner.outputs();
    QVERIFY(!outputs.empty());
    for (size_t i = 0; i < outputs.size() && i < size_t(outputRank.size()); ++i) {
        const Tensor &t = outputs[i].tensor;
        QVERIFY2(t.defined(), outputs[i].name.c_str());
        QCOMPARE(int(t.rank()), outputRank[int(i)]);
        const TensorStats s = computeStatsHost(t, 0);
        QVERIFY2(s.allFinite(), qPrintable(QString::fromStdString(outputs[i].name + " " + t.describe())));
        qInfo("  %s %s min %g max %g", outputs[i].name.c_str(), t.describe().c_str(), s.min, s.max);
    }
}

QTEST_GUILESS_MAIN(TestModelRuns)
#include "tst_modelruns.moc"
