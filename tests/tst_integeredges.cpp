#include "clirunner.h"
#include "core/runtime/kernels/shapespec.h"

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
};

QTEST_GUILESS_MAIN(TestIntegerEdges)
#include "tst_integeredges.moc"
