#include "core/runtime/npyio.h"

#include <QtTest>

using namespace ps;

namespace {

std::string header(const std::string &dict, char major = 1)
{
    std::string h = dict;
    const size_t total = 10 + h.size() + 1;
    h.append((64 - total % 64) % 64, ' ');
    h += '\n';
    std::string out("\x93NUMPY", 6);
    out += major;
    out += '\0';
    out += char(h.size() & 0xff);
    out += char(h.size() >> 8);
    return out + h;
}

} // namespace

/// NumPy .npy reading and writing: round trips of every supported dtype, a file NumPy wrote
/// (a golden bundle input) and malformed headers.
class TestNpyIo : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QString>("shape");
        QTest::newRow("f32 2x3") << int(DataType::Float32) << "2,3";
        QTest::newRow("f64 4") << int(DataType::Float64) << "4";
        QTest::newRow("f16 3") << int(DataType::Float16) << "3";
        QTest::newRow("i8") << int(DataType::Int8) << "5";
        QTest::newRow("u8") << int(DataType::UInt8) << "2,2";
        QTest::newRow("i16") << int(DataType::Int16) << "3";
        QTest::newRow("i32") << int(DataType::Int32) << "1,3";
        QTest::newRow("i64 0-d") << int(DataType::Int64) << "";
        QTest::newRow("bool") << int(DataType::Bool) << "4";
        QTest::newRow("f32 empty") << int(DataType::Float32) << "0,3";
    }
    void roundTrip()
    {
        QFETCH(int, dtype);
        QFETCH(QString, shape);
        std::vector<int64_t> dims;
        for (const QString &d : shape.split(',', Qt::SkipEmptyParts))
            dims.push_back(d.toLongLong());
        std::vector<double> values;
        for (int64_t i = 0; i < numElementsOf(dims); ++i)
            values.push_back(DataType(dtype) == DataType::Bool ? double(i % 2)
                    : DataType(dtype) == DataType::UInt8       ? double(i % 7) * 30
                                                               : double(i % 7) - 2);
        const Tensor t = Tensor::fromDoubles(dims, DataType(dtype), values);
        const std::string bytes = NpyIO::toBuffer(t);
        QCOMPARE(bytes.size() % 64, t.byteSize() % 64); // the header is padded to 64 bytes
        std::string error;
        const Tensor back = NpyIO::readBuffer(bytes, "mem", error);
        QVERIFY2(back.defined(), error.c_str());
        QCOMPARE(back.dtype(), t.dtype());
        QCOMPARE(back.shape(), t.shape());
        QCOMPARE(back.toDoubles(), values);

        QTemporaryDir dir;
        const std::string path = dir.filePath("t.npy").toStdString();
        QVERIFY(NpyIO::write(path, t, error));
        const Tensor fromFile = NpyIO::read(path, error);
        QVERIFY2(fromFile.defined(), error.c_str());
        QCOMPARE(fromFile.toDoubles(), values);
    }

    void readsWhatNumpyWrote()
    {
        std::string error;
        const Tensor x = NpyIO::read(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce/inputs/_jst.0.x.0.npy", error);
        QVERIFY2(x.defined(), error.c_str());
        QCOMPARE(x.shape(), std::vector<int64_t>({ 4, 4 }));
        QCOMPARE(x.dtype(), DataType::Float32);
        const Tensor label
            = NpyIO::read(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce/inputs/_jst.1.label.0.npy", error);
        QVERIFY2(label.defined(), error.c_str());
        QCOMPARE(label.shape(), std::vector<int64_t>({ 4, 1 }));
        QCOMPARE(label.dtype(), DataType::Int64);
        const Tensor loss = NpyIO::read(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce/outputs/0.npy", error);
        QVERIFY2(loss.defined(), error.c_str());
        QCOMPARE(loss.shape(), std::vector<int64_t>({ 1 }));
    }

    void version2Header()
    {
        std::string h = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
        std::string bytes("\x93NUMPY\x02\x00", 8);
        const uint32_t len = uint32_t(h.size());
        bytes.append(reinterpret_cast<const char *>(&len), 4);
        bytes += h;
        const int32_t data[2] = { 7, -3 };
        bytes.append(reinterpret_cast<const char *>(data), 8);
        std::string error;
        const Tensor t = NpyIO::readBuffer(bytes, "v2", error);
        QVERIFY2(t.defined(), error.c_str());
        QCOMPARE(t.toDoubles(), std::vector<double>({ 7, -3 }));
    }

    void badHeaders_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
        const std::string data(8, '\0');
        QTest::newRow("no magic") << QByteArray("PK\x03\x04 not numpy at all") << "no \\x93NUMPY magic";
        QTest::newRow("version 9") << QByteArray::fromStdString(header(f4, 9) + data)
                                   << "unsupported format version 9";
        QTest::newRow("long header") << QByteArray::fromStdString(std::string("\x93NUMPY\x01\x00\xff\x7f", 10)
            + "{}") << "runs past the end";
        QTest::newRow("fortran") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }") + data)
                                 << "'fortran_order': True";
        QTest::newRow("big endian") << QByteArray::fromStdString(
            header("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }") + data)
                                    << "not a little-endian";
        QTest::newRow("complex") << QByteArray::fromStdString(
            header("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }") + data)
                                 << "'<c8' is not supported";
        QTest::newRow("no shape") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, }") + data)
                                  << "no 'shape'";
        QTest::newRow("bad dim") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (x,), }") + data)
                                 << "bad dimension";
        QTest::newRow("negative dim") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }") + data)
                                      << "negative dimension";
        QTest::newRow("short data") << QByteArray::fromStdString(header(f4) + std::string(5, '\0'))
                                    << "5 bytes for float32[2]";
    }
    void badHeaders()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        std::string error;
        const Tensor t
            = NpyIO::readBuffer(std::string_view(bytes.constData(), size_t(bytes.size())), "bad.npy", error);
        QVERIFY(!t.defined());
        const QString message = QString::fromStdString(error);
        QVERIFY2(message.startsWith("bad.npy: "), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void missingFile()
    {
        std::string error;
        QVERIFY(!NpyIO::read("/nonexistent/file.npy", error).defined());
        QVERIFY(QString::fromStdString(error).contains("cannot open"));
    }
};

QTEST_GUILESS_MAIN(TestNpyIo)
#include "tst_npyio.moc"
