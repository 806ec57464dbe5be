// One source of kernel truth for the CPU and CUDA backends (issue 10): no helper is defined in
// both core/runtime/cpu and core/runtime/cuda (only the kernels written per backend on purpose,
// listed here), and the shared specs both backends read (core/runtime/kernels) give the shapes
// and errors the kernels rely on.

#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernels/hostdevice.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/matmulspec.h"
#include "core/runtime/kernels/reducespec.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/runtimeerror.h"

#include <QtTest>
#include <cmath>
#include <set>
#include <string>

namespace {

using Shape = std::vector<int64_t>;

/// The first capture of every match of `definition` in the files of `folder`.
std::set<QString> definedNames(
    const QString &folder, const QStringList &patterns, const QRegularExpression &definition)
{
    static const std::set<QString> keywords { "if", "for", "while", "switch", "return" };
    std::set<QString> names;
    const QDir dir(folder);
    for (const QString &file : dir.entryList(patterns, QDir::Files)) {
        QFile f(dir.filePath(file));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromUtf8(f.readAll());
        for (auto it = definition.globalMatch(text); it.hasNext();) {
            const QString name = it.next().captured(1);
            if (!keywords.count(name))
                names.insert(name);
        }
    }
    return names;
}

/// Names of the functions a source tree defines at the start of a line ("Type name(" or
/// "Type Class::name(").
std::set<QString> definedFunctions(const QString &folder, const QStringList &patterns)
{
    static const QRegularExpression definition(
        QStringLiteral("^[A-Za-z_][A-Za-z0-9_:<>, *&]* [*&]*([A-Za-z_][A-Za-z0-9_]*)\\("),
        QRegularExpression::MultilineOption);
    return definedNames(folder, patterns, definition);
}

/// Names of the enums, structs and classes a source tree defines ("enum class Name {",
/// "struct Name", "class Name" at the start of a line).
std::set<QString> definedTypes(const QString &folder, const QStringList &patterns)
{
    static const QRegularExpression definition(
        QStringLiteral("^(?:enum class|enum|struct|class) ([A-Za-z_][A-Za-z0-9_]*)\\s*(?:[:{]|$)"),
        QRegularExpression::MultilineOption);
    return definedNames(folder, patterns, definition);
}

struct FakeHalf
{
};
struct FakeBFloat
{
};

} // namespace

class TestKernelSharing : public QObject
{
    Q_OBJECT

private slots:
    void noHelperIsDefinedInBothBackends()
    {
        const QString runtime = QStringLiteral(PIRSCOPE_SOURCE_DIR "/core/runtime");
        if (!QDir(runtime + "/cuda").exists())
            QSKIP("no core/runtime/cuda in this checkout");
        // Written per backend on purpose (kernels/README.md): the CPU oracle computes grads in
        // double on host copies and convolutions, matmuls and softmax through loops and a BLAS;
        // the CUDA backend uses device reductions, warp lanes and cuBLAS. Their math and geometry
        // come from core/runtime/kernels.
        const std::set<QString> perBackend { "addLikeGrad", "binaryGrad", "bmmKernel", "col2im",
            "convForward", "convTransposeForward", "embeddingGrad", "extremumGrad", "forEachLane", "gemm",
            "im2col", "matmulGradImpl", "matmulKernel", "meanAllGrad", "prodGrad", "reduceKernel",
            "softmaxTensor", "storeAffineGrads", "sumMeanGrad", "sumToShape", "whereGrad" };
        const std::set<QString> cpu = definedFunctions(runtime + "/cpu", { "*.cpp", "*.h" });
        const std::set<QString> cuda
            = definedFunctions(runtime + "/cuda", { "*.cu", "*.cuh", "*.cpp", "*.h" });
        QVERIFY2(cpu.size() > 50 && cuda.size() > 50, "the definition scan found almost nothing");
        QStringList copied;
        for (const QString &name : cpu)
            if (cuda.count(name) && !perBackend.count(name))
                copied << name;
        QVERIFY2(copied.isEmpty(),
            qPrintable("defined in both runtime/cpu and runtime/cuda (move it to core/runtime/kernels): "
                + copied.join(", ")));
        QStringList stale;
        for (const QString &name : perBackend)
            if (!cpu.count(name) || !cuda.count(name))
                stale << name;
        QVERIFY2(stale.isEmpty(),
            qPrintable("listed as written per backend but not defined in both (shrink the list): "
                + stale.join(", ")));
    }

