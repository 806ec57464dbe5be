// The oneDNN CPU kernels against the oracle, the plain kernels (device cpu-plain): every kernel
// fixture case whose op has a oneDNN kernel runs on both backends (each against the fixture's
// expected arrays, then against each other); then cases the fixtures are too small for (blocked
// layouts take 8+ channels), the cases each kernel hands to the plain one, and the caches.
// Built without oneDNN the whole test skips with a message.

#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/cpu/cpubackend.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/tensor.h"
#include "kernelcase.h"
#include "onednnkernelcase.h"

#ifdef PIRSCOPE_HAVE_DNNL
#    include "core/runtime/onednn/onednnengine.h"
#endif

#include <QtTest>
#include <memory>
#include <string>
#include <vector>

using namespace ps;

using namespace onednncase;

Q_DECLARE_METATYPE(std::vector<Input>)

class TestOneDnnKernels : public QObject
{
    Q_OBJECT

    std::unique_ptr<Backend> m_onednn = createCpuBackend();
    std::unique_ptr<Backend> m_plain = createCpuPlainBackend();

    bool hasOneDnnKernel(const std::string &op) const
    {
        const KernelFn fast = m_onednn->kernels().find(op);
        return fast && fast != m_plain->kernels().find(op);
    }

private slots:
    void initTestCase()
    {
        if (!CpuBackend::hasOneDnn())
            QSKIP("built without oneDNN (libdnnl-dev not found): the CPU device runs the plain kernels, "
                  "there is nothing to compare");
        QVERIFY(m_onednn->name() != m_plain->name());
        QCOMPARE(m_plain->device(), Device::cpuPlain());
    }

    void fixtureCasesAgree_data()
    {
        QTest::addColumn<QString>("dir");
        int cases = 0;
        for (const QString family : { QStringLiteral("nn"), QStringLiteral("elementwise") }) {
            for (const QString &name : kernelcase::cases(family)) {
                const QString dir = kernelcase::root() + "/" + family + "/" + name;
                QFile f(dir + "/case.json");
                if (!f.open(QIODevice::ReadOnly))
                    continue;
                const std::string op
                    = QJsonDocument::fromJson(f.readAll()).object().value("op").toString().toStdString();
                if (!hasOneDnnKernel(op))
                    continue;
                QTest::newRow(qPrintable(family + "/" + name)) << dir;
                ++cases;
            }
        }
        // Every kernel family has fixture cases: a registry change that hides them fails here.
        QVERIFY2(cases >= 60,
            qPrintable(QStringLiteral("only %1 fixture cases reach a oneDNN kernel").arg(cases)));
    }

    void fixtureCasesAgree()
    {
        QFETCH(QString, dir);
        const kernelcase::Outcome fast = kernelcase::run(dir, *m_onednn);
        QVERIFY2(fast.error.isEmpty(), qPrintable("oneDNN: " + fast.error));
        const kernelcase::Outcome plain = kernelcase::run(dir, *m_plain);
        QVERIFY2(plain.error.isEmpty(), qPrintable("plain: " + plain.error));
        QCOMPARE(fast.results.size(), plain.results.size());
        for (size_t i = 0; i < fast.results.size(); ++i) {
            const QString mismatch
                = kernelcase::compareTensors(fast.results[i], plain.results[i], 1e-4, 1e-5);
            QVERIFY2(mismatch.isEmpty(), qPrintable(QStringLiteral("result %1: %2").arg(i).arg(mismatch)));
        }
    }

