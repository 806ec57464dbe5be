// ShapeInference: concrete shapes of every value from the inputs' shapes, rule by rule on small
// programs, and on real programs against a CPU run's runtime shapes and against static types.

#include "clirunner.h"
#include "core/analysis/shapeinference.h"
#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/tensor.h"
#include "sanitizerbuild.h"
#include "shapeinferenceprograms.h"
#include "shapeoracle.h"

#include <QtTest>

using namespace ps;

namespace {

std::shared_ptr<const Program> load(const QString &path)
{
    LoadResult r = loadProgram(path.toStdString());
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

std::unique_ptr<Program> parse(const std::string &text)
{
    LoadResult r = loadProgramFromString(text, "shapes.txt");
    return std::move(r.program);
}

/// The value that the shadow_output named `name` writes.
Value output(const Program &p, const std::string &name)
{
    for (const Operation *op : p.block().ops())
        if (op->name() == "builtin.shadow_output" && op->stringAttribute("output_name") == name)
            return op->operand(0);
    return Value();
}

QString shapeOf(const ShapeInference &s, Value v)
{
    const InferredShape *shape = s.shape(v);
    if (!shape)
        return QStringLiteral("(none)");
    if (!shape->known())
        return QStringLiteral("unknown: ") + QString::fromStdString(shape->whyUnknown);
    return QString::fromStdString(ShapeSize::shapeText(shape->dims));
}

} // namespace

class TestShapeInference : public QObject
{
    Q_OBJECT

private slots:
    void rules_data();
    void rules();
    void unknownSaysWhy();
    void realSampleMatchesRun_data();
    void realSampleMatchesRun();
    void detrMatchesRun();
    void splitJsonHasConcreteBytes();
    void staticProgramsRestored_data();
    void staticProgramsRestored();
};

void TestShapeInference::rules_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("inputs"); // name=dims;...
    QTest::addColumn<QString>("expected"); // out=dims;...
    for (const shapeprograms::Case &c : shapeprograms::cases())
        QTest::newRow(c.name) << QString::fromStdString(c.program) << QString(c.inputs)
                              << QString(c.expected);
}

void TestShapeInference::rules()
{
    QFETCH(QString, program);
    QFETCH(QString, inputs);
    QFETCH(QString, expected);
    auto p = parse(program.toStdString());
    QVERIFY(p);
    ShapeInference::InputDims dims;
    for (const QString &entry : inputs.split(';', Qt::SkipEmptyParts)) {
        const QStringList kv = entry.split('=');
        std::vector<int64_t> d;
        for (const QString &n : kv[1].split('x', Qt::SkipEmptyParts))
            d.push_back(n.toLongLong());
        dims[kv[0].toStdString()] = d;
    }
    const ShapeInference s = ShapeInference::run(*p, dims);
    QCOMPARE(s.conflictCount(), size_t(0));
    for (const QString &entry : expected.split(';', Qt::SkipEmptyParts)) {
        const QStringList kv = entry.split('=');
        const Value v = output(*p, kv[0].toStdString());
        QVERIFY2(v, qPrintable("no output " + kv[0]));
        QCOMPARE(shapeOf(s, v), kv[1]);
    }
}

void TestShapeInference::unknownSaysWhy()
{
    auto p = parse(shapeprograms::kUnknowns);
    QVERIFY(p);
    // No shape for x: everything downstream says so; the nonzero is data-dependent.
    ShapeInference s = ShapeInference::run(*p, {});
    QCOMPARE(shapeOf(s, output(*p, "relu")),
        QString("unknown: input x has dynamic dims and no shape (--shape x=DIMS)"));
    QCOMPARE(shapeOf(s, output(*p, "nz")),
        QString("unknown: input x has dynamic dims and no shape (--shape x=DIMS)"));
    QVERIFY(!s.bytes(output(*p, "relu")));
    s = ShapeInference::run(*p, { { "x", { 2, 3 } } });
    QCOMPARE(shapeOf(s, output(*p, "relu")), QString("[2, 3]"));
    QCOMPARE(s.bytes(output(*p, "relu")), std::optional<int64_t>(24));
    QCOMPARE(shapeOf(s, output(*p, "nz")),
        QString("unknown: pd_op.nonzero: the shape depends on the data of its input"));
    QCOMPARE(shapeOf(s, output(*p, "after")),
        QString("unknown: pd_op.nonzero: the shape depends on the data of its input"));
    QCOMPARE(shapeOf(s, output(*p, "norule")), QString("unknown: pd_op.some_new_op has no shape rule"));
    // A static declared type stands where no rule does.
    QCOMPARE(shapeOf(s, output(*p, "static")), QString("[4]"));
    QCOMPARE(s.tensorValues(), size_t(6));
    QCOMPARE(s.inferredValues(), size_t(3));
}

