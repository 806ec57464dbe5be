#include "inspectortesthelpers.h"

/// The tensor inspector's comparison: the first mismatch, shapes, a scalar against [1],
/// non-finite values, the same verdict as the core's TensorComparison, a file and a tensor.
class TestTensorCompare : public QObject
{
    Q_OBJECT

private slots:
    void compareReportsFirstMismatch();
    void compareShapeMismatch();
    void compareScalarWithOneElement();
    void compareNonFinite();
    void compareAgreesWithTheCore();
    void compareWithFileAndTensor();
};

void TestTensorCompare::compareReportsFirstMismatch()
{
    const Tensor a = tensorOf({ 2, 3 }, { 1, 2, 3, 4, 5, 6 });
    const Tensor b = tensorOf({ 2, 3 }, { 1, 2, 3.00001, 4.5, 5, 3 }, DataType::Float64);
    TensorCompare::Options options;
    options.rtol = 1e-4;
    options.atol = 0;
    options.nameA = "ours";
    options.nameB = "paddle";
    const TensorCompare::Result r = TensorCompare::compare(a, b, options);
    QVERIFY(r.ok);
    QCOMPARE(r.count, int64_t(6));
    QCOMPARE(r.mismatchCount, int64_t(2)); // 3 vs 3.00001 is within rtol
    QCOMPARE(r.firstMismatch, int64_t(3));
    QCOMPARE(r.firstMismatchIndex, (std::vector<int64_t> { 1, 0 }));
    QCOMPARE(r.firstA, 4.0);
    QCOMPARE(r.firstB, 4.5);
    QCOMPARE(r.maxAbsError, 3.0);
    QCOMPARE(r.maxRelError, 1.0);
    QVERIFY(!r.allClose());
    QCOMPARE(r.diff.dtype(), DataType::Float64);
    QCOMPARE(r.diff.shape(), a.shape());
    QCOMPARE(r.diff.data<double>()[3], -0.5);
    QCOMPARE(r.diff.data<double>()[5], 3.0);
    const std::string s = r.summary();
    QVERIFY2(s.find("2 beyond tolerance") != std::string::npos, s.c_str());
    QVERIFY2(s.find("first at (1, 0): ours 4 vs paddle 4.5") != std::string::npos, s.c_str());

    // 3-d index.
    Tensor c = arange({ 2, 3, 4 }), d = arange({ 2, 3, 4 });
    d.data<float>()[1 * 12 + 2 * 4 + 1] += 1;
    const TensorCompare::Result r3 = TensorCompare::compare(c, d);
    QCOMPARE(r3.firstMismatchIndex, (std::vector<int64_t> { 1, 2, 1 }));
    QCOMPARE(r3.mismatchCount, int64_t(1));
    QVERIFY(TensorCompare::compare(c, c).allClose());
}

void TestTensorCompare::compareShapeMismatch()
{
    const TensorCompare::Result r = TensorCompare::compare(arange({ 2, 3 }), arange({ 3, 2 }));
    QVERIFY(!r.ok);
    QVERIFY2(r.error.find("float32[2, 3]") != std::string::npos, r.error.c_str());
    QVERIFY2(r.error.find("float32[3, 2]") != std::string::npos, r.error.c_str());
    QCOMPARE(r.summary(), r.error);
    QVERIFY(!TensorCompare::compare(arange({ 2 }), Tensor()).ok);
}

void TestTensorCompare::compareScalarWithOneElement()
{
    // PIRScope's 0-d loss against Paddle's [1] (and back) is one value compared, not a mismatch.
    const Tensor scalar = tensorOf({}, { 2.5 });
    const Tensor one = tensorOf({ 1 }, { 2.5 }, DataType::Float64);
    TensorCompare::Options options;
    options.nameA = "loss";
    options.nameB = "loss.npy";
    const TensorCompare::Result r = TensorCompare::compare(scalar, one, options);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.allClose());
    QCOMPARE(r.count, int64_t(1));
    QCOMPARE(r.diff.shape(), scalar.shape());
    QVERIFY2(r.summary().find("loss is float32[], loss.npy is float64[1]") != std::string::npos,
        r.summary().c_str());
    const TensorCompare::Result back = TensorCompare::compare(one, tensorOf({}, { 3.0 }));
    QVERIFY(back.ok);
    QCOMPARE(back.mismatchCount, int64_t(1));
    QCOMPARE(back.firstA, 2.5);
    QCOMPARE(back.firstB, 3.0);
    QCOMPARE(back.firstMismatchIndex, (std::vector<int64_t> { 0 }));
    // More than one element still has to match shapes exactly.
    QVERIFY(!TensorCompare::compare(tensorOf({ 1 }, { 1 }), tensorOf({ 2 }, { 1, 1 })).ok);
    QVERIFY(!TensorCompare::compare(tensorOf({}, { 1 }), tensorOf({ 2 }, { 1, 1 })).ok);
    QVERIFY(TensorComparison::compare(scalar, one, 1e-5, 1e-8).shapesMatch);

    // Through the inspector, from a .npy as Compare with Paddle does.
    QTemporaryDir dir;
    const QString path = dir.filePath("loss.npy");
    std::string error;
    QVERIFY(NpyIO::write(path.toStdString(), tensorOf({ 1 }, { 2.5 }), error));
    TensorInspector inspector;
    inspector.setTensor(scalar, "loss");
    QSignalSpy finished(&inspector, &TensorInspector::compareFinished);
    QVERIFY(inspector.compareWithFile(path));
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY2(inspector.comparison().allClose(), qPrintable(inspector.comparePanel()->summaryText()));
    QVERIFY2(inspector.comparePanel()->summaryText().contains("within tolerance"),
        qPrintable(inspector.comparePanel()->summaryText()));
}

