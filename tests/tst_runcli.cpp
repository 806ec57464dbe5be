#include "core/runtime/backend.h"
#include "core/runtime/npyio.h"
#include "core/runtime/scaledcomparison.h"
#include "core/runtime/tensorcomparison.h"

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

QString bundle(const char *model)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + QLatin1String(model);
}

QString example(const char *file)
{
    return QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/") + QLatin1String(file);
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(content);
    return path;
}

bool copyTree(const QString &from, const QString &to)
{
    QDir().mkpath(to);
    for (const QFileInfo &e : QDir(from).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString target = to + "/" + e.fileName();
        if (e.isDir() ? !copyTree(e.filePath(), target) : !QFile::copy(e.filePath(), target))
            return false;
    }
    return true;
}

} // namespace

/// `pirscope-cli run`, `verify --numerics` and `bench run` on golden bundles and small programs.
class TestRunCli : public QObject
{
    Q_OBJECT

private slots:
    void runBundleAsJson()
    {
        if (!QFileInfo::exists(bundle("mlp_ce")))
            QSKIP("golden bundle missing");
        const CliRun r = runCli({ "run", bundle("mlp_ce"), "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["status"].toString(), QString("finished"));
        QCOMPARE(o["segments"].toArray().size(), 2);
        QCOMPARE(o["ops_executed"].toInt(), 33);
        const QJsonArray outputs = o["outputs"].toArray();
        QCOMPARE(outputs.size(), 1);
        QCOMPARE(outputs[0].toObject()["dtype"].toString(), QString("float32"));
        QCOMPARE(o["input_grads"].toArray().size(), 2);
        QVERIFY(o["input_grads"].toArray()[1].toObject()["tensor"].isNull()); // the int label
        QCOMPARE(o["param_grads"].toArray().size(), 4);
        // Freed as Paddle's executor frees them: the forward's 2 no_need_buffer and 3 unread
        // variables, and in the backward the 4 middles and the output gradient after their last read.
        const QJsonArray freed = o["freed"].toArray();
        QCOMPARE(freed.size(), 9);
        QCOMPARE(freed[4].toObject()["name"].toString(), QString("output_grad_0"));
        QVERIFY(o["eager_deletion"].toBool());
        // What the run's allocator held: the inputs and parameters, then the peak of the step.
        QCOMPARE(o["start_bytes"].toInt(), 300);
        QVERIFY(o["peak_bytes"].toInt() > o["start_bytes"].toInt());
        QVERIFY(o["kept_after_forward_bytes"].toInt() > 0);
    }

    /// With a breakpoint the values stay for the stop to show: nothing is freed early.
    void runWithABreakpointKeepsValues()
    {
        if (!QFileInfo::exists(bundle("mlp_ce")))
            QSKIP("golden bundle missing");
        const CliRun r = runCli({ "run", bundle("mlp_ce"), "--json", "--break", "1:3" });
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["status"].toString(), QString("stopped"));
        QVERIFY(!o["eager_deletion"].toBool());
        QCOMPARE(o["freed"].toArray().size(), 5);
        const CliRun text = runCli({ "run", bundle("mlp_ce"), "--break", "1:3" });
        QVERIFY2(text.out.contains("values kept for --break"), text.out.constData());
    }

    void runDumpsOutputsAndGradients()
    {
        if (!QFileInfo::exists(bundle("nested_output")))
            QSKIP("golden bundle missing");
        QTemporaryDir dir;
        const CliRun r = runCli({ "run", bundle("nested_output"), "--dump", dir.path() });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("finished"));
        std::string error;
        const ps::Tensor ours
            = ps::NpyIO::read(dir.filePath("grads/params/linear_0.w_0.npy").toStdString(), error);
        const ps::Tensor paddle = ps::NpyIO::read(
            (bundle("nested_output") + "/grads/params/linear_0.w_0.npy").toStdString(), error);
        QVERIFY2(ours.defined() && paddle.defined(), error.c_str());
        QCOMPARE(ours.shape(), paddle.shape());
        const std::vector<double> a = ours.toDoubles(), b = paddle.toDoubles();
        for (size_t i = 0; i < a.size(); ++i)
            QVERIFY(std::fabs(a[i] - b[i]) <= 1e-5 + 1e-4 * std::fabs(b[i]));
        QVERIFY(QFileInfo::exists(dir.filePath("outputs/output_2.npy")));
        QVERIFY(QFileInfo::exists(dir.filePath("grads/inputs/_jst.0.x.0.npy")));
    }