void TestShapeInference::realSampleMatchesRun_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QList<qlonglong>>("dims");
    QTest::newRow("PP-OCRv5_mobile_det") << "PP-OCRv5_mobile_det_infer.inference.json"
                                         << "x" << QList<qlonglong> { 1, 3, 96, 128 };
    QTest::newRow("PP-OCRv5_server_det") << "PP-OCRv5_server_det_infer.inference.json"
                                         << "x" << QList<qlonglong> { 1, 3, 64, 96 };
    QTest::newRow("PP-OCRv5_server_rec") << "PP-OCRv5_server_rec_infer.inference.json"
                                         << "x" << QList<qlonglong> { 1, 3, 48, 160 };
    QTest::newRow("korean_PP-OCRv5_mobile_rec") << "korean_PP-OCRv5_mobile_rec_infer.inference.json"
                                                << "x" << QList<qlonglong> { 2, 3, 48, 320 };
}

void TestShapeInference::realSampleMatchesRun()
{
    QFETCH(QString, file);
    QFETCH(QString, input);
    QFETCH(QList<qlonglong>, dims);
    const QString path = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/") + file;
    if (!QFile::exists(path))
        QSKIP(qPrintable("sample not found (../shared/samples is absent): " + path));
    auto program = load(path);
    QVERIFY(program);
    std::string error;
    const shapeoracle::Coverage c = shapeoracle::againstRun(
        program, { { input.toStdString(), std::vector<int64_t>(dims.begin(), dims.end()) } }, error);
    QVERIFY2(error.empty(), error.c_str());
    qInfo("%s: %s", qPrintable(file), c.summary().c_str());
    for (const std::string &p : c.problems)
        qInfo("  %s", p.c_str());
    QVERIFY(c.values > 0);
    QCOMPARE(c.mismatches, size_t(0));
    QCOMPARE(c.inferred, c.values);
}

/// PP-DocLayout_plus-L (RT-DETR: topk, gather_nd, grid_sample, where) with its three inputs.
void TestShapeInference::detrMatchesRun()
{
    const QString path = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/PP-DocLayout_plus-L.inference.json");
    if (!QFile::exists(path))
        QSKIP(qPrintable("sample not found (../shared/samples is absent): " + path));
    if (kSanitizerBuild)
        QSKIP("sanitizer build: the 800x800 run takes 80 s at -O0 there; the plain build runs it");
    auto program = load(path);
    QVERIFY(program);
    auto tensors = std::make_shared<std::map<std::string, Tensor>>();
    Tensor image = Tensor::empty({ 1, 3, 800, 800 }, DataType::Float32);
    for (int64_t i = 0; i < image.numElements(); ++i)
        image.data<float>()[i] = float(i % 255) / 255.f;
    Tensor imShape = Tensor::empty({ 1, 2 }, DataType::Float32);
    imShape.data<float>()[0] = imShape.data<float>()[1] = 800.f;
    Tensor scale = Tensor::empty({ 1, 2 }, DataType::Float32);
    scale.data<float>()[0] = scale.data<float>()[1] = 1.f;
    (*tensors)["image"] = image;
    (*tensors)["im_shape"] = imShape;
    (*tensors)["scale_factor"] = scale;
    std::string error;
    const shapeoracle::Coverage c = shapeoracle::againstRun(program,
        { { "image", { 1, 3, 800, 800 } }, { "im_shape", { 1, 2 } }, { "scale_factor", { 1, 2 } } }, error,
        TensorSource::named(tensors, "test inputs"));
    QVERIFY2(error.empty(), error.c_str());
    qInfo("PP-DocLayout_plus-L: %s", c.summary().c_str());
    for (const std::string &p : c.problems)
        qInfo("  %s", p.c_str());
    QCOMPARE(c.mismatches, size_t(0));
    QCOMPARE(c.inferred, c.values);
}