    void agreesWithOracle_data()
    {
        QTest::addColumn<std::vector<Input>>("inputs");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("attrs");
        QTest::addColumn<int>("results");
        QTest::addColumn<bool>("onednn"); // the oneDNN path runs (else the kernel hands it over)

        const QString conv
            = QStringLiteral("data_format:\"%1\",dilations:[%2,%2],groups:%3,padding_algorithm:\"EXPLICIT\","
                             "paddings:[%4,%4],strides:[%5,%5]");
        const auto convAttrs = [&](const char *format, int dilation, int groups, int pad, int stride) {
            return conv.arg(QLatin1String(format)).arg(dilation).arg(groups).arg(pad).arg(stride);
        };
        using V = std::vector<Input>;
        QTest::newRow("conv2d 3x3 32->32 (nChw16c)")
            << V { { { 1, 32, 17, 19 } }, { { 32, 32, 3, 3 } } } << "pd_op.conv2d"
            << convAttrs("NCHW", 1, 1, 1, 1) << 1 << true;
        QTest::newRow("conv2d 3x3 24->48 stride 2 (nChw8c)")
            << V { { { 2, 24, 15, 15 } }, { { 48, 24, 3, 3 } } } << "pd_op.conv2d"
            << convAttrs("NCHW", 1, 1, 1, 2) << 1 << true;
        QTest::newRow("conv2d 1x1 64->96 (NCHW GEMM)")
            << V { { { 1, 64, 12, 10 } }, { { 96, 64, 1, 1 } } } << "pd_op.conv2d"
            << convAttrs("NCHW", 1, 1, 0, 1) << 1 << true;
        QTest::newRow("conv2d first layer 3->16 stride 2")
            << V { { { 1, 3, 33, 33 } }, { { 16, 3, 3, 3 } } } << "pd_op.conv2d"
            << convAttrs("NCHW", 1, 1, 1, 2) << 1 << true;
        QTest::newRow("conv2d dilation 2") << V { { { 1, 16, 20, 20 } }, { { 16, 16, 3, 3 } } }
                                           << "pd_op.conv2d" << convAttrs("NCHW", 2, 1, 2, 1) << 1 << true;
        QTest::newRow("conv2d grouped 4") << V { { { 1, 32, 9, 9 } }, { { 64, 8, 3, 3 } } } << "pd_op.conv2d"
                                          << convAttrs("NCHW", 1, 4, 1, 1) << 1 << true;
        QTest::newRow("conv2d NHWC") << V { { { 1, 9, 11, 32 } }, { { 16, 32, 3, 3 } } } << "pd_op.conv2d"
                                     << convAttrs("NHWC", 1, 1, 1, 1) << 1 << true;
        QTest::newRow("depthwise_conv2d 3x3")
            << V { { { 1, 32, 21, 21 } }, { { 32, 1, 3, 3 } } } << "pd_op.depthwise_conv2d"
            << convAttrs("NCHW", 1, 32, 1, 1) << 1 << true;
        QTest::newRow("depthwise_conv2d 5x5 stride 2, 40 channels")
            << V { { { 1, 40, 22, 22 } }, { { 40, 1, 5, 5 } } } << "pd_op.depthwise_conv2d"
            << convAttrs("NCHW", 1, 40, 2, 2) << 1 << true;
        const QString deconv
            = QStringLiteral("data_format:\"NCHW\",dilations:[1,1],groups:%1,output_padding:[%2,%2],"
                             "padding_algorithm:\"EXPLICIT\",paddings:[%3,%3],strides:[%4,%4]");
        QTest::newRow("conv2d_transpose k2 s2 24->24")
            << V { { { 1, 24, 10, 12 } }, { { 24, 24, 2, 2 } } } << "pd_op.conv2d_transpose"
            << deconv.arg(1).arg(0).arg(0).arg(2) << 1 << true;
        QTest::newRow("conv2d_transpose k2 s2 24->1")
            << V { { { 1, 24, 16, 16 } }, { { 24, 1, 2, 2 } } } << "pd_op.conv2d_transpose"
            << deconv.arg(1).arg(0).arg(0).arg(2) << 1 << true;
        QTest::newRow("conv2d_transpose k3 s2 p1 output_padding 1, groups 2")
            << V { { { 1, 32, 7, 9 } }, { { 32, 8, 3, 3 } } } << "pd_op.conv2d_transpose"
            << deconv.arg(2).arg(1).arg(1).arg(2) << 1 << true;

        const QString fused
            = QStringLiteral("activation:\"%1\",data_format:\"%2\",dilations:[1,1],fuse_alpha:%3,groups:%4,"
                             "padding_algorithm:\"EXPLICIT\",paddings:[%5,%5],strides:[1,1]");
        QTest::newRow("fused_conv2d_add_act bias + residual + relu")
            << V { { { 1, 32, 10, 10 } }, { { 32, 32, 3, 3 } }, { { 1, 32, 1, 1 } }, { { 1, 32, 10, 10 } } }
            << "pd_op.fused_conv2d_add_act" << fused.arg("relu", "NCHW", "0.0").arg(1).arg(1) << 2 << true;
        QTest::newRow("fused_conv2d_add_act bias, identity, 1x1")
            << V { { { 1, 24, 9, 9 } }, { { 40, 24, 1, 1 } }, { { 40, 1, 1 } } }
            << "pd_op.fused_conv2d_add_act" << fused.arg("identity", "NCHW", "0.0").arg(1).arg(0) << 2
            << true;
        QTest::newRow("fused_conv2d_add_act leaky_relu, depthwise")
            << V { { { 1, 16, 12, 12 } }, { { 16, 1, 3, 3 } }, { { 1, 16, 1, 1 } }, { { 1, 16, 12, 12 } } }
            << "pd_op.fused_conv2d_add_act" << fused.arg("leaky_relu", "NCHW", "0.1").arg(16).arg(1) << 2
            << true;
        QTest::newRow("fused_conv2d_add_act swish")
            << V { { { 2, 16, 7, 7 } }, { { 32, 16, 3, 3 } }, { { 1, 32, 1, 1 } }, { { 2, 32, 7, 7 } } }
            << "pd_op.fused_conv2d_add_act" << fused.arg("swish", "NCHW", "0.0").arg(1).arg(1) << 2 << true;
        // NHWC (its filter is [out, kh, kw, in]) and a bias that is not per channel: the plain kernel,
        // which composes the op from the backend's transpose, conv2d, add and relu.
        QTest::newRow("fused_conv2d_add_act NHWC (composed)")
            << V { { { 1, 8, 8, 16 } }, { { 16, 3, 3, 16 } }, { { 16 } }, { { 1, 8, 8, 16 } } }
            << "pd_op.fused_conv2d_add_act" << fused.arg("relu", "NHWC", "0.0").arg(1).arg(1) << 2 << true;
        QTest::newRow("fused_conv2d_add_act bias [1, 1, 1, 12] (composed)")
            << V { { { 1, 16, 12, 12 } }, { { 16, 16, 3, 3 } }, { { 1, 1, 1, 12 } } }
            << "pd_op.fused_conv2d_add_act" << fused.arg("relu", "NCHW", "0.0").arg(1).arg(1) << 2 << true;

        const QString matmul = QStringLiteral("transpose_x:%1,transpose_y:%2");
        QTest::newRow("matmul linear [2,3,64,32] x [32,48]")
            << V { { { 2, 3, 64, 32 } }, { { 32, 48 } } } << "pd_op.matmul" << matmul.arg("false", "false")
            << 1 << true;
        QTest::newRow("matmul transpose_y") << V { { { 5, 17, 32 } }, { { 5, 24, 32 } } } << "pd_op.matmul"
                                            << matmul.arg("false", "true") << 1 << true;
        QTest::newRow("matmul transpose_x, batch broadcast")
            << V { { { 4, 1, 16, 8 } }, { { 3, 16, 5 } } } << "pd_op.matmul" << matmul.arg("true", "false")
            << 1 << true;
        QTest::newRow("matmul vector x matrix")
            << V { { { 16 } }, { { 16, 7 } } } << "pd_op.matmul" << matmul.arg("false", "false") << 1 << true;

        const QString pool = QStringLiteral(
            "adaptive:%1,ceil_mode:%2,data_format:\"NCHW\",exclusive:%3,global_pooling:false,"
            "padding_algorithm:\"EXPLICIT\",paddings:[%4,%4],pooling_type:\"%5\",strides:[%6,%6]");
        QTest::newRow("pool2d max 3x3 s2 p1")
            << V { { { 1, 32, 15, 15 } }, { { 2 }, { 3, 3 } } } << "pd_op.pool2d"
            << pool.arg("false", "false", "true").arg(1).arg("max").arg(2) << 1 << true;
        QTest::newRow("pool2d max ceil_mode")
            << V { { { 1, 16, 10, 10 } }, { { 2 }, { 3, 3 } } } << "pd_op.pool2d"
            << pool.arg("false", "true", "true").arg(0).arg("max").arg(2) << 1 << true;
        QTest::newRow("pool2d avg exclusive p1")
            << V { { { 2, 16, 9, 9 } }, { { 2 }, { 3, 3 } } } << "pd_op.pool2d"
            << pool.arg("false", "false", "true").arg(1).arg("avg").arg(2) << 1 << true;
        QTest::newRow("pool2d avg inclusive p1")
            << V { { { 1, 16, 9, 9 } }, { { 2 }, { 3, 3 } } } << "pd_op.pool2d"
            << pool.arg("false", "false", "false").arg(1).arg("avg").arg(2) << 1 << true;
        QTest::newRow("pool2d adaptive avg 1x1")
            << V { { { 1, 64, 7, 7 } }, { { 2 }, { 1, 1 } } } << "pd_op.pool2d"
            << pool.arg("true", "false", "true").arg(0).arg("avg").arg(1) << 1 << true;
        QTest::newRow("pool2d adaptive avg 2x2 of 6x6")
            << V { { { 1, 16, 6, 6 } }, { { 2 }, { 2, 2 } } } << "pd_op.pool2d"
            << pool.arg("true", "false", "true").arg(0).arg("avg").arg(1) << 1 << true;
        QTest::newRow("pool2d global max of 48x48")
            << V { { { 1, 16, 48, 48 } }, { { 2 }, { 1, 1 } } } << "pd_op.pool2d"
            << pool.arg("true", "false", "true").arg(0).arg("max").arg(1) << 1 << true;
        // Windows oneDNN counts or sums differently: the plain kernel.
        QTest::newRow("pool2d global avg of 48x48 (plain: float sums)")
            << V { { { 1, 16, 48, 48 } }, { { 2 }, { 1, 1 } } } << "pd_op.pool2d"
            << pool.arg("true", "false", "true").arg(0).arg("avg").arg(1) << 1 << false;
        QTest::newRow("pool2d avg inclusive past the end (plain)")
            << V { { { 1, 16, 10, 10 } }, { { 2 }, { 3, 3 } } } << "pd_op.pool2d"
            << pool.arg("false", "true", "false").arg(0).arg("avg").arg(2) << 1 << false;
        QTest::newRow("pool2d adaptive 3x3 of 7x7 (plain)")
            << V { { { 1, 16, 7, 7 } }, { { 2 }, { 3, 3 } } } << "pd_op.pool2d"
            << pool.arg("true", "false", "true").arg(0).arg("max").arg(1) << 1 << false;

        const QString bn = QStringLiteral(
            "data_format:\"%1\",epsilon:1e-05,is_test:%2,momentum:0.9,trainable_statistics:false,"
            "use_global_stats:%2");
        const V bnInputs { { { 2, 32, 7, 9 } }, { { 32 } }, { { 32 } }, { { 32 } }, { { 32 } } };
        QTest::newRow("batch_norm inference NCHW")
            << bnInputs << "pd_op.batch_norm" << bn.arg("NCHW", "true") << 6 << true;
        QTest::newRow("batch_norm_ inference NHWC")
            << V { { { 2, 7, 9, 32 } }, { { 32 } }, { { 32 } }, { { 32 } }, { { 32 } } }
            << "pd_op.batch_norm_" << bn.arg("NHWC", "true") << 6 << true;
        QTest::newRow("batch_norm training (plain)")
            << bnInputs << "pd_op.batch_norm" << bn.arg("NCHW", "false") << 6 << false;
        QTest::newRow("layer_norm begin 2, scale and bias")
            << V { { { 2, 5, 6, 64 } }, { { 384 } }, { { 384 } } } << "pd_op.layer_norm"
            << "begin_norm_axis:2,epsilon:1e-05" << 3 << true;
        QTest::newRow("layer_norm last axis, no bias")
            << V { { { 7, 96 } }, { { 96 } } } << "pd_op.layer_norm"
            << "begin_norm_axis:1,epsilon:1e-06" << 3 << true;
        QTest::newRow("softmax last") << V { { { 4, 9, 33 } } } << "pd_op.softmax"
                                      << "axis:-1" << 1 << true;
        // Over an axis that is not the innermost oneDNN has only its reference loops.
        QTest::newRow("softmax axis 1 of 4-D (plain)") << V { { { 2, 19, 5, 6 } } } << "pd_op.softmax"
                                                       << "axis:1" << 1 << false;

        QTest::newRow("add per-channel bias") << V { { { 1, 32, 8, 8 } }, { { 1, 32, 1, 1 } } } << "pd_op.add"
                                              << "" << 1 << true;
        QTest::newRow("multiply, x broadcast (swapped)")
            << V { { { 32, 1, 1 } }, { { 2, 32, 8, 8 } } } << "pd_op.multiply"
            << "" << 1 << true;
        QTest::newRow("subtract, x broadcast (plain)")
            << V { { { 32, 1, 1 } }, { { 2, 32, 8, 8 } } } << "pd_op.subtract"
            << "" << 1 << false;
        QTest::newRow("divide same shape") << V { { { 3, 50 } }, { { 3, 50 } } } << "pd_op.divide"
                                           << "" << 1 << true;
        QTest::newRow("add_ inplace, scalar") << V { { { 6, 7 } }, { { 1 } } } << "pd_op.add_"
                                              << "" << 1 << true;

        const V unary { { { 3, 5, 17 } } };
        for (const char *op : { "relu", "relu_", "tanh", "sigmoid", "exp", "abs", "square", "hardswish",
                 "relu6", "silu", "swish", "sqrt" })
            QTest::newRow(op) << unary << QStringLiteral("pd_op.%1").arg(QLatin1String(op)) << "" << 1
                              << true;
        QTest::newRow("gelu erf") << unary << "pd_op.gelu"
                                  << "approximate:false" << 1 << true;
        QTest::newRow("gelu tanh") << unary << "pd_op.gelu"
                                   << "approximate:true" << 1 << true;
        QTest::newRow("leaky_relu") << unary << "pd_op.leaky_relu"
                                    << "negative_slope:0.1" << 1 << true;
        QTest::newRow("elu") << unary << "pd_op.elu"
                             << "alpha:0.7" << 1 << true;

        const QString interp = QStringLiteral(
            "align_corners:false,align_mode:1,data_format:\"NCHW\",interp_method:\"nearest\","
            "out_d:-1,out_h:%1,out_w:%2,scale:[%3]");
        const QString nulls = QStringLiteral(", <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>");
        QTest::newRow("nearest_interp scale 2") << V { { { 1, 16, 9, 11 } } } << "pd_op.nearest_interp"
                                                << interp.arg(-1).arg(-1).arg("2.0,2.0") << 1 << true;
        QTest::newRow("nearest_interp 5 -> 7 (plain where the indices differ)")
            << V { { { 1, 8, 5, 5 } } } << "pd_op.nearest_interp" << interp.arg(7).arg(7).arg("") << 1
            << false;

        // transpose_layout_pass's pair around an NHWC pool2d, and other orders.
        QTest::newRow("transpose NCHW -> NHWC") << V { { { 1, 24, 13, 11 } } } << "pd_op.transpose"
                                                << "perm:[0,2,3,1]" << 1 << true;
        QTest::newRow("transpose NHWC -> NCHW") << V { { { 2, 13, 11, 24 } } } << "pd_op.transpose"
                                                << "perm:[0,3,1,2]" << 1 << true;
        QTest::newRow("transpose 3-d, a negative axis") << V { { { 5, 7, 3 } } } << "pd_op.transpose"
                                                        << "perm:[-1,0,1]" << 1 << true;
        QTest::newRow("transpose 2-d") << V { { { 33, 17 } } } << "pd_op.transpose"
                                       << "perm:[1,0]" << 1 << true;
        QTest::newRow("transpose 1-d (plain)") << V { { { 9 } } } << "pd_op.transpose"
                                               << "perm:[0]" << 1 << false;
    }