    void runStopsAtABreakpoint()
    {
        if (!QFileInfo::exists(bundle("control_flow")))
            QSKIP("golden bundle missing");
        const CliRun r = runCli({ "run", bundle("control_flow"), "--break", "0:17/0:3" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.contains("breakpoint at 0:17/0:3 before pd_op.add"), r.out.constData());
        QVERIFY(r.out.contains("operand 1"));
        const CliRun byName = runCli({ "run", bundle("control_flow"), "--break", "^middle_5$" });
        QCOMPARE(byName.exitCode, 2);
        QVERIFY2(byName.out.contains("wrote 'middle_5'"), byName.out.constData());
    }

    void runReportsNaN()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "log.txt", R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:-1} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.log" (%2) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.relu" (%3) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%4) {output_name:"out"} : (tensor<2x3xf32>) -> 
}
)");
        const CliRun clean = runCli({ "run", path, "--inputs", "zeros" });
        QCOMPARE(clean.exitCode, 0); // log(-0) = -inf, but nobody asked
        const CliRun r = runCli({ "run", path, "--inputs", "ones", "--check-nan" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.contains("nan/inf at 0:4 after pd_op.log"), r.out.constData());
        QVERIFY2(r.out.contains("nan 6"), r.out.constData());
    }

    void runMissingKernel()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "mystery.txt", R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2],stop_gradient:[false]} : () -> tensor<2xf32>
    (%1) = "pd_op.mystery" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>
}
)");
        const CliRun r = runCli({ "run", path });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no kernel for 'pd_op.mystery'"), r.err.constData());
        QVERIFY2(r.err.contains("at 0:1"), r.err.constData());
    }

    void runProvidesTheOutputsOfAnOpWithoutKernel()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "mystery2.txt", R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:3} : () -> tensor<1xf32>
    (%2) = "pd_op.mystery" (%0, %1) {} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.add" (%2, %0) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%3) {output_name:"out"} : (tensor<2x3xf32>) -> 
}
)");
        // Without --provide: the op, its position and the option to use.
        const CliRun failed = runCli({ "run", path, "--inputs", "ones" });
        QCOMPARE(failed.exitCode, 1);
        QVERIFY2(failed.err.contains("pd_op.mystery at 0:2"), failed.err.constData());
        QVERIFY2(failed.err.contains("no kernel for 'pd_op.mystery'"), failed.err.constData());
        QVERIFY2(failed.err.contains("--provide 0:2=result0.npy"), failed.err.constData());

        auto filled = [&](const char *name, double value, ps::DataType dtype = ps::DataType::Float32) {
            const std::vector<double> v(6, value);
            std::string error;
            const QString file = dir.filePath(QLatin1String(name));
            ps::NpyIO::write(file.toStdString(), ps::Tensor::fromDoubles({ 2, 3 }, dtype, v), error);
            return file;
        };
        auto outputOf = [&](const QStringList &provide, double &value) {
            const QString dump = dir.filePath("dump");
            QDir(dump).removeRecursively();
            QStringList args { "run", path, "--inputs", "ones", "--dump", dump };
            for (const QString &p : provide)
                args << "--provide" << p;
            const CliRun r = runCli(args);
            std::string error;
            const ps::Tensor out = ps::NpyIO::read((dump + "/outputs/out.npy").toStdString(), error);
            value = out.defined() ? out.toDoubles().front() : -1;
            return r;
        };
        // out = provided + x (ones): the outputs follow the provided values.
        double value = 0;
        CliRun r = outputOf({ "0:2=" + filled("seven.npy", 7.0) }, value);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("finished: 5 ops"), r.out.constData());
        QCOMPARE(value, 8.0);
        // By name (the op's name or a result's, as --break names them).
        r = outputOf({ "pd_op.mystery=" + filled("two.npy", 2.0) }, value);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(value, 3.0);
        r = outputOf({ "^%2$=" + filled("minus.npy", -1.0) }, value);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(value, 0.0);

        // Mistakes are named.
        r = outputOf({ "0:2=" + filled("a.npy", 1.0) + "," + filled("b.npy", 1.0) }, value);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("pd_op.mystery at 0:2 has 1 result(s), 2 file(s) given"), r.err.constData());
        r = outputOf({ "0:2=" + filled("f64.npy", 1.0, ps::DataType::Float64) }, value);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("float64[2, 3], result 0 of pd_op.mystery at 0:2 is float32[2, 3]"),
            r.err.constData());
        r = outputOf({ "0:9=" + filled("c.npy", 1.0) }, value);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no op at 0:9"), r.err.constData());
        r = outputOf({ "pd_op=" + filled("d.npy", 1.0) }, value);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("matches 4 ops"), r.err.constData());
        r = outputOf({ "0:2" }, value);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--provide needs OP=FILE.npy"), r.err.constData());
        r = outputOf({ "0:2=" + dir.filePath("missing.npy") }, value);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing.npy"), r.err.constData());
    }

    void runWithAnImageInput()
    {
        const QString image = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/image/rgb5x4.ppm");
        const CliRun r = runCli({ "run", example("lenet_bn.json"), "--params", example("lenet_bn.pdiparams"),
            "--inputs", image, "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["status"].toString(), QString("finished"));
        const QString inputs = o["inputs"].toString();
        QVERIFY2(inputs.contains("rgb5x4.ppm (5x4 RGB), ImageNet mean/std, as 'image'"), qPrintable(inputs));
        const QJsonObject out = o["outputs"].toArray()[0].toObject();
        // Not normalised: another input, another output.
        const CliRun raw = runCli({ "run", example("lenet_bn.json"), "--params",
            example("lenet_bn.pdiparams"), "--inputs", image, "--image-norm", "none", "--json" });
        QCOMPARE(raw.exitCode, 0);
        const QJsonObject rawOut
            = QJsonDocument::fromJson(raw.out).object()["outputs"].toArray()[0].toObject();
        QVERIFY(rawOut["max"].toDouble() != out["max"].toDouble());

        // PNG/JPEG: the CLI has no decoder and says what to do.
        QTemporaryDir dir;
        const QString png = writeFile(dir, "cat.png", QByteArray("\x89PNG\r\n"));
        const CliRun noPng = runCli({ "run", example("lenet_bn.json"), "--inputs", png });
        QCOMPARE(noPng.exitCode, 1);
        QVERIFY2(noPng.err.contains(
                     "PNG/JPEG need the GUI or a conversion to .ppm (e.g. `convert in.png out.ppm`)"),
            noPng.err.constData());
        const CliRun badNorm = runCli({ "run", example("lenet_bn.json"), "--image-norm", "none" });
        QCOMPARE(badNorm.exitCode, 1);
        QVERIFY2(
            badNorm.err.contains("--image-norm applies to --inputs IMAGE only"), badNorm.err.constData());
        const CliRun imageParams = runCli({ "run", example("lenet_bn.json"), "--params", image });
        QCOMPARE(imageParams.exitCode, 1);
        QVERIFY2(imageParams.err.contains("an image cannot provide parameters"), imageParams.err.constData());
    }

    void runWithPdiparams()
    {
        const CliRun r = runCli(
            { "run", example("lenet_bn.json"), "--params", example("lenet_bn.pdiparams"), "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["status"].toString(), QString("finished"));
        QCOMPARE(o["outputs"].toArray()[0].toObject()["shape"].toArray(), QJsonArray({ 1, 10 }));
        // A truncated copy: the error names the byte offset.
        QTemporaryDir dir;
        QFile f(example("lenet_bn.pdiparams"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString broken = writeFile(dir, "broken.pdiparams", f.read(1000));
        const CliRun bad = runCli({ "run", example("lenet_bn.json"), "--params", broken });
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("byte "), bad.err.constData());
        QVERIFY2(bad.err.contains("parameter '"), bad.err.constData());
    }

    void runUserErrors()
    {
        QCOMPARE(runCli({ "run" }).exitCode, 1);
        const CliRun badInputs = runCli({ "run", example("lenet_bn.json"), "--inputs", "/nonexistent/dir" });
        QCOMPARE(badInputs.exitCode, 1);
        QVERIFY(badInputs.err.contains("--inputs"));
        const CliRun badBreak = runCli({ "run", example("lenet_bn.json"), "--break", "0:999" });
        QCOMPARE(badBreak.exitCode, 1);
        QVERIFY(badBreak.err.contains("no op at 0:999"));
        const CliRun badDevice = runCli({ "run", example("lenet_bn.json"), "--device", "tpu" });
        QCOMPARE(badDevice.exitCode, 1);
    }

    void runOnCudaWithoutCuda()
    {
        std::string reason;
        if (ps::createCudaBackend(0, reason))
            QSKIP("this machine has CUDA");
        const CliRun r = runCli({ "run", example("lenet_bn.json"), "--device", "cuda" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QByteArray::fromStdString(reason)), r.err.constData());
    }

    void verifyBundleNumerics()
    {
        if (!QFileInfo::exists(bundle("transformer_encoder")))
            QSKIP("golden bundle missing");
        const CliRun r = runCli({ "verify", bundle("transformer_encoder") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("numerics: ok"), r.out.constData());
        QCOMPARE(r.out.count("ok (max abs"), 18); // the output and 17 gradients
    }

    void verifyDetectsAWrongReference()
    {
        if (!QFileInfo::exists(bundle("mlp_ce")))
            QSKIP("golden bundle missing");
        QTemporaryDir dir;
        const QString copy = dir.filePath("mlp_ce");
        QVERIFY(copyTree(bundle("mlp_ce"), copy));
        // Paddle's loss, plus 1%.
        std::string error;
        ps::Tensor loss = ps::NpyIO::read((copy + "/outputs/0.npy").toStdString(), error);
        QVERIFY(loss.defined());
        loss.data<float>()[0] *= 1.01f;
        QVERIFY(ps::NpyIO::write((copy + "/outputs/0.npy").toStdString(), loss, error));
        const CliRun r = runCli({ "verify", copy });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("MISMATCH"), r.out.constData());
        QVERIFY2(r.out.contains("numerics: FAILED"), r.out.constData());
    }

    void verifyJudgesEachValueAgainstItsScale()
    {
        // Paddle's float32 gradient, its element nearest zero moved by 90% of the tolerance the
        // tensor's scale allows (atol + rtol rms): NumPy's rule (|e| alone) would call it a
        // mismatch, `passes --check-numerics`' rule accepts it, and so does verify.
        if (!QFileInfo::exists(bundle("mlp_ce")))
            QSKIP("golden bundle missing");
        QTemporaryDir dir;
        const QString copy = dir.filePath("mlp_ce");
        QVERIFY(copyTree(bundle("mlp_ce"), copy));
        const std::string file = (copy + "/grads/params/linear_0.b_0.npy").toStdString();
        std::string error;
        const ps::Tensor paddle = ps::NpyIO::read(file, error);
        QVERIFY(paddle.defined());
        ps::Tensor moved = paddle.cloneHost();
        float *v = moved.data<float>();
        int64_t nearest = 0;
        for (int64_t i = 1; i < moved.numElements(); ++i)
            if (std::abs(v[i]) < std::abs(v[nearest]))
                nearest = i;
        const double rtol = 1e-4, atol = 1e-5;
        v[nearest] += float(0.9 * (atol + rtol * ps::rootMeanSquare(paddle)));
        QVERIFY(!ps::TensorComparison::compare(paddle, moved, rtol, atol).ok());
        QVERIFY(ps::compareToScale(paddle, moved, rtol, atol).ok());
        QVERIFY(ps::NpyIO::write(file, moved, error));
        const CliRun r = runCli({ "verify", copy });
        QVERIFY2(r.out.contains("numerics: ok"), r.out.constData());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("rms(e)"), r.out.constData());

        // Twice that is beyond it.
        v[nearest] += float(1.2 * (atol + rtol * ps::rootMeanSquare(paddle)));
        QVERIFY(ps::NpyIO::write(file, moved, error));
        const CliRun beyond = runCli({ "verify", copy });
        QCOMPARE(beyond.exitCode, 1);
        QVERIFY2(beyond.out.contains("MISMATCH"), beyond.out.constData());
    }

    void verifyProgramNumerics()
    {
        const CliRun plain = runCli({ "verify", example("lenet_bn.json") });
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(!plain.out.contains("numerics:")); // the path may hold the word
        const CliRun r = runCli({ "verify", example("lenet_bn.json"), "--numerics" });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("numerics: ok"), r.out.constData());
    }

    void benchRun()
    {
        if (!QFileInfo::exists(bundle("mlp_ce")))
            QSKIP("golden bundle missing");
        const CliRun r = runCli({ "bench", "run", bundle("mlp_ce"), "--runs", "3", "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["ops_per_run"].toInt(), 33);
        QVERIFY(o["median_seconds"].toDouble() > 0);
        QVERIFY(o["median_op_seconds"].toDouble() <= o["median_seconds"].toDouble());
        QVERIFY(!o["ops"].toArray().isEmpty());
    }

    // --pipeline: the program the passes leave runs (oneDNN fused convs, the batch-norm folded
    // into parameters of the session); an unknown pipeline is refused.
    void benchRunAfterAPipeline()
    {
        const QString model = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/onednn_passes/resnet_blocks/model.json");
        const CliRun plain = runCli({ "bench", "run", model, "--runs", "1", "--json" });
        QCOMPARE(plain.exitCode, 0);
        const CliRun fused
            = runCli({ "bench", "run", model, "--runs", "1", "--pipeline", "inference-onednn", "--json" });
        QCOMPARE(fused.exitCode, 0);
        const QJsonObject before = QJsonDocument::fromJson(plain.out).object();
        const QJsonObject after = QJsonDocument::fromJson(fused.out).object();
        QCOMPARE(after["pipeline"].toString(), QStringLiteral("inference-onednn"));
        QVERIFY(after["ops_per_run"].toInt() < before["ops_per_run"].toInt());
        QStringList names;
        for (const QJsonValue &op : after["ops"].toArray())
            names << op.toObject()["name"].toString();
        QVERIFY2(names.contains("onednn_op.fused_conv2d") && !names.contains("pd_op.batch_norm_"),
            qPrintable(names.join(' ')));
        const CliRun unknown = runCli({ "bench", "run", model, "--pipeline", "inference-tpu" });
        QVERIFY(unknown.exitCode != 0);
        QVERIFY2(unknown.err.contains("unknown pipeline 'inference-tpu'"), unknown.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRunCli)
#include "tst_runcli.moc"