    void noTypeIsDefinedInBothBackends()
    {
        const QString runtime = QStringLiteral(PIRSCOPE_SOURCE_DIR "/core/runtime");
        if (!QDir(runtime + "/cuda").exists())
            QSKIP("no core/runtime/cuda in this checkout");
        const std::set<QString> cpu = definedTypes(runtime + "/cpu", { "*.cpp", "*.h" });
        const std::set<QString> cuda = definedTypes(runtime + "/cuda", { "*.cu", "*.cuh", "*.cpp", "*.h" });
        QVERIFY2(cpu.count("CpuExec") && cuda.count("CudaExec"), "the type scan found no execution policy");
        QStringList copied;
        for (const QString &name : cpu)
            if (cuda.count(name))
                copied << name;
        QVERIFY2(copied.isEmpty(),
            qPrintable("an enum or struct defined in both runtime/cpu and runtime/cuda (move it to "
                       "core/runtime/kernels): "
                + copied.join(", ")));
    }

    void matmulSpecPromotesVectorsAndBroadcastsBatches()
    {
        const ps::MatmulSpec v = ps::matmulSpec({ 4 }, { 4 }, true, true, "matmul");
        QCOMPARE(v.m, 1);
        QCOMPARE(v.n, 1);
        QCOMPARE(v.k, 4);
        QVERIFY(!v.tx && !v.ty); // a vector's transpose flag is dropped
        QCOMPARE(v.outShape, Shape {});

        const ps::MatmulSpec b = ps::matmulSpec({ 2, 1, 3, 5 }, { 4, 7, 5 }, false, true, "matmul");
        QCOMPARE(b.m, 3);
        QCOMPARE(b.n, 7);
        QCOMPARE(b.k, 5);
        QCOMPARE(b.outBatch, (Shape { 2, 4 }));
        QCOMPARE(b.xDims, (Shape { 2, 1 }));
        QCOMPARE(b.yDims, (Shape { 1, 4 }));
        QCOMPARE(b.outShape, (Shape { 2, 4, 3, 7 }));
        QCOMPARE(b.batches(), 8);
        // Output entry 5 is (1, 1): x's matrix 1 (its dim 1 broadcasts), y's matrix 1.
        QCOMPARE(ps::matmulBatchOffset(5, b.xDims, b.outBatch), 1);
        QCOMPARE(ps::matmulBatchOffset(5, b.yDims, b.outBatch), 1);
        QCOMPARE(ps::matmulUniformStride(b.xDims, b.outBatch, 15), -1);
        QCOMPARE(ps::matmulUniformStride({ 1, 1 }, b.outBatch, 15), 0);
        QCOMPARE(ps::matmulUniformStride({ 2, 4 }, b.outBatch, 15), 15);

        const ps::MatmulSpec vm = ps::matmulSpec({ 3, 2, 5 }, { 5 }, false, false, "matmul");
        QCOMPARE(vm.outShape, (Shape { 3, 2 }));
    }

    void matmulSpecNamesWhatDoesNotFit()
    {
        try {
            ps::matmulSpec({ 2, 3 }, { 4, 5 }, false, false, "matmul");
            QFAIL("mismatched contracted dims were accepted");
        } catch (const ps::RuntimeError &e) {
            QCOMPARE(QString(e.what()),
                QStringLiteral("matmul: x [2, 3] and y [4, 5] do not fit: contracted dims 3 and 4 differ"));
        }
        QVERIFY_THROWS_EXCEPTION(
            ps::RuntimeError, ps::matmulSpec({ 2, 3, 4 }, { 3, 4, 5 }, false, false, "bmm"));
        QVERIFY_THROWS_EXCEPTION(ps::RuntimeError, ps::matmulSpec({}, { 3 }, false, false, "matmul"));
    }

    void layoutGradShapes()
    {
        QCOMPARE(ps::inversePermutation({ 2, 0, 1 }, "transpose_grad"), (Shape { 1, 2, 0 }));
        QCOMPARE(ps::inversePermutation({ -1, 0 }, "transpose_grad"), (Shape { 1, 0 }));
        try {
            ps::inversePermutation({ 1, 1 }, "transpose_grad");
            QFAIL("a repeated perm entry was accepted");
        } catch (const ps::RuntimeError &e) {
            QCOMPARE(QString(e.what()), QStringLiteral("transpose_grad: perm [1, 1] repeats axis 1"));
        }
        const ps::TileGradShapes t = ps::tileGradShapes({ 3 }, { 2, 6 });
        QCOMPARE(t.split, (Shape { 2, 1, 2, 3 }));
        QCOMPARE(t.kept, (Shape { 1, 1, 1, 3 }));
        QCOMPARE(ps::tileGradShapes({ 0, 2 }, { 0, 4 }).split, (Shape { 1, 0, 2, 2 }));
        try {
            ps::tileGradShapes({ 4 }, { 6 });
            QFAIL("a non-tiling was accepted");
        } catch (const ps::RuntimeError &e) {
            QCOMPARE(QString(e.what()), QStringLiteral("tile_grad: out_grad [6] is not a tiling of x [4]"));
        }
        QVERIFY_THROWS_EXCEPTION(ps::RuntimeError, ps::tileGradShapes({ 2, 3 }, { 6 }));
    }

