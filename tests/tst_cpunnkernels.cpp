#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/cpu/cpugemm.h"
#include "core/runtime/cpu/cpuim2col.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"
#include "kernelcase.h"

#include <QtTest>
#include <random>

#ifdef PIRSCOPE_HAVE_CBLAS
#    include <cblas.h>
#endif

namespace {

std::vector<double> randomValues(size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<double> v(n);
    for (double &x : v)
        x = dist(rng);
    return v;
}

ps::Tensor randomTensor(std::vector<int64_t> shape, unsigned seed, ps::DataType dtype = ps::DataType::Float32)
{
    const std::vector<double> v = randomValues(size_t(ps::numElementsOf(shape)), seed);
    return ps::Tensor::fromDoubles(std::move(shape), dtype, v);
}

// The last op of a generation-C PIR text program whose pd_op.data ops are fed, in order, by
// the tensors given to run(): parsed once, run any number of times.
class OpRunner
{
public:
    explicit OpRunner(const std::string &programText)
        : m_loaded(ps::PirTextReader::readString(programText, "direct.txt"))
    {
        if (!m_loaded.ok())
            throw std::runtime_error("program does not load");
        for (const ps::Operation *op : m_loaded.program->block().ops()) {
            if (op->name() == "pd_op.data")
                m_data.push_back(op);
            else
                m_op = op;
        }
    }

    std::vector<ps::RuntimeValue> run(ps::Backend &backend, const std::vector<ps::Tensor> &inputs) const
    {
        std::unordered_map<ps::ValueImpl *, ps::RuntimeValue> values;
        for (size_t i = 0; i < m_data.size(); ++i)
            values[m_data[i]->result(0).impl()] = inputs.at(i);
        std::vector<const ps::RuntimeValue *> in;
        for (unsigned i = 0; i < m_op->numOperands(); ++i)
            in.push_back(m_op->operand(i) ? &values.at(m_op->operand(i).impl()) : nullptr);
        ps::KernelContext ctx(*m_op, std::move(in), backend);
        ps::KernelFn kernel = backend.kernels().find(m_op->name());
        if (!kernel)
            throw std::runtime_error("no kernel");
        kernel(ctx);
        return ctx.takeOutputs();
    }

private:
    ps::LoadResult m_loaded;
    std::vector<const ps::Operation *> m_data;
    const ps::Operation *m_op = nullptr;
};

std::vector<ps::RuntimeValue> runOp(
    ps::Backend &backend, const std::string &programText, const std::vector<ps::Tensor> &inputs)
{
    return OpRunner(programText).run(backend, inputs);
}

std::string dataOp(int id, const std::string &type, const std::string &dtype, const std::string &shape)
{
    return "    (%" + std::to_string(id) + ") = \"pd_op.data\" () {dtype:" + dtype + ",name:\"in"
        + std::to_string(id) + "\",place:Place(cpu),shape:" + shape + ",stop_gradient:[true]} : () -> " + type
        + "\n";
}

} // namespace

