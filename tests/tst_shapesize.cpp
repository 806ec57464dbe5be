#include "core/ir/shapesize.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <QtTest>

using namespace ps;

/// Issue 9: overflow-checked sizes (ShapeSize), the one place that multiplies dims, and Tensor
/// going through it: a shape like [2^62, 4] is an error, never a wrapped 0-byte buffer.
class TestShapeSize : public QObject
{
    Q_OBJECT

private slots:
    void shapeSizes()
    {
        QCOMPARE(ShapeSize::elements({}).value(), 1);
        const std::vector<int64_t> shape { 2, 3, 4 };
        QCOMPARE(ShapeSize::elements(shape).value(), 24);
        QCOMPARE(ShapeSize::bytes(shape, DataType::Float32).value(), uint64_t(96));
        const std::vector<int64_t> dynamic { -1, 3 };
        QCOMPARE(ShapeSize::product(dynamic).value(), -3);
        QVERIFY(!ShapeSize::elements(dynamic));
        const std::vector<int64_t> huge { int64_t(1) << 62, 4 };
        QVERIFY(!ShapeSize::product(huge));
        QVERIFY(!ShapeSize::bytes(huge, DataType::Float32));
        const std::vector<int64_t> bytesOverflow { int64_t(1) << 61, 1 };
        QVERIFY(ShapeSize::elements(bytesOverflow));
        QVERIFY(!ShapeSize::bytes(bytesOverflow, DataType::Float32));
        QCOMPARE(QString::fromStdString(ShapeSize::whyInvalid(huge, DataType::Float32)),
            QStringLiteral("[4611686018427387904, 4] has more than 2^63 elements"));
        QCOMPARE(QString::fromStdString(ShapeSize::formatBytes(143)), QStringLiteral("143 bytes"));
        QCOMPARE(QString::fromStdString(ShapeSize::formatBytes(4'400'000'000)), QStringLiteral("4.4 GB"));
        const std::vector<int64_t> deep(1000, 1);
        QVERIFY(ShapeSize::shapeText(deep).size() < 100);
    }

    void tensorRefusesOverflow()
    {
        QVERIFY_THROWS_EXCEPTION(RuntimeError, Tensor::empty({ int64_t(1) << 62, 4 }, DataType::Float32));
        QVERIFY_THROWS_EXCEPTION(RuntimeError, Tensor::empty({ -3 }, DataType::Float32));
        QVERIFY_THROWS_EXCEPTION(RuntimeError, numElementsOf({ int64_t(1) << 62, 4 }));
        const Tensor t = Tensor::empty({ 4 }, DataType::Float32);
        QVERIFY_THROWS_EXCEPTION(RuntimeError, t.reshaped({ int64_t(1) << 62, 4, -1 }));
        QVERIFY_THROWS_EXCEPTION(
            RuntimeError, Tensor(t.storage(), { int64_t(1) << 61, 2 }, DataType::Float32));
    }
};

QTEST_GUILESS_MAIN(TestShapeSize)
#include "tst_shapesize.moc"