/// `split --json`: the middle's concrete shape and bytes once x has a shape, the reason without.
void TestShapeInference::splitJsonHasConcreteBytes()
{
    QTemporaryDir dir;
    QFile f(dir.filePath("two_layers.txt"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(shapeprograms::kTwoLayers));
    f.close();
    const CliResult sized
        = runPirscopeCli({ "split", f.fileName(), "--mode", "train", "--shape", "x=16x8", "--json" });
    QCOMPARE(sized.exitCode, 0);
    QJsonObject json = QJsonDocument::fromJson(sized.out).object();
    QJsonArray middles = json.value("middles").toArray();
    QCOMPARE(middles.size(), 1);
    QJsonObject middle = middles.at(0).toObject();
    QCOMPARE(middle.value("shape").toArray(), (QJsonArray { 16, 4 }));
    QCOMPARE(middle.value("bytes").toInt(), 16 * 4 * 4);
    QVERIFY(middle.value("dynamic").toBool());
    QCOMPARE(json.value("middle_bytes").toInt(), 16 * 4 * 4);
    QCOMPARE(json.value("dynamic_middles").toInt(), 0);
    QCOMPARE(json.value("values_inferred").toInt(), json.value("values").toInt());
    QVERIFY(json.value("kept_after_forward_bytes").toInt() >= 16 * 4 * 4);
    QCOMPARE(
        json.value("input_shapes").toArray().at(0).toObject().value("origin").toString(), QString("option"));

    const CliResult unsized = runPirscopeCli({ "split", f.fileName(), "--mode", "train", "--json" });
    QCOMPARE(unsized.exitCode, 0);
    json = QJsonDocument::fromJson(unsized.out).object();
    middle = json.value("middles").toArray().at(0).toObject();
    QVERIFY(middle.value("bytes").isNull());
    QVERIFY(!middle.contains("shape"));
    QCOMPARE(middle.value("shape_unknown_reason").toString(),
        QString("input x has dynamic dims and no shape (--shape x=DIMS)"));
    QCOMPARE(json.value("dynamic_middles").toInt(), 1);

    const CliResult text = runPirscopeCli({ "split", f.fileName(), "--mode", "train", "--shape", "x=16x8" });
    QVERIFY2(text.out.contains("tensor<-1x4xf32> = [16, 4]\t256 bytes"), text.out.constData());
    // `bench shapes`: the inference's time beside numbering the values, and its coverage.
    const CliResult bench
        = runPirscopeCli({ "bench", "shapes", f.fileName(), "--shape", "x=16x8", "--json" });
    QCOMPARE(bench.exitCode, 0);
    const QJsonObject figures = QJsonDocument::fromJson(bench.out).object();
    QVERIFY(figures.value("inference_seconds").toDouble() > 0 && figures.value("ratio").toDouble() > 0);
    QCOMPARE(figures.value("values_inferred").toInt(), figures.value("values").toInt());
    const CliResult bad = runPirscopeCli({ "split", f.fileName(), "--mode", "train", "--shape", "x=2x3x4" });
    QVERIFY(bad.exitCode != 0);
    QVERIFY2(bad.err.contains("--shape x=2x3x4: rank 3"), bad.err.constData());
}

void TestShapeInference::staticProgramsRestored_data()
{
    QTest::addColumn<QString>("file");
    for (const char *f : { "memory/mlp/train_program.json", "memory/cnn_bn/train_program.json",
             "memory/attention/train_program.json", "paddle/lenet/train_program.json",
             "paddle/conv_bn_relu/train_program.json", "paddle/mlp_ce/train_program.json",
             "paddle/transformer_encoder/train_program.json", "paddle/embedding_mean/train_program.json" })
        QTest::newRow(f) << QString(f);
}

/// Train programs (forward and backward ops, grads included) with static types: with every
/// result's dims dropped, inference from the inputs gives the types back.
void TestShapeInference::staticProgramsRestored()
{
    QFETCH(QString, file);
    const QString path = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/") + file;
    if (!QFile::exists(path))
        QSKIP(qPrintable("fixture not found: " + path));
    auto program = load(path);
    QVERIFY(program);
    const shapeoracle::Coverage c = shapeoracle::againstDeclared(*program);
    qInfo("%s: %s", qPrintable(file), c.summary().c_str());
    for (const std::string &p : c.problems)
        qInfo("  %s", p.c_str());
    QCOMPARE(c.mismatches, size_t(0));
    QCOMPARE(c.inferred, c.values);
}

QTEST_GUILESS_MAIN(TestShapeInference)
#include "tst_shapeinference.moc"
