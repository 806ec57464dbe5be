#include "core/runtime/scaledcomparison.h"
#include "core/runtime/tensor.h"

#include <QtTest>

using namespace ps;

namespace {

Tensor floats(std::vector<double> values)
{
    const int64_t n = int64_t(values.size());
    return Tensor::fromDoubles({ n }, DataType::Float32, values);
}

} // namespace

/// The pass numeric check's element rule: errors judged against the value's scale (its RMS).
class TestScaledComparison : public QObject
{
    Q_OBJECT

private slots:
    void roundingNearZeroInALargeValuePasses()
    {
        // A value of scale ~1e6 with an element near zero after cancellation: an error of 1e-5 of
        // the scale there is rounding (NumPy's rule, |e| alone, flags it).
        const Tensor expected = floats({ 1e6, -1e6, 2.0, 5e5 });
        const Tensor actual = floats({ 1e6, -1e6, 10.0, 5e5 });
        QVERIFY(!TensorComparison::compare(actual, expected, 1e-4, 1e-5).ok());
        const TensorComparison c = compareToScale(actual, expected, 1e-4, 1e-5);
        QVERIFY2(c.ok(), c.summary().c_str());
        QCOMPARE(rootMeanSquare(expected), std::sqrt((1e12 + 1e12 + 4.0 + 2.5e11) / 4.0));
    }

    void errorsAtTheValuesScaleFail()
    {
        const Tensor expected = floats({ 1.0, -2.0, 3.0 });
        const Tensor actual = floats({ 1.0, -2.0, 3.01 });
        const TensorComparison c = compareToScale(actual, expected, 1e-4, 1e-5);
        QVERIFY(!c.ok());
        QCOMPARE(c.mismatches, int64_t(1));
        QCOMPARE(c.worstIndex, int64_t(2));
        // The element rule's ratio: |a - e| / (atol + rtol |e|), the largest over the elements.
        const TensorComparison plain = TensorComparison::compare(actual, expected, 1e-3, 0);
        QCOMPARE(plain.mismatches, int64_t(1));
        QVERIFY(std::fabs(plain.maxToleranceRatio - (3.01f - 3.0) / (1e-3 * 3.0)) < 1e-3);
        QVERIFY(TensorComparison::compare(expected, expected, 1e-3, 0).maxToleranceRatio == 0);
        QVERIFY(std::isinf(
            TensorComparison::compare(floats({ NAN }), floats({ 1.0 }), 1e-3, 0).maxToleranceRatio));
        // Non-finite elements do not count in the scale.
        QCOMPARE(rootMeanSquare(floats({ 3.0, INFINITY })), 3.0);
    }
};

QTEST_GUILESS_MAIN(TestScaledComparison)
#include "tst_scaledcomparison.moc"