void TestTensorCompare::compareNonFinite()
{
    const Tensor a = tensorOf({ 5 }, { kNan, kNan, kInf, kInf, 1 });
    const Tensor b = tensorOf({ 5 }, { kNan, 1, kInf, -kInf, 1 });
    TensorCompare::Result r = TensorCompare::compare(a, b);
    QCOMPARE(r.mismatchCount, int64_t(2));
    QCOMPARE(r.firstMismatchIndex, (std::vector<int64_t> { 1 }));
    QCOMPARE(r.maxAbsError, 0.0);
    QCOMPARE(r.diff.data<double>()[0], 0.0);
    QVERIFY(std::isnan(r.diff.data<double>()[1]));
    QCOMPARE(r.diff.data<double>()[2], 0.0);
    QCOMPARE(r.diff.data<double>()[3], kInf);
    TensorCompare::Options strict;
    strict.equalNan = false;
    QCOMPARE(TensorCompare::compare(a, b, strict).mismatchCount, int64_t(3));
}

void TestTensorCompare::compareAgreesWithTheCore()
{
    // Values on both sides of the tolerance (atol 1e-3 + rtol 1e-2 * |b|), non-finite pairs and
    // a zero reference: the inspector and the core (differential mode, verify) count the same.
    const std::vector<double> b { 1, 1, 100, 100, 0, 0, -50, kNan, kInf, 2 };
    const std::vector<double> a { 1.0105, 1.0115, 101.0005, 101.002, 0.0009, 0.0011, -50.5, kNan, kInf,
        kNan };
    const Tensor ta = tensorOf({ 10 }, a, DataType::Float64), tb = tensorOf({ 10 }, b, DataType::Float64);
    TensorCompare::Options options;
    options.rtol = 1e-2;
    options.atol = 1e-3;
    const TensorCompare::Result ui = TensorCompare::compare(ta, tb, options);
    const TensorComparison core = TensorComparison::compare(ta, tb, options.rtol, options.atol);
    QCOMPARE(ui.mismatchCount, int64_t(4)); // 1.0115, 101.002, 0.0011, NaN vs 2
    QCOMPARE(core.mismatches, ui.mismatchCount);
    for (size_t i = 0; i < a.size(); ++i) {
        const bool one = TensorCompare::compare(tensorOf({ 1 }, { a[i] }, DataType::Float64),
            tensorOf({ 1 }, { b[i] }, DataType::Float64), options)
                             .allClose();
        QCOMPARE(one, TensorComparison::close(a[i], b[i], options.rtol, options.atol));
    }
}

void TestTensorCompare::compareWithFileAndTensor()
{
    QTemporaryDir dir;
    const Tensor t = arange({ 2, 3 });
    Tensor reference = arange({ 2, 3 });
    reference.data<float>()[4] = 100;
    const QString path = dir.filePath("ref.npy");
    std::string error;
    QVERIFY(NpyIO::write(path.toStdString(), reference, error));

    TensorInspector inspector;
    inspector.setTensor(t, "ours");
    QSignalSpy finished(&inspector, &TensorInspector::compareFinished);
    QVERIFY(inspector.compareWithFile(path));
    QCOMPARE(inspector.currentTab(), TensorInspector::Tab::Compare);
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(inspector.comparison().firstMismatchIndex, (std::vector<int64_t> { 1, 1 }));
    QCOMPARE(inspector.comparison().maxAbsError, 96.0);
    QVERIFY2(inspector.comparePanel()->summaryText().contains("ours 4 vs ref.npy 100"),
        qPrintable(inspector.comparePanel()->summaryText()));
    QTRY_VERIFY(!inspector.comparePanel()->diffHeatmap()->rendering().image.isNull());

    // Looser tolerances re-run the comparison with the same reference.
    inspector.setTolerances(0, 100);
    QTRY_COMPARE(finished.count(), 2);
    QVERIFY(inspector.comparison().allClose());

    // Another tensor from the caller, of another shape: a clear message.
    inspector.compareWith(arange({ 6 }), "paddle");
    QTRY_COMPARE(finished.count(), 3);
    QVERIFY(!inspector.comparison().ok);
    QVERIFY2(inspector.comparePanel()->summaryText().contains("float32[6]"),
        qPrintable(inspector.comparePanel()->summaryText()));
    QString readError;
    QVERIFY(!inspector.compareWithFile(dir.filePath("missing.npy"), &readError));
    QVERIFY(!readError.isEmpty());
}

QTEST_MAIN(TestTensorCompare)
#include "tst_tensorcompare.moc"
