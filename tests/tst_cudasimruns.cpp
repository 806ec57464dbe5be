// Whole programs through cuda-sim (the CUDA backend's sources run on the host) against the CPU
// oracle, as CI's stand-in for a GPU: `pirscope-cli verify BUNDLE --device cuda-sim` on every
// golden bundle (CPU vs Paddle, then cuda-sim vs CPU op by op), `pirscope-cli run SAMPLE
// --device cuda-sim` on every real sample in ../shared/samples/json with its outputs compared to
// the CPU run's, and the CPU fallback for an op without a CUDA kernel (`--no-fallback` refusing).

#include "core/runtime/backend.h"
#include "core/runtime/npyio.h"
#include "core/runtime/tensorcomparison.h"

#include <QtTest>
#include <random>

namespace {

QString cli()
{
    return QStringLiteral(PIRSCOPE_CLI_PATH);
}

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
    qint64 ms = 0;
};

Result runCli(const QStringList &args,
    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 600000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    QElapsedTimer timer;
    timer.start();
    p.start(cli(), args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.ms = timer.elapsed();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

bool writeNpy(const QString &path, const ps::Tensor &t)
{
    std::string error;
    return ps::NpyIO::write(path.toStdString(), t, error);
}

} // namespace

class TestCudaSimRuns : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        std::string reason;
        if (!ps::createCudaSimBackend(reason))
            QSKIP(("no cuda-sim in this build: " + reason).c_str());
    }

    void verifyBundle_data()
    {
        QTest::addColumn<QString>("bundle");
        const QDir dir(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle"));
        for (const QString &b : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            QTest::newRow(qPrintable(b)) << dir.filePath(b);
    }
    void verifyBundle()
    {
        QFETCH(QString, bundle);
        const Result r = runCli({ "verify", bundle, "--device", "cuda-sim", "--no-fallback" });
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("differential cuda-sim:0")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("kernel ops agree")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("numerics: ok")), qPrintable(r.out));
        const QRegularExpressionMatch m
            = QRegularExpression("(\\d+) kernel ops agree \\(max rel diff ([^)]*)\\)").match(r.out);
        qInfo("%s: %s ops agree, max rel diff %s, %lld ms", qPrintable(QFileInfo(bundle).fileName()),
            qPrintable(m.captured(1)), qPrintable(m.captured(2)), r.ms);
    }

    void runSample_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("inputs"); // name:shape(xshape...):fill
        QTest::newRow("PP-OCRv5_mobile_det")
            << "PP-OCRv5_mobile_det_infer.inference.json" << QStringList { "x:1x3x96x96:random" };
        QTest::newRow("PP-OCRv5_server_det")
            << "PP-OCRv5_server_det_infer.inference.json" << QStringList { "x:1x3x64x64:random" };
        QTest::newRow("PP-OCRv5_server_det.v3")
            << "PP-OCRv5_server_det.v3.inference.json" << QStringList { "x:1x3x64x64:random" };
        QTest::newRow("PP-OCRv5_server_rec")
            << "PP-OCRv5_server_rec_infer.inference.json" << QStringList { "x:1x3x48x160:random" };
        QTest::newRow("korean_PP-OCRv5_mobile_rec")
            << "korean_PP-OCRv5_mobile_rec_infer.inference.json" << QStringList { "x:1x3x48x160:random" };
        QTest::newRow("PP-DocLayout_plus-L")
            << "PP-DocLayout_plus-L.inference.json"
            << QStringList { "image:1x3x800x800:random", "im_shape:1x2:800", "scale_factor:1x2:1" };
        QTest::newRow("docs_pir_save_load_fc") << "docs_pir_save_load_fc_example.v1.json" << QStringList {};
    }
    void runSample()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, inputs);
        const QString path = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/") + file;
        // PP-DocLayout_plus-L's input is fixed at 800x800 (2641 ops): the longest row, about 15 s
        // on the CPU and 40 s through cuda-sim on a shared 2-core machine. The samples run with an
        // H200's 132 multiprocessors, so grids have the GPU's sizes (cuda-sim's default of 2 keeps
        // the kernel fixtures' small tensors looping over their grid-stride loops): serial
        // threads of a 2-SM grid stride through memory and take 1.5x as long.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PIRSCOPE_CUDASIM_SMS"), QStringLiteral("132"));
        if (!QFile::exists(path))
            QSKIP(qPrintable("sample not found (../shared/samples is absent): " + path));
        QTemporaryDir dir;
        std::mt19937 rng(42);
        std::normal_distribution<float> normal(0.f, 1.f);
        for (const QString &spec : inputs) {
            const QStringList parts = spec.split(':');
            std::vector<int64_t> shape;
            for (const QString &d : parts[1].split('x'))
                shape.push_back(d.toLongLong());
            ps::Tensor t = ps::Tensor::empty(shape, ps::DataType::Float32);
            for (int64_t i = 0; i < t.numElements(); ++i)
                t.data<float>()[i] = parts[2] == "random" ? normal(rng) : parts[2].toFloat();
            QVERIFY(writeNpy(dir.filePath("in/" + parts[0] + ".npy"), t)
                || (QDir().mkpath(dir.filePath("in"))
                    && writeNpy(dir.filePath("in/" + parts[0] + ".npy"), t)));
        }
        const QStringList common = inputs.isEmpty()
            ? QStringList { "--inputs", "random", "--params", "random", "--seed", "7" }
            : QStringList { "--inputs", dir.filePath("in"), "--params", "random", "--seed", "7" };
        const Result cpu
            = runCli(QStringList { "run", path, "--device", "cpu", "--dump", dir.filePath("cpu") } + common);
        QVERIFY2(cpu.exitCode == 0, qPrintable(cpu.out + cpu.err));
        const Result sim = runCli(QStringList { "run", path, "--device", "cuda-sim", "--no-fallback",
                                      "--dump", dir.filePath("sim") }
                + common,
            env);
        QVERIFY2(sim.exitCode == 0, qPrintable(sim.out + sim.err));
        const QDir cpuOut(dir.filePath("cpu/outputs")), simOut(dir.filePath("sim/outputs"));
        const QStringList files = cpuOut.entryList({ "*.npy" }, QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), "the CPU run dumped no outputs");
        double maxAbs = 0, maxRel = 0;
        for (const QString &f : files) {
            std::string error;
            const ps::Tensor want = ps::NpyIO::read(cpuOut.filePath(f).toStdString(), error);
            const ps::Tensor got = ps::NpyIO::read(simOut.filePath(f).toStdString(), error);
            QVERIFY2(got.defined(),
                qPrintable("cuda-sim did not write " + f + ": " + QString::fromStdString(error)));
            const ps::TensorComparison c = ps::TensorComparison::compare(got, want, 1e-3, 1e-4);
            maxAbs = std::max(maxAbs, c.maxAbsError);
            maxRel = std::max(maxRel, c.maxRelError);
            QVERIFY2(c.ok(), qPrintable(f + ": " + QString::fromStdString(c.summary())));
        }
        qInfo("%s: cpu %lld ms, cuda-sim %lld ms, %lld outputs, max abs %.3g, max rel %.3g", qPrintable(file),
            cpu.ms, sim.ms, qlonglong(files.size()), maxAbs, maxRel);
    }

    void fallbackRunsOnTheCpu()
    {
        std::string reason;
        const auto cpu = ps::createCpuBackend();
        const auto sim = ps::createCudaSimBackend(reason);
        // An op the CPU has and the CUDA backend has not, with a kernel fixture case to run.
        const QDir root(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/kernels"));
        QString caseDir, op;
        for (const QString &family : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir fam(root.filePath(family));
            for (const QString &c : fam.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
                QFile meta(fam.filePath(c + "/case.json"));
                if (!meta.open(QIODevice::ReadOnly))
                    continue;
                const QString name
                    = "pd_op." + QJsonDocument::fromJson(meta.readAll()).object().value("op").toString();
                if (cpu->kernels().has(name.toStdString()) && !sim->kernels().has(name.toStdString())
                    && !QFile::exists(fam.filePath(c + "/expected_0_0.npy"))) {
                    caseDir = fam.filePath(c);
                    op = name;
                    break;
                }
            }
            if (!caseDir.isEmpty())
                break;
        }
        if (caseDir.isEmpty())
            QSKIP("every op with a kernel fixture has a CUDA kernel");
        const QString program = caseDir + "/program.txt";
        const Result on = runCli({ "run", program, "--device", "cuda-sim", "--inputs", caseDir, "--json" });
        QVERIFY2(on.exitCode == 0, qPrintable(op + ": " + on.out + on.err));
        const QJsonObject json = QJsonDocument::fromJson(on.out.toUtf8()).object();
        const QJsonObject fallback = json.value("fallback").toObject();
        QVERIFY2(fallback.value("count").toInt() >= 1, qPrintable(on.out));
        QVERIFY2(fallback.value("ops").toObject().contains(op), qPrintable(on.out));
        const Result text = runCli({ "run", program, "--device", "cuda-sim", "--inputs", caseDir });
        QVERIFY2(text.out.contains(QStringLiteral("ran on the CPU (no kernel on the device): ") + op),
            qPrintable(text.out));
        const Result off
            = runCli({ "run", program, "--device", "cuda-sim", "--inputs", caseDir, "--no-fallback" });
        QCOMPARE(off.exitCode, 1);
        QVERIFY2(off.err.contains(QStringLiteral("the CPU fallback is off")), qPrintable(off.err));
        qInfo("fallback checked with %s (%s)", qPrintable(op), qPrintable(QFileInfo(caseDir).fileName()));
    }
};

QTEST_GUILESS_MAIN(TestCudaSimRuns)
#include "tst_cudasimruns.moc"