    void agreesWithOracle()
    {
        QFETCH(std::vector<Input>, inputs);
        QFETCH(QString, op);
        QFETCH(QString, attrs);
        QFETCH(int, results);
        QFETCH(bool, onednn);
        std::string text = programText(inputs, op.toStdString(), attrs.toStdString(), results);
        if (op == QLatin1String("pd_op.nearest_interp")) {
            // x, out_size, size_tensor, scale_tensor: the last three absent.
            const size_t at = text.find("(%0) {", text.find("nearest_interp"));
            text.replace(at, 6, "(%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {");
            const size_t types = text.find(") -> tensor<-1", text.find("nearest_interp"));
            text.insert(types, ", <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>");
        }
        const LoadResult loaded = PirTextReader::readString(text, "case.txt");
        QVERIFY2(loaded.ok(), text.c_str());
        const std::vector<RuntimeValue> operands = inputValues(inputs);
        std::vector<RuntimeValue> padded = operands;
        padded.resize(loaded.program->block().ops().back()->numOperands());
        QString error;
        std::vector<RuntimeValue> plainOperands = deepCopies(operands);
        plainOperands.resize(padded.size());
        const std::vector<RuntimeValue> want = runLastOp(*loaded.program, plainOperands, *m_plain, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const uint64_t before = oneDnnExecutions();
        const std::vector<RuntimeValue> got = runLastOp(*loaded.program, padded, *m_onednn, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(oneDnnExecutions() > before, onednn);
        const QString mismatch = compareResults(got, want, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        if (op == QLatin1String("pd_op.relu_") || op == QLatin1String("pd_op.add_")) // into x's storage
            QVERIFY(got[0].tensor().storage() == padded[0].tensor().storage());
    }

    // Other dtypes go to the plain kernel, whatever the op.
    void float64GoesToThePlainKernel()
    {
        const std::string text
            = "{\n    (%0) = \"pd_op.data\" () {dtype:float64,name:\"x\",place:Place(cpu),shape:[2,3],"
              "stop_gradient:[true]} : () -> tensor<2x3xf64>\n    (%1) = \"pd_op.relu\" (%0) {} : "
              "(tensor<2x3xf64>) -> tensor<2x3xf64>\n}\n";
        const LoadResult loaded = PirTextReader::readString(text, "f64.txt");
        QVERIFY(loaded.ok());
        const std::vector<double> values { -1, 2, -3, 4, 0, -0.5 };
        const std::vector<RuntimeValue> operands { RuntimeValue(
            Tensor::fromDoubles({ 2, 3 }, DataType::Float64, values)) };
        QString error;
        const uint64_t before = oneDnnExecutions();
        const std::vector<RuntimeValue> out = runLastOp(*loaded.program, operands, *m_onednn, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(oneDnnExecutions(), before);
        QCOMPARE(out[0].tensor().dtype(), DataType::Float64);
        QCOMPARE(out[0].tensor().toDoubles(), (std::vector<double> { 0, 2, 0, 4, 0, 0 }));
    }

    // A convolution's weights are reordered once per content and layout: a clone (a restart
    // clones the parameters) reuses the reorder; a write into them (an inplace op on a parameter)
    // or new weights are seen on the next call.
    void convWeightsAreKeptByContent()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const std::vector<Input> inputs { { { 1, 32, 8, 8 } }, { { 32, 32, 3, 3 } } };
        const std::string text = programText(inputs, "pd_op.conv2d",
            "data_format:\"NCHW\",dilations:[1,1],groups:1,padding_algorithm:\"EXPLICIT\",paddings:[1,1],"
            "strides:[1,1]",
            1);
        const LoadResult loaded = PirTextReader::readString(text, "conv.txt");
        QVERIFY(loaded.ok());
        std::vector<RuntimeValue> operands = inputValues(inputs);
        OneDnnEngine &engine = OneDnnEngine::instance();
        QString error;
        const auto check = [&] {
            const std::vector<RuntimeValue> want = runLastOp(*loaded.program, operands, *m_plain, error);
            const std::vector<RuntimeValue> got = runLastOp(*loaded.program, operands, *m_onednn, error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QString mismatch = compareResults(got, want, 1e-4);
            QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        };
        check();
        const size_t kept = engine.weightCount();
        const size_t plans = engine.planCount();
        check();
        QCOMPARE(engine.weightCount(), kept);
        QCOMPARE(engine.planCount(), plans);
        operands[1] = RuntimeValue(operands[1].tensor().cloneHost());
        check();
        QCOMPARE(engine.weightCount(), kept);
        // In place: every element scaled, the same storage.
        Tensor &w = operands[1].tensor();
        for (int64_t i = 0; i < w.numElements(); ++i)
            w.data<float>()[i] *= -2.0f;
        check();
        QCOMPARE(engine.weightCount(), kept + 1);
        // New weights in a new storage.
        operands[1] = RuntimeValue(randomTensor(inputs[1].shape, 99));
        check();
        QCOMPARE(engine.weightCount(), kept + 2);
        QCOMPARE(engine.planCount(), plans);
#endif
    }
};

QTEST_GUILESS_MAIN(TestOneDnnKernels)
#include "tst_onednnkernels.moc"
