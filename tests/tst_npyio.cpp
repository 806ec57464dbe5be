#include "core/runtime/allocator.h"
#include "core/runtime/npyio.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sys/stat.h>

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
                                 << "'x' is not a non-negative decimal integer";
        QTest::newRow("negative dim") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }") + data)
                                      << "'-2' is not a non-negative decimal integer";
        // Issue 9: lenient parsing read (1.5, ...) as 1, (0x10, ...) as 0 and Maybe as C order.
        QTest::newRow("fractional dim") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (1.5, 2), }") + data)
                                        << "dimension 0: '1.5' is not a non-negative decimal integer";
        QTest::newRow("hex dim") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (0x10,), }") + data)
                                 << "'0x10' is not a non-negative decimal integer";
        QTest::newRow("fortran maybe") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }") + data)
                                       << "'fortran_order': expected True or False, got 'Maybe'";
        QTest::newRow("unknown key") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}") + data)
                                     << "unknown key 'extra'";
        QTest::newRow("duplicate key") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }") + data)
                                       << "'descr' appears twice";
        QTest::newRow("dim past int64") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }") + data)
                                        << "dimension 0";
        // 2^62 x 4 floats: the byte count leaves int64; it used to wrap to a 0-byte buffer.
        QTest::newRow("bytes past int64") << QByteArray::fromStdString(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }") + data)
                                          << "has more than 2^63 elements";
        // A small file claiming 4.4 GB: refused from the size, nothing allocated.
        QTest::newRow("claims 4.4 GB")
            << QByteArray::fromStdString(
                   header("{'descr': '<f4', 'fortran_order': False, 'shape': (1100000000,), }") + data)
            << "8 bytes for float32[1100000000] (4400000000 bytes, 4.4 GB): the file is truncated";
        QTest::newRow("trailing bytes") << QByteArray::fromStdString(header(f4) + data + "xyz")
                                        << "3 bytes after the 8 bytes of float32[2]";
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
        QVERIFY2(
            QString::fromStdString(error).contains("/nonexistent/file.npy: does not exist"), error.c_str());
    }

    /// Issue 9: a 143-byte file whose header claims 4.4 GB used to allocate them first.
    void hugeHeaderSmallFileReadsNothing()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/huge.npy").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << header("{'descr': '<f4', 'fortran_order': False, 'shape': (1100000000,), }")
                << std::string(7, '\0');
        }
        const size_t before = cpuAllocator().bytesInUse();
        std::string error;
        QVERIFY(!NpyIO::read(path, error).defined());
        QVERIFY2(QString::fromStdString(error).contains("the file is truncated"), error.c_str());
        QCOMPARE(cpuAllocator().bytesInUse(), before);
    }

    /// A directory, a FIFO and /dev/zero are refused by what they are (no hang, no endless read).
    void notRegularFiles()
    {
        QTemporaryDir dir;
        const QString fifo = dir.path() + "/pipe.npy";
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        std::string error;
        QVERIFY(!NpyIO::read(fifo.toStdString(), error).defined());
        QVERIFY2(QString::fromStdString(error).contains("is a FIFO"), error.c_str());
        QVERIFY(!NpyIO::read(dir.path().toStdString(), error).defined());
        QVERIFY2(QString::fromStdString(error).contains("is a directory"), error.c_str());
        const QString link = dir.path() + "/zero.npy";
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), link));
        QVERIFY(!NpyIO::read(link.toStdString(), error).defined());
        QVERIFY2(
            QString::fromStdString(error).contains("(-> /dev/zero): is a character device"), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNpyIo)
#include "tst_npyio.moc"