/// The CPU nn kernels (matmul, conv, pool, norms, softmax family, interpolation, reductions):
/// every fixture case under tests/fixtures/kernels/nn plus direct checks of errors, inplace
/// running statistics, dropout masks and the GEMM/im2col helpers.
class TestCpuNnKernels : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_backend = ps::createCpuBackend();
        QVERIFY(m_backend);
    }

    void fixtureCases_data()
    {
        QTest::addColumn<QString>("dir");
        const QStringList names = kernelcase::cases("nn");
        QVERIFY2(names.size() >= 100, "tests/fixtures/kernels/nn holds too few cases; run make_nn_cases.py");
        for (const QString &name : names)
            QTest::newRow(name.toUtf8().constData()) << kernelcase::root() + "/nn/" + name;
    }

    void fixtureCases()
    {
        QFETCH(QString, dir);
        const kernelcase::Outcome outcome = kernelcase::run(dir, *m_backend);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(outcome.compared > 0);
    }

    void registersEveryOp()
    {
        for (const char *op : { "pd_op.matmul", "pd_op.bmm", "pd_op.conv2d", "pd_op.depthwise_conv2d",
                 "pd_op.conv2d_transpose", "pd_op.conv3d", "pd_op.pool2d", "pd_op.batch_norm",
                 "pd_op.batch_norm_", "pd_op.layer_norm", "pd_op.group_norm", "pd_op.instance_norm",
                 "pd_op.softmax", "pd_op.log_softmax", "pd_op.dropout", "pd_op.nearest_interp",
                 "pd_op.bilinear_interp", "pd_op.grid_sample", "pd_op.topk", "pd_op.argmax", "pd_op.argmin",
                 "pd_op.cross_entropy_with_softmax", "pd_op.mean", "pd_op.sum", "pd_op.max", "pd_op.min",
                 "pd_op.prod", "pd_op.all", "pd_op.any", "pd_op.p_norm", "pd_op.cumsum" })
            QVERIFY2(m_backend->kernels().has(op), op);
    }

    void convChannelMismatchNamesBothShapes()
    {
        const std::string text = "{\n" + dataOp(0, "tensor<1x3x8x8xf32>", "float32", "[1,3,8,8]")
            + dataOp(1, "tensor<4x2x3x3xf32>", "float32", "[4,2,3,3]")
            + "    (%2) = \"pd_op.conv2d\" (%0, %1) {data_format:\"NCHW\",dilations:[1,1],groups:1,"
              "padding_algorithm:\"EXPLICIT\",paddings:[1,1],strides:[1,1]} : (tensor<1x3x8x8xf32>, "
              "tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32>\n}\n";
        try {
            runOp(*m_backend, text,
                { ps::Tensor::zeros({ 1, 3, 8, 8 }, ps::DataType::Float32),
                    ps::Tensor::zeros({ 4, 2, 3, 3 }, ps::DataType::Float32) });
            QFAIL("conv2d with 3 input channels and a 2-channel filter did not throw");
        } catch (const ps::RuntimeError &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(
                message.contains("[1, 3, 8, 8]") && message.contains("[4, 2, 3, 3]"), qPrintable(message));
        }
    }

    void conv3dBadPaddingsAndChannelsAreNamed()
    {
        const auto program = [](const char *paddings) {
            return "{\n" + dataOp(0, "tensor<1x3x4x4x4xf32>", "float32", "[1,3,4,4,4]")
                + dataOp(1, "tensor<2x3x3x3x3xf32>", "float32", "[2,3,3,3,3]")
                + "    (%2) = \"pd_op.conv3d\" (%0, %1) {data_format:\"NCDHW\",dilations:[1,1,1],groups:1,"
                  "padding_algorithm:\"EXPLICIT\",paddings:"
                + paddings
                + ",strides:[1,1,1]} : (tensor<1x3x4x4x4xf32>, tensor<2x3x3x3x3xf32>) -> "
                  "tensor<1x2x4x4x4xf32>\n}\n";
        };
        const auto errorOf = [&](const char *paddings, std::vector<int64_t> filter) {
            try {
                runOp(*m_backend, program(paddings),
                    { ps::Tensor::zeros({ 1, 3, 4, 4, 4 }, ps::DataType::Float32),
                        ps::Tensor::zeros(std::move(filter), ps::DataType::Float32) });
            } catch (const ps::RuntimeError &e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QString message = errorOf("[1,1]", { 2, 3, 3, 3, 3 });
        QVERIFY2(message.contains("conv3d") && message.contains("3 or 6 values"), qPrintable(message));
        message = errorOf("[1,1,1]", { 2, 2, 3, 3, 3 });
        QVERIFY2(
            message.contains("[1, 3, 4, 4, 4]") && message.contains("[2, 2, 3, 3, 3]"), qPrintable(message));
    }

    void matmulMismatchNamesBothShapes()
    {
        const std::string text = "{\n" + dataOp(0, "tensor<2x3xf32>", "float32", "[2,3]")
            + dataOp(1, "tensor<4x5xf32>", "float32", "[4,5]")
            + "    (%2) = \"pd_op.matmul\" (%0, %1) {transpose_x:false,transpose_y:false} : "
              "(tensor<2x3xf32>, "
              "tensor<4x5xf32>) -> tensor<2x5xf32>\n}\n";
        try {
            runOp(*m_backend, text,
                { ps::Tensor::zeros({ 2, 3 }, ps::DataType::Float32),
                    ps::Tensor::zeros({ 4, 5 }, ps::DataType::Float32) });
            QFAIL("matmul [2,3] x [4,5] did not throw");
        } catch (const ps::RuntimeError &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains("[2, 3]") && message.contains("[4, 5]"), qPrintable(message));
        }
    }

    void batchNormTrainingUpdatesRunningStatsInPlace()
    {
        const std::string vec = "tensor<2xf32>";
        const std::string text = "{\n" + dataOp(0, "tensor<4x2xf32>", "float32", "[4,2]")
            + dataOp(1, vec, "float32", "[2]") + dataOp(2, vec, "float32", "[2]")
            + dataOp(3, vec, "float32", "[2]") + dataOp(4, vec, "float32", "[2]")
            + "    (%5, %6, %7, %8, %9, %10) = \"pd_op.batch_norm_\" (%0, %1, %2, %3, %4) "
              "{data_format:\"NCHW\","
              "epsilon:1e-05,is_test:false,momentum:0.9,trainable_statistics:false,use_global_stats:false} : "
              "(tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> "
              "tensor<4x2xf32>, "
              "tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<-1xu8>\n}\n";
        const std::vector<double> xs { 1, 10, 2, 20, 3, 30, 4, 40 };
        const std::vector<double> zeros { 0, 0 }, ones { 1, 1 };
        ps::Tensor mean = ps::Tensor::fromDoubles({ 2 }, ps::DataType::Float32, zeros);
        ps::Tensor var = ps::Tensor::fromDoubles({ 2 }, ps::DataType::Float32, ones);
        const auto outs = runOp(*m_backend, text,
            { ps::Tensor::fromDoubles({ 4, 2 }, ps::DataType::Float32, xs), mean, var,
                ps::Tensor::fromDoubles({ 2 }, ps::DataType::Float32, ones),
                ps::Tensor::fromDoubles({ 2 }, ps::DataType::Float32, zeros) });
        // Batch means 2.5 / 25, biased variances 1.25 / 125: running = m * old + (1 - m) * batch with
        // the float32 momentum attribute.
        const double m = double(0.9f);
        const double want[4] = { (1 - m) * 2.5, (1 - m) * 25, m + (1 - m) * 1.25, m + (1 - m) * 125 };
        const double got[4]
            = { mean.valueAsDouble(0), mean.valueAsDouble(1), var.valueAsDouble(0), var.valueAsDouble(1) };
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::abs(got[i] - want[i]) <= 1e-6 * std::abs(want[i]),
                qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(got[i]).arg(want[i])));
        QVERIFY(outs[1].tensor().storage() == mean.storage());
        QVERIFY(outs[2].tensor().storage() == var.storage());
        QCOMPARE(outs[5].tensor().dtype(), ps::DataType::UInt8);
    }

    void dropoutTrainingMaskIsSeededAndScaled()
    {
        const std::string text = "{\n" + dataOp(0, "tensor<1000xf32>", "float32", "[1000]")
            + "    (%1, %2) = \"pd_op.dropout\" (%0, <<NULL VALUE>>) {fix_seed:true,is_test:false,"
              "mode:\"upscale_in_train\",p:0.25,seed:7} : (tensor<1000xf32>, <<NULL TYPE>>) -> "
              "tensor<1000xf32>, "
              "tensor<1000xu8>\n}\n";
        const ps::Tensor x = randomTensor({ 1000 }, 3);
        const auto first = runOp(*m_backend, text, { x });
        const auto second = runOp(*m_backend, text, { x });
        int kept = 0;
        for (int64_t i = 0; i < 1000; ++i) {
            const double m = first[1].tensor().valueAsDouble(i);
            QCOMPARE(second[1].tensor().valueAsDouble(i), m);
            kept += m != 0;
            const double want = m != 0 ? double(float(x.valueAsDouble(i) / 0.75)) : 0.0;
            QVERIFY(std::abs(first[0].tensor().valueAsDouble(i) - want) <= 1e-6 * (1 + std::abs(want)));
        }
        QVERIFY2(kept > 700 && kept < 800, qPrintable(QString::number(kept)));
    }

    // dropout_ (Paddle's inplace_pass makes it of an inference dropout): dropout's result, in
    // x's storage.
    void dropoutInplaceWritesIntoX()
    {
        const std::string text = "{\n" + dataOp(0, "tensor<64xf32>", "float32", "[64]")
            + "    (%1, %2) = \"pd_op.dropout_\" (%0, <<NULL VALUE>>) {fix_seed:false,is_test:true,"
              "mode:\"downgrade_in_infer\",p:0.25,seed:0} : (tensor<64xf32>, <<NULL TYPE>>) -> "
              "tensor<64xf32>, tensor<64xu8>\n}\n";
        const ps::Tensor x = randomTensor({ 64 }, 5);
        const ps::Tensor original = x.cloneHost();
        const auto out = runOp(*m_backend, text, { x });
        QVERIFY(out[0].tensor().storage() == x.storage());
        for (int64_t i = 0; i < 64; ++i)
            QVERIFY(std::abs(out[0].tensor().valueAsDouble(i) - original.valueAsDouble(i) * 0.75)
                <= 1e-6 * (1 + std::abs(original.valueAsDouble(i))));
    }

    void gemmMatchesNaiveLoops_data()
    {
        QTest::addColumn<bool>("transA");
        QTest::addColumn<bool>("transB");
        QTest::newRow("nn") << false << false;
        QTest::newRow("tn") << true << false;
        QTest::newRow("nt") << false << true;
        QTest::newRow("tt") << true << true;
    }

    void gemmMatchesNaiveLoops()
    {
        QFETCH(bool, transA);
        QFETCH(bool, transB);
        const int64_t m = 7, n = 5, k = 9, lda = (transA ? m : k) + 2, ldb = (transB ? k : n) + 1,
                      ldc = n + 3;
        const std::vector<double> a = randomValues(size_t((transA ? k : m) * lda), 1);
        const std::vector<double> b = randomValues(size_t((transB ? n : k) * ldb), 2);
        std::vector<double> c = randomValues(size_t(m * ldc), 3);
        const std::vector<double> c0 = c;
        ps::gemm(transA, transB, m, n, k, 0.5, a.data(), lda, b.data(), ldb, 2.0, c.data(), ldc);
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                double want = 2.0 * c0[size_t(i * ldc + j)];
                for (int64_t p = 0; p < k; ++p)
                    want += 0.5 * (transA ? a[size_t(p * lda + i)] : a[size_t(i * lda + p)])
                        * (transB ? b[size_t(j * ldb + p)] : b[size_t(p * ldb + j)]);
                QVERIFY(std::abs(c[size_t(i * ldc + j)] - want) < 1e-12);
            }
        QCOMPARE(c[size_t(ldc - 1)], c0[size_t(ldc - 1)]); // padding columns untouched
    }

    void col2imIsTheAdjointOfIm2col()
    {
        ps::Im2colGeometry g;
        g.channels = 2;
        g.height = 7;
        g.width = 6;
        g.kernelH = 3;
        g.kernelW = 2;
        g.strideH = 2;
        g.strideW = 1;
        g.padTop = 1;
        g.padLeft = 2;
        g.dilationH = 2;
        g.dilationW = 1;
        g.outH = (7 + 1 + 1 - (2 * 2 + 1)) / 2 + 1;
        g.outW = (6 + 2 + 0 - 2) / 1 + 1;
        const std::vector<double> image = randomValues(size_t(2 * 7 * 6), 4);
        const std::vector<double> cols = randomValues(size_t(g.columnRows() * g.columnCols()), 5);
        std::vector<double> colsOut(cols.size());
        ps::im2col(image.data(), g, colsOut.data());
        std::vector<double> imageOut(image.size(), 0.0);
        ps::col2im(cols.data(), g, imageOut.data());
        double lhs = 0, rhs = 0;
        for (size_t i = 0; i < cols.size(); ++i)
            lhs += colsOut[i] * cols[i];
        for (size_t i = 0; i < image.size(); ++i)
            rhs += image[i] * imageOut[i];
        QVERIFY2(std::abs(lhs - rhs) < 1e-10, qPrintable(QStringLiteral("%1 vs %2").arg(lhs).arg(rhs)));
    }

    // sgemm 512^3 through the matmul kernel vs a direct cblas_sgemm (timing only, no assertion on it).
    void benchmarkMatmul512_data()
    {
        QTest::addColumn<bool>("direct");
        QTest::newRow("kernel") << false;
#ifdef PIRSCOPE_HAVE_CBLAS
        QTest::newRow("cblas") << true;
#endif
    }

    void benchmarkMatmul512()
    {
        QFETCH(bool, direct);
        const std::string type = "tensor<512x512xf32>";
        const std::string text = "{\n" + dataOp(0, type, "float32", "[512,512]")
            + dataOp(1, type, "float32", "[512,512]")
            + "    (%2) = \"pd_op.matmul\" (%0, %1) {transpose_x:false,transpose_y:false} : (" + type + ", "
            + type + ") -> " + type + "\n}\n";
        const ps::Tensor a = randomTensor({ 512, 512 }, 6), b = randomTensor({ 512, 512 }, 7);
        ps::Tensor c = ps::Tensor::empty({ 512, 512 }, ps::DataType::Float32);
        const OpRunner runner(text);
        ps::RuntimeValue result;
        QBENCHMARK
        {
            if (direct) {
#ifdef PIRSCOPE_HAVE_CBLAS
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 512, 512, 512, 1.0f, a.data<float>(),
                    512, b.data<float>(), 512, 0.0f, c.data<float>(), 512);
#endif
            } else {
                result = runner.run(*m_backend, { a, b })[0];
            }
        }
        if (!direct)
            QCOMPARE(result.tensor().shape(), (std::vector<int64_t> { 512, 512 }));
    }

private:
    std::unique_ptr<ps::Backend> m_backend;
};

QTEST_GUILESS_MAIN(TestCpuNnKernels)
#include "tst_cpunnkernels.moc"
