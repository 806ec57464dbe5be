#include "clirunner.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/npyio.h"

#include <QtTest>
#include <limits>

using namespace ps;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

/// A 5x3 tensor sliced on axis 0 from `start` to `end` (int64 operands, as Paddle passes them).
QString sliceProgram(
    const QTemporaryDir &dir, const QString &start, const QString &end, const QString &declared)
{
    const QString path = dir.filePath("slice.txt");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    const QString text = QStringLiteral(
        "{\n"
        "    (%0) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[5,3],value:1.5} : () -> "
        "tensor<5x3xf32>\n"
        "    (%1) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),value:[START]} : () -> "
        "tensor<1xi64>\n"
        "    (%2) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),value:[END]} : () -> "
        "tensor<1xi64>\n"
        "    (%3) = \"pd_op.slice\" (%0, %1, %2) {axes:[0],decrease_axis:[],infer_flags:[1]} : "
        "(tensor<5x3xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<DECLAREDxf32>\n"
        "    () = \"builtin.shadow_output\" (%3) {output_name:\"out\"} : (tensor<DECLAREDxf32>) -> \n"
        "}\n");
    f.write(QString(text).replace("START", start).replace("END", end).replace("DECLARED", declared).toUtf8());
    return path;
}

} // namespace

/// Issue 22, integers exact: slice bounds are int64 end to end (Python's "to the end" is
/// INT64_MAX), and the range arithmetic does not overflow at the extremes.
class TestIntegerEdges : public QObject
{
    Q_OBJECT

private slots:
    void rangesAtTheExtremes()
    {
        AxisRange r = normalizeRange(0, kMax, 1, 5);
        QCOMPARE(r.start, int64_t(0));
        QCOMPARE(r.count, int64_t(5));
        r = normalizeRange(1, kMax, kMax, 5); // one element: the step passes the end
        QCOMPARE(r.start, int64_t(1));
        QCOMPARE(r.count, int64_t(1));
        r = normalizeRange(kMax, kMin, -1, 5); // x[::-1]
        QCOMPARE(r.start, int64_t(4));
        QCOMPARE(r.count, int64_t(5));
        r = normalizeRange(-1, kMin, kMin, 5); // a step of -2^63 takes the first element only
        QCOMPARE(r.start, int64_t(4));
        QCOMPARE(r.count, int64_t(1));
        r = normalizeRange(kMin, kMax, 2, 5); // x[::2]
        QCOMPARE(r.start, int64_t(0));
        QCOMPARE(r.count, int64_t(3));
        r = normalizeRange(3, 1, 1, 5); // empty
        QCOMPARE(r.count, int64_t(0));
        r = normalizeRange(0, 0, kMax, 0); // an empty dim
        QCOMPARE(r.count, int64_t(0));
        QVERIFY_THROWS_EXCEPTION(std::exception, normalizeRange(0, 5, 0, 5));
    }

    /// x[1:INT64_MAX] through a whole run: the bound reaches the kernel exactly (it used to pass
    /// through a double and wrap to INT64_MIN: an empty result).
    void sliceToTheEndRuns()
    {
        QTemporaryDir dir;
        const QString program = sliceProgram(dir, "1", "9223372036854775807", "4x3");
        const CliResult r = runPirscopeCli({ "run", program, "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray outputs = QJsonDocument::fromJson(r.out).object().value("outputs").toArray();
        QCOMPARE(outputs.size(), 1);
        QCOMPARE(outputs[0].toObject().value("shape").toArray(), (QJsonArray { 4, 3 }));
        const QString back = sliceProgram(dir, "-9223372036854775808", "-2", "3x3");
        const CliResult r2 = runPirscopeCli({ "run", back, "--json" });
        QCOMPARE(r2.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r2.out)
                     .object()
                     .value("outputs")
                     .toArray()[0]
                     .toObject()
                     .value("shape")
                     .toArray(),
            (QJsonArray { 3, 3 }));
    }

    /// Floats to integers as Paddle's x86 kernels give them: truncation, and the "integer
    /// indefinite" minimum for NaN and values out of range (undefined in C++).
    void floatToIntegerCasts()
    {
        QCOMPARE(convertElement<int32_t>(-1.7), -1);
        QCOMPARE(convertElement<int32_t>(1e300), std::numeric_limits<int32_t>::min());
        QCOMPARE(convertElement<int32_t>(-1e300), std::numeric_limits<int32_t>::min());
        QCOMPARE(convertElement<int32_t>(std::nan("")), std::numeric_limits<int32_t>::min());
        QCOMPARE(convertElement<int32_t>(3e9f), std::numeric_limits<int32_t>::min());
        QCOMPARE(convertElement<int32_t>(2147483647.0), 2147483647);
        QCOMPARE(convertElement<int64_t>(1e19), kMin);
        QCOMPARE(convertElement<int64_t>(-9.2233720368547758e18), kMin); // -2^63 itself
        QCOMPARE(convertElement<int64_t>(4611686018427387904.0), int64_t(4611686018427387904));
        QCOMPARE(convertElement<uint8_t>(300.0f), uint8_t(44)); // the low byte of int32 300
        QCOMPARE(convertElement<int8_t>(-129.0), int8_t(127));
    }

    /// An int64 sum that passes INT64_MAX wraps (two's complement, as Paddle's kernel), and a cast
    /// of 1e300 to int32 gives INT32_MIN: through a whole run, under the sanitizers too.
    void integerOverflowThroughARun()
    {
        QTemporaryDir dir;
        const QString program = dir.filePath("sum.txt");
        QFile f(program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "{\n"
            "    (%0) = \"pd_op.full_int_array\" () "
            "{dtype:int64,place:Place(cpu),value:[9223372036854775807,3]} : "
            "() -> tensor<2xi64>\n"
            "    (%1) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),value:[0]} : () -> "
            "tensor<1xi64>\n"
            "    (%2) = \"pd_op.sum\" (%0, %1) {keepdim:false,dtype:Undefined} : (tensor<2xi64>, "
            "tensor<1xi64>) -> "
            "tensor<i64>\n"
            "    (%3) = \"pd_op.full\" () {dtype:float64,place:Place(cpu),shape:[2],value:1e+300} : () -> "
            "tensor<2xf64>\n"
            "    (%4) = \"pd_op.cast\" (%3) {dtype:int32} : (tensor<2xf64>) -> tensor<2xi32>\n"
            "    () = \"builtin.shadow_output\" (%2) {output_name:\"sum\"} : (tensor<i64>) -> \n"
            "    () = \"builtin.shadow_output\" (%4) {output_name:\"cast\"} : (tensor<2xi32>) -> \n"
            "}\n");
        f.close();
        const QString dump = dir.filePath("dump");
        const CliResult r = runPirscopeCli({ "run", program, "--dump", dump });
        QCOMPARE(r.exitCode, 0);
        std::string error;
        const Tensor sum = NpyIO::read((dump + "/outputs/sum.npy").toStdString(), error);
        QVERIFY2(sum.defined(), error.c_str());
        QCOMPARE(sum.data<int64_t>()[0], kMin + 2);
        const Tensor cast = NpyIO::read((dump + "/outputs/cast.npy").toStdString(), error);
        QVERIFY2(cast.defined(), error.c_str());
        QCOMPARE(cast.data<int32_t>()[0], std::numeric_limits<int32_t>::min());
    }
};

QTEST_GUILESS_MAIN(TestIntegerEdges)
#include "tst_integeredges.moc"