    void reduceShapeKeepsOrDropsTheReducedDims()
    {
        const ps::kernels::ReduceSpec kept
            = ps::kernels::reduceShape({ 2, 3, 4 }, { false, true, true }, true);
        QCOMPARE(kept.outShape, (Shape { 2, 1, 1 }));
        QCOMPARE(kept.reduceCount, 12);
        QCOMPARE(kept.outCount, 2);
        const ps::kernels::ReduceSpec dropped
            = ps::kernels::reduceShape({ 2, 0, 4 }, { true, false, true }, false);
        QCOMPARE(dropped.outShape, (Shape { 0 }));
        QCOMPARE(dropped.reduceCount, 8);
        QCOMPARE(dropped.outCount, 0);
    }

    void channelViewSplitsAroundTheChannels()
    {
        const ps::ChannelView first = ps::channelView({ 2, 3, 4, 5 }, false, "batch_norm");
        QCOMPARE(first.outer, 2);
        QCOMPARE(first.channels, 3);
        QCOMPARE(first.inner, 20);
        const ps::ChannelView last = ps::channelView({ 2, 4, 5, 3 }, true, "batch_norm");
        QCOMPARE(last.outer, 40);
        QCOMPARE(last.channels, 3);
        QCOMPARE(last.inner, 1);
        QCOMPARE(ps::channelView({ 2, 0 }, true, "batch_norm").outer, 0);
        try {
            ps::channelView({ 5 }, false, "batch_norm");
            QFAIL("a 1-D x was accepted");
        } catch (const ps::RuntimeError &e) {
            QCOMPARE(QString(e.what()), QStringLiteral("batch_norm: x must have at least 2 dims, got [5]"));
        }
        QVERIFY(ps::kernels::isChannelsLast("NHWC") && ps::kernels::isChannelsLast("NLC")
            && ps::kernels::isChannelsLast("NWC"));
        QVERIFY(!ps::kernels::isChannelsLast("NCHW") && !ps::kernels::isChannelsLast("AnyLayout"));
    }

    void axisSplitChecksTheAxis()
    {
        const ps::AxisSplit s = ps::kernels::splitAtAxisChecked({ 2, 3, 4 }, -2, "softmax");
        QCOMPARE(s.outer, 2);
        QCOMPARE(s.size, 3);
        QCOMPARE(s.inner, 4);
        const ps::AxisSplit scalar = ps::kernels::splitAtAxisChecked({}, -1, "softmax");
        QCOMPARE(scalar.outer * scalar.size * scalar.inner, 1);
        QVERIFY_THROWS_EXCEPTION(ps::RuntimeError, ps::kernels::splitAtAxisChecked({ 2, 3 }, 2, "softmax"));
    }

    void dtypeDispatchServesBothStorageKinds()
    {
        QString seen;
        ps::dispatchDtypeAs<ps::HalfTypes<FakeHalf, FakeBFloat>>(ps::DataType::Float16, "t",
            [&](auto tag) { seen = std::is_same_v<decltype(tag), FakeHalf> ? "device half" : "other"; });
        QCOMPARE(seen, QStringLiteral("device half"));
        ps::dispatchFloatingAs<ps::HalfTypes<FakeHalf, FakeBFloat>>(ps::DataType::BFloat16, "t",
            [&](auto tag) { seen = std::is_same_v<decltype(tag), FakeBFloat> ? "device bfloat" : "other"; });
        QCOMPARE(seen, QStringLiteral("device bfloat"));
        ps::dispatchDtype(ps::DataType::Float16, "t",
            [&](auto tag) { seen = std::is_same_v<decltype(tag), ps::Float16> ? "host half" : "other"; });
        QCOMPARE(seen, QStringLiteral("host half"));
        ps::dispatchIndex(ps::DataType::Int32, "ids",
            [&](auto tag) { seen = std::is_same_v<decltype(tag), int32_t> ? "int32" : "other"; });
        QCOMPARE(seen, QStringLiteral("int32"));
        try {
            ps::dispatchIndex(ps::DataType::Float32, "embedding: ids", [](auto) {});
            QFAIL("float32 ids were accepted");
        } catch (const ps::RuntimeError &e) {
            QCOMPARE(QString(e.what()), QStringLiteral("embedding: ids must be int32 or int64, got float32"));
        }
    }

    void tolerableClampsLikePaddle()
    {
        QCOMPARE(ps::km::tolerable(INFINITY), 1e20);
        QCOMPARE(ps::km::tolerable(-INFINITY), -1e20);
        QCOMPARE(ps::km::tolerable(2.5), 2.5);
        QVERIFY(std::isnan(ps::km::tolerable(NAN)));
    }
};

QTEST_GUILESS_MAIN(TestKernelSharing)
#include "tst_kernelsharing.moc"
