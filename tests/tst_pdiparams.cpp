#include "core/io/programloader.h"
#include "core/ir/program.h"
#include "core/runtime/pdiparams.h"

#include <QtTest>
#include <cmath>

using namespace ps;

namespace {

QString example(const char *file)
{
    return QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/") + QLatin1String(file);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

double sum(const Tensor &t)
{
    double s = 0;
    for (double v : t.toDoubles())
        s += v;
    return s;
}

} // namespace

/// Paddle's combined `.pdiparams`: the bundled LeNet example (values checked against
/// paddle.jit.load of the same files), round trips and corrupted files.
class TestPdiparams : public QObject
{
    Q_OBJECT

private slots:
    void readsTheBundledExample()
    {
        LoadResult r = loadProgram(example("lenet_bn.json").toStdString());
        QVERIFY(r.ok());
        const std::vector<std::string> names = Pdiparams::parameterNames(*r.program);
        QCOMPARE(names.size(), size_t(16));
        QCOMPARE(names.front(), std::string("batch_norm2d_0.b_0"));
        QCOMPARE(names.back(), std::string("linear_1.w_0"));
        std::string error;
        const std::map<std::string, Tensor> params
            = Pdiparams::readForProgram(example("lenet_bn.pdiparams").toStdString(), *r.program, error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(params.size(), size_t(16));
        const Tensor &conv = params.at("conv2d_0.w_0");
        QCOMPARE(conv.shape(), std::vector<int64_t>({ 6, 1, 3, 3 }));
        QCOMPARE(conv.dtype(), DataType::Float32);
        // paddle.jit.load('lenet_bn').state_dict(): first values and sums.
        QCOMPARE(float(conv.valueAsDouble(0)), -0.06765522f);
        QCOMPARE(float(conv.valueAsDouble(1)), 0.661341f);
        QVERIFY(std::fabs(sum(conv) - -3.5539075415581465) < 1e-5);
        QVERIFY(std::fabs(sum(params.at("linear_0.w_0")) - -6.579868998378515) < 1e-4);
        QCOMPARE(params.at("linear_0.w_0").shape(), std::vector<int64_t>({ 784, 32 }));
        QCOMPARE(sum(params.at("batch_norm2d_1.w_2")), 16.0); // variance: ones
        QCOMPARE(sum(params.at("batch_norm2d_1.w_1")), 0.0); // mean: zeros
    }

    void roundTrip()
    {
        std::vector<double> a { 1.5, -2, 3, 4, 5, 6 };
        std::vector<double> b { 7, 8 };
        std::vector<double> c { 1, 0, 1 };
        const std::vector<Tensor> tensors { Tensor::fromDoubles({ 2, 3 }, DataType::Float32, a),
            Tensor::fromDoubles({ 2 }, DataType::Int64, b),
            Tensor::fromDoubles({}, DataType::Float64, std::vector<double> { 9.0 }),
            Tensor::fromDoubles({ 3 }, DataType::Bool, c) };
        const std::string bytes = Pdiparams::toBuffer(tensors);
        std::string error;
        const std::vector<std::string> names { "a", "b", "c", "d" };
        const auto entries = Pdiparams::readBuffer(bytes, "mem", &names, error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(entries.size(), tensors.size());
        for (size_t i = 0; i < tensors.size(); ++i) {
            QCOMPARE(entries[i].name, names[i]);
            QCOMPARE(entries[i].tensor.shape(), tensors[i].shape());
            QCOMPARE(entries[i].tensor.dtype(), tensors[i].dtype());
            QCOMPARE(entries[i].tensor.toDoubles(), tensors[i].toDoubles());
        }
        QCOMPARE(entries[0].offset, uint64_t(0));
        // 4 + 8 + 4 + 4 + desc (08 05 10 02 10 03) + 24 data bytes
        QCOMPARE(entries[1].offset, uint64_t(4 + 8 + 4 + 4 + 6 + 24));
    }

    void packedDimsAndLod()
    {
        // A record with one LoD level and packed dims: [2] int32 {5, 6}.
        std::string bytes;
        auto put32 = [&bytes](uint32_t v) { bytes.append(reinterpret_cast<const char *>(&v), 4); };
        auto put64 = [&bytes](uint64_t v) { bytes.append(reinterpret_cast<const char *>(&v), 8); };
        put32(0);
        put64(1);
        put64(16);
        put64(0);
        put64(2);
        put32(0);
        const std::string desc("\x08\x02\x12\x01\x02", 5);
        put32(uint32_t(desc.size()));
        bytes += desc;
        put32(5);
        put32(6);
        std::string error;
        const auto entries = Pdiparams::readBuffer(bytes, "mem", nullptr, error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries[0].tensor.shape(), std::vector<int64_t>({ 2 }));
        QCOMPARE(entries[0].tensor.dtype(), DataType::Int32);
        QCOMPARE(entries[0].tensor.toDoubles(), std::vector<double>({ 5, 6 }));
    }

    void corruptedFiles_data()
    {
        QTest::addColumn<int>("truncateTo"); // -1: keep the size
        QTest::addColumn<int>("patchAt"); // -1: no patch
        QTest::addColumn<QByteArray>("patch");
        QTest::addColumn<QString>("expected");
        // The first record: version @0, lod levels @4, tensor version @12, desc size @16, desc @20
        // (08 05 10 06), data @24 (6 floats), next record @48.
        QTest::newRow("truncated data")
            << 40 << -1 << QByteArray()
            << "byte 24: tensor #0 (parameter 'batch_norm2d_0.b_0'): truncated tensor data";
        QTest::newRow("bad version")
            << -1 << 48 << QByteArray("\x07", 1)
            << "byte 48: tensor #1 (parameter 'batch_norm2d_0.w_0'): unsupported LoDTensor version 7";
        QTest::newRow("bad dtype")
            << -1 << 21 << QByteArray("\x63", 1)
            << "byte 20: tensor #0 (parameter 'batch_norm2d_0.b_0'): unsupported data_type 99";
        QTest::newRow("huge desc")
            << -1 << 19 << QByteArray("\x7f", 1)
            << "byte 16: tensor #0 (parameter 'batch_norm2d_0.b_0'): implausible TensorDesc size";
        QTest::newRow("missing tensors") << 48 << -1 << QByteArray()
                                         << "byte 48: the file holds 1 tensors, the program has 16 "
                                            "parameters (first missing: 'batch_norm2d_0.w_0')";
        QTest::newRow("wrong shape") << -1 << 23 << QByteArray("\x03", 1) << "";
    }
    void corruptedFiles()
    {
        QFETCH(int, truncateTo);
        QFETCH(int, patchAt);
        QFETCH(QByteArray, patch);
        QFETCH(QString, expected);
        LoadResult r = loadProgram(example("lenet_bn.json").toStdString());
        QVERIFY(r.ok());
        QByteArray bytes = readAll(example("lenet_bn.pdiparams"));
        QVERIFY(bytes.size() > 100);
        if (truncateTo >= 0)
            bytes.truncate(truncateTo);
        if (patchAt >= 0)
            bytes.replace(patchAt, patch.size(), patch);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("broken.pdiparams");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        out.close();
        std::string error;
        const auto params = Pdiparams::readForProgram(path.toStdString(), *r.program, error);
        QVERIFY(params.empty());
        const QString message = QString::fromStdString(error);
        QVERIFY2(message.startsWith(path + ": "), qPrintable(message));
        if (expected.isEmpty()) {
            // dims 6 → 3 shifts every later record: some error naming a byte offset.
            QVERIFY2(message.contains(": byte "), qPrintable(message));
        } else {
            QVERIFY2(message.contains(expected), qPrintable(message));
        }
    }

    void missingFile()
    {
        std::string error;
        QVERIFY(Pdiparams::read("/nonexistent/x.pdiparams", error).empty());
        QVERIFY2(QString::fromStdString(error).contains("/nonexistent/x.pdiparams: does not exist"),
            error.c_str());
    }

    /// Issue 9: a parameter whose dims overflow (2^62 x 4) or claim more than the file holds is
    /// refused at its TensorDesc before anything is allocated.
    void hostileDims()
    {
        std::string desc;
        auto varint = [&desc](uint64_t v) {
            while (v >= 0x80) {
                desc.push_back(char(uint8_t(v) | 0x80));
                v >>= 7;
            }
            desc.push_back(char(v));
        };
        auto record = [&](std::vector<uint64_t> dims) {
            desc.clear();
            varint(1 << 3);
            varint(5); // FP32
            for (uint64_t d : dims) {
                varint(2 << 3);
                varint(d);
            }
            std::string out(16, '\0'); // LoDTensor version, LoD levels, tensor version
            const int32_t size = int32_t(desc.size());
            out.append(reinterpret_cast<const char *>(&size), 4);
            return out + desc + std::string(16, '\0');
        };
        std::string error;
        QVERIFY(Pdiparams::readBuffer(record({ uint64_t(1) << 62, 4 }), "huge.pdiparams", nullptr, error)
                    .empty());
        QVERIFY2(QString::fromStdString(error).contains("has more than 2^63 elements"), error.c_str());
        QVERIFY(Pdiparams::readBuffer(record({ 1000000, 1000000 }), "big.pdiparams", nullptr, error).empty());
        QVERIFY2(QString::fromStdString(error).contains(
                     "truncated tensor data (4000000000000 bytes needed, 16 left)"),
            error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPdiparams)
#include "tst_pdiparams.moc"
