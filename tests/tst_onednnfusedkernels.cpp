// The kernels of the ops Paddle's oneDNN fusion passes make (onednn_op.fused_conv2d, ...): the
// oneDNN kernel (device cpu) against the reference kernel composed of the unfused ops' plain
// kernels (device cpu-plain), for each activation the passes fuse and each way a bias or residual
// arrives. Built without oneDNN the comparisons skip; the reference kernels are still checked.

#include "core/runtime/cpu/cpubackend.h"
#include "onednnkernelcase.h"

#include <QtTest>
#include <memory>

using namespace ps;
using namespace onednncase;

Q_DECLARE_METATYPE(std::vector<Input>)

namespace {

/// `text` with `count` absent operands (<<NULL VALUE>>) appended to its last op.
std::string withNullOperands(std::string text, int count)
{
    const size_t opAt = text.rfind("\"onednn_op.");
    const size_t close = text.find(") {", opAt);
    const size_t types = text.find(") -> ", close);
    std::string values, nullTypes;
    for (int i = 0; i < count; ++i) {
        values += ", <<NULL VALUE>>";
        nullTypes += ", <<NULL TYPE>>";
    }
    text.insert(types, nullTypes);
    text.insert(close, values);
    return text;
}

QString fusedConvAttrs(
    const char *activation, double alpha, double beta, int groups, int pad, const char *format = "NCHW")
{
    return QStringLiteral(
        "data_format:\"%1\",dilations:[1,1],fuse_activation:\"%2\",fuse_alpha:%3,"
        "fuse_beta:%4,fuse_residual_connection:false,groups:%5,padding_algorithm:\"EXPLICIT\","
        "paddings:[%6,%6],strides:[1,1]")
        .arg(QLatin1String(format), QLatin1String(activation))
        .arg(alpha, 0, 'f', 6)
        .arg(beta, 0, 'f', 6)
        .arg(groups)
        .arg(pad);
}

} // namespace

class TestOneDnnFusedKernels : public QObject
{
    Q_OBJECT

    std::unique_ptr<Backend> m_onednn = createCpuBackend();
    std::unique_ptr<Backend> m_plain = createCpuPlainBackend();

private slots:
    void agreesWithOracle_data()
    {
        QTest::addColumn<std::vector<Input>>("inputs");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("attrs");
        QTest::addColumn<int>("absent"); // trailing optional operands left out
        QTest::addColumn<bool>("onednn"); // the oneDNN path runs (else the kernel hands it over)
        using V = std::vector<Input>;
        const QString conv = QStringLiteral("onednn_op.fused_conv2d");
        const V biasC { { { 1, 32, 10, 10 } }, { { 32, 32, 3, 3 } }, { { 32 } } };
        const V bias4 { { { 1, 16, 9, 9 } }, { { 16, 1, 3, 3 } }, { { 1, 16, 1, 1 } } };
        const V residual { { { 1, 16, 8, 8 } }, { { 16, 16, 3, 3 } }, { { 16 } }, { { 1, 16, 8, 8 } } };
        QTest::newRow("fused_conv2d bias [C] (batch norm folded)")
            << biasC << conv << fusedConvAttrs("", 0, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d bias [C] + relu")
            << biasC << conv << fusedConvAttrs("relu", 0, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d depthwise, bias [1, C, 1, 1] + hard_swish")
            << bias4 << conv << fusedConvAttrs("hard_swish", 1.0 / 6.0, 0.5, 16, 1) << 1 << true;
        QTest::newRow("fused_conv2d residual + relu")
            << residual << conv << fusedConvAttrs("relu", 0, 0, 1, 1) << 0 << true;
        QTest::newRow("fused_conv2d residual, no activation")
            << residual << conv << fusedConvAttrs("", 0, 0, 1, 1) << 0 << true;
        QTest::newRow("fused_conv2d no bias + sigmoid")
            << V { { { 1, 8, 7, 7 } }, { { 8, 8, 3, 3 } } } << conv << fusedConvAttrs("sigmoid", 0, 0, 1, 1)
            << 2 << true;
        QTest::newRow("fused_conv2d hard_sigmoid (two post-ops)")
            << bias4 << conv << fusedConvAttrs("hard_sigmoid", 0.2, 0.5, 16, 1) << 1 << true;
        QTest::newRow("fused_conv2d clip")
            << biasC << conv << fusedConvAttrs("clip", -0.5, 0.75, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d relu6")
            << biasC << conv << fusedConvAttrs("relu6", 0, 6, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d leaky_relu")
            << biasC << conv << fusedConvAttrs("leaky_relu", 0.1, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d swish")
            << bias4 << conv << fusedConvAttrs("swish", 1, 0, 16, 1) << 1 << true;
        QTest::newRow("fused_conv2d mish")
            << biasC << conv << fusedConvAttrs("mish", 0, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d gelu_erf")
            << biasC << conv << fusedConvAttrs("gelu_erf", 0, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d gelu_tanh")
            << biasC << conv << fusedConvAttrs("gelu_tanh", 0, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d tanh")
            << biasC << conv << fusedConvAttrs("tanh", 0, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d abs") << biasC << conv << fusedConvAttrs("abs", 0, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d sqrt (NaN below 0 on both)")
            << biasC << conv << fusedConvAttrs("sqrt", 0, 0, 1, 1) << 1 << true;
        QTest::newRow("fused_conv2d 1x1 + residual + hard_swish")
            << V { { { 2, 24, 6, 6 } }, { { 48, 24, 1, 1 } }, { { 48 } }, { { 2, 48, 6, 6 } } } << conv
            << fusedConvAttrs("hard_swish", 1.0 / 6.0, 0.5, 1, 0) << 0 << true;
        // fc and fused_matmul compose the backend's matmul, add and activation kernels.
        const QString fc = QStringLiteral("activation_type:\"%1\",fuse_activation:\"%2\",fuse_alpha:%3,"
                                          "fuse_beta:0.0,in_num_col_dims:%4,padding_weights:false");
        QTest::newRow("fc 3-D, activation_type relu")
            << V { { { 2, 5, 24 } }, { { 24, 16 } }, { { 16 } } } << QStringLiteral("onednn_op.fc")
            << fc.arg("relu", "").arg("0.0").arg(2) << 0 << true;
        QTest::newRow("fc fuse_activation gelu")
            << V { { { 4, 32 } }, { { 32, 8 } }, { { 8 } } } << QStringLiteral("onednn_op.fc")
            << fc.arg("", "gelu").arg("0.0").arg(1) << 0 << true;
        QTest::newRow("fc leaky_relu, no bias")
            << V { { { 4, 32 } }, { { 32, 8 } } } << QStringLiteral("onednn_op.fc")
            << fc.arg("", "leaky_relu").arg("0.2").arg(1) << 1 << true;
        const QString mm
            = QStringLiteral("fuse_activation:\"%1\",fuse_alpha:0.0,fuse_beta:0.0,matmul_alpha:%2,"
                             "trans_x:false,trans_y:%3");
        QTest::newRow("fused_matmul residual, tanh")
            << V { { { 2, 4, 8 } }, { { 8, 8 } }, { { 2, 4, 8 } } }
            << QStringLiteral("onednn_op.fused_matmul") << mm.arg("tanh", "1.0", "false") << 0 << true;
        QTest::newRow("fused_matmul alpha 0.5, trans_y, no residual")
            << V { { { 3, 16 } }, { { 12, 16 } } } << QStringLiteral("onednn_op.fused_matmul")
            << mm.arg("", "0.5", "true") << 1 << true;
        QTest::newRow("fused_matmul broadcast residual, relu6")
            << V { { { 6, 16 } }, { { 16, 10 } }, { { 10 } } } << QStringLiteral("onednn_op.fused_matmul")
            << mm.arg("relu6", "1.0", "false") << 0 << true;
        const QString ew = QStringLiteral("axis:-1,fuse_activation:\"%1\",fuse_alpha:%2,fuse_beta:%3,"
                                          "fused_output_scale:1.0,scale_out:1.0,scale_x:1.0,scale_y:1.0");
        QTest::newRow("fused_elementwise_add relu")
            << V { { { 2, 16, 5, 5 } }, { { 2, 16, 5, 5 } } }
            << QStringLiteral("onednn_op.fused_elementwise_add") << ew.arg("relu", "0.0", "0.0") << 0 << true;
        QTest::newRow("fused_elementwise_mul broadcast, hard_swish")
            << V { { { 2, 16, 5, 5 } }, { { 16, 1, 1 } } }
            << QStringLiteral("onednn_op.fused_elementwise_mul") << ew.arg("hard_swish", "0.166667", "0.5")
            << 0 << true;
        const QString ewScaled
            = QStringLiteral("axis:-1,fuse_activation:\"relu\",fuse_alpha:0.0,fuse_beta:0.0,"
                             "fused_output_scale:0.25,scale_out:1.0,scale_x:1.0,scale_y:1.0");
        QTest::newRow("fused_elementwise_div relu, fused_output_scale")
            << V { { { 4, 6 } }, { { 4, 6 } } } << QStringLiteral("onednn_op.fused_elementwise_div")
            << ewScaled << 0 << true;
        QTest::newRow("fused_matmul relu, fused_output_scale")
            << V { { { 3, 16 } }, { { 16, 5 } } } << QStringLiteral("onednn_op.fused_matmul")
            << QStringLiteral("fuse_activation:\"relu\",fuse_alpha:0.0,fuse_beta:0.0,fused_output_scale:3.0,"
                              "matmul_alpha:1.0,trans_x:false,trans_y:false")
            << 1 << true;
        QTest::newRow("fused_elementwise_sub gelu_tanh")
            << V { { { 8, 12 } }, { { 8, 12 } } } << QStringLiteral("onednn_op.fused_elementwise_sub")
            << ew.arg("gelu_tanh", "0.0", "0.0") << 0 << true;
        // Cases the oneDNN kernel hands to the reference one, which composes them from the backend's
        // (oneDNN) conv2d, add and activation kernels.
        QTest::newRow("fused_conv2d NHWC (composed)")
            << V { { { 1, 8, 8, 16 } }, { { 16, 16, 3, 3 } }, { { 16 } } } << conv
            << fusedConvAttrs("relu", 0, 0, 1, 1, "NHWC") << 1 << true;
        QTest::newRow("fused_conv2d hard_swish with other constants (composed)")
            << biasC << conv << fusedConvAttrs("hard_swish", 0.2, 0.5, 1, 1) << 1 << true;
    }

    void agreesWithOracle()
    {
        QFETCH(std::vector<Input>, inputs);
        QFETCH(QString, op);
        QFETCH(QString, attrs);
        QFETCH(int, absent);
        QFETCH(bool, onednn);
        std::string text = programText(inputs, op.toStdString(), attrs.toStdString(), 1);
        text = withNullOperands(text, absent);
        const LoadResult loaded = PirTextReader::readString(text, "case.txt");
        QVERIFY2(loaded.ok(), text.c_str());
        std::vector<RuntimeValue> operands = inputValues(inputs);
        operands.resize(inputs.size() + size_t(absent));
        std::vector<RuntimeValue> plainOperands = deepCopies(inputValues(inputs));
        plainOperands.resize(operands.size());
        QString error;
        const std::vector<RuntimeValue> want = runLastOp(*loaded.program, plainOperands, *m_plain, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        if (!CpuBackend::hasOneDnn())
            QSKIP("built without oneDNN: only the reference kernel ran");
        const uint64_t before = oneDnnExecutions();
        const std::vector<RuntimeValue> got = runLastOp(*loaded.program, operands, *m_onednn, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(oneDnnExecutions() > before, onednn);
        const QString mismatch = compareResults(got, want, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    }

    // onednn_op.fc runs as one inner product (bias, activation_type, fuse_activation and the
    // output scale as post-ops): once its weights are reordered, one primitive per run, where the
    // composed kernels ran four; its values are the oracle's.
    void fcIsOneInnerProduct()
    {
        if (!CpuBackend::hasOneDnn())
            QSKIP("built without oneDNN");
        const std::vector<Input> inputs { { { 3, 2, 64 } }, { { 64, 40 } }, { { 40 } } };
        const std::string text = programText(inputs, "onednn_op.fc",
            "activation_type:\"relu\",fuse_activation:\"sigmoid\",fuse_alpha:0.0,fuse_beta:0.0,"
            "fused_output_scale:0.5,in_num_col_dims:2,padding_weights:false",
            1);
        const LoadResult loaded = PirTextReader::readString(text, "fc.txt");
        QVERIFY2(loaded.ok(), text.c_str());
        const std::vector<RuntimeValue> operands = inputValues(inputs);
        QString error;
        const std::vector<RuntimeValue> want
            = runLastOp(*loaded.program, deepCopies(operands), *m_plain, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        runLastOp(*loaded.program, operands, *m_onednn, error); // reorders the weights
        const uint64_t before = oneDnnExecutions();
        const std::vector<RuntimeValue> got = runLastOp(*loaded.program, operands, *m_onednn, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(oneDnnExecutions() - before, uint64_t(1));
        QCOMPARE(got[0].tensor().shape(), (std::vector<int64_t> { 3, 2, 40 }));
        const QString mismatch = compareResults(got, want, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    }

    // What the reference kernels do not compute (fusions PIRScope does not make, quantized
    // scales) is an error that names the attribute.
    void unsupportedAttributesSayWhich()
    {
        const std::vector<Input> inputs { { { 3, 16 } }, { { 16, 4 } } };
        std::string text = programText(inputs, "onednn_op.fused_matmul",
            "fuse_activation:\"\",fused_reshape_x:[4,12],matmul_alpha:1.0,trans_x:false,trans_y:false", 1);
        text = withNullOperands(text, 1);
        const LoadResult loaded = PirTextReader::readString(text, "case.txt");
        QVERIFY(loaded.ok());
        std::vector<RuntimeValue> operands = inputValues(inputs);
        operands.resize(3);
        QString error;
        runLastOp(*loaded.program, operands, *m_plain, error);
        QVERIFY2(error.contains("fused_reshape_x and fused_transpose_x come together"), qPrintable(error));
        text = programText({ { { 2, 8 } }, { { 8, 8 } } }, "onednn_op.fc",
            "fuse_activation:\"softsign\",fuse_alpha:0.0,fuse_beta:0.0,in_num_col_dims:1", 1);
        text = withNullOperands(text, 1);
        const LoadResult fc = PirTextReader::readString(text, "fc.txt");
        QVERIFY(fc.ok());
        operands = inputValues({ { { 2, 8 } }, { { 8, 8 } } });
        operands.resize(3);
        runLastOp(*fc.program, operands, *m_plain, error);
        QVERIFY2(error.contains("fuse_activation 'softsign'"), qPrintable(error));
    }

    // The fused shape changes of operator_reshape/unsqueeze_onednn_fuse_pass and
    // squeeze_transpose_onednn_fuse_pass: a squeeze of a dim that is not 1, a reshape that does not
    // hold the elements, an unsqueeze axis out of range and a quantizing scale say which.
    void fusedShapeChangesSayWhatIsWrong_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("attrs");
        QTest::addColumn<QString>("message");
        const QString transpose = QStringLiteral(
            "axis:[1,0],fused_reshape2_shape:%1,fused_squeeze2_axes:%2,fused_unsqueeze2_axes:%3,"
            "output_data_type:\"fp32\",scale:%4,shift:0.0");
        QTest::newRow("squeeze of a dim that is not 1")
            << "onednn_op.fused_transpose" << transpose.arg("[]", "[0]", "[]", "1.0")
            << "fused_squeeze2_axes: dim 0 of x [6, 4] is not 1";
        QTest::newRow("reshape to other elements")
            << "onednn_op.fused_transpose" << transpose.arg("[5,-1]", "[]", "[]", "1.0")
            << "fused_reshape2_shape [5, -1] does not hold the result's 24 elements";
        QTest::newRow("reshape with a 0")
            << "onednn_op.fused_transpose" << transpose.arg("[0,-1]", "[]", "[]", "1.0")
            << "fused_reshape2_shape: dim 0 is not supported";
        QTest::newRow("unsqueeze axis out of range")
            << "onednn_op.fused_transpose" << transpose.arg("[]", "[]", "[3]", "1.0")
            << "fused_unsqueeze2_axes: axis 3 is out of range for a rank-3 result";
        QTest::newRow("quantizing scale")
            << "onednn_op.fused_transpose" << transpose.arg("[]", "[]", "[]", "0.5")
            << "scale 0.500000 is not supported";
    }

    void fusedShapeChangesSayWhatIsWrong()
    {
        QFETCH(QString, op);
        QFETCH(QString, attrs);
        QFETCH(QString, message);
        const std::vector<Input> inputs { { { 6, 4 } } };
        const std::string text = programText(inputs, op.toStdString(), attrs.toStdString(), 1);
        const LoadResult loaded = PirTextReader::readString(text, "case.txt");
        QVERIFY2(loaded.ok(), text.c_str());
        for (Backend *backend : { m_plain.get(), m_onednn.get() }) {
            QString error;
            runLastOp(*loaded.program, inputValues(inputs), *backend, error);
            QVERIFY2(error.contains(message), qPrintable(error));
        }
    }

    // The reference kernel is the unfused ops: conv2d, the bias add, the residual add, relu.
    void referenceIsTheUnfusedOps()
    {
        const std::vector<Input> inputs { { { 1, 4, 5, 5 } }, { { 4, 4, 3, 3 } }, { { 4 } },
            { { 1, 4, 5, 5 } } };
        const std::string fused = programText(
            inputs, "onednn_op.fused_conv2d", fusedConvAttrs("relu", 0, 0, 1, 1).toStdString(), 1);
        const LoadResult loaded = PirTextReader::readString(fused, "fused.txt");
        QVERIFY(loaded.ok());
        QString error;
        const std::vector<RuntimeValue> got
            = runLastOp(*loaded.program, inputValues(inputs), *m_plain, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // By hand: the same arithmetic on the host.
        const std::vector<RuntimeValue> in = inputValues(inputs);
        const float *x = in[0].tensor().data<float>(), *w = in[1].tensor().data<float>(),
                    *b = in[2].tensor().data<float>(), *r = in[3].tensor().data<float>();
        const float *out = got[0].tensor().data<float>();
        for (int o = 0; o < 4; ++o)
            for (int i = 0; i < 5; ++i)
                for (int j = 0; j < 5; ++j) {
                    double sum = 0;
                    for (int c = 0; c < 4; ++c)
                        for (int u = 0; u < 3; ++u)
                            for (int v = 0; v < 3; ++v) {
                                const int y = i + u - 1, z = j + v - 1;
                                if (y >= 0 && y < 5 && z >= 0 && z < 5)
                                    sum += double(x[(c * 5 + y) * 5 + z]) * w[((o * 4 + c) * 3 + u) * 3 + v];
                            }
                    const int at = (o * 5 + i) * 5 + j;
                    const double want = std::max(0.0, sum + b[o] + r[at]);
                    QVERIFY2(std::abs(out[at] - want) < 1e-5, qPrintable(QString::number(at)));
                }
    }
};

QTEST_GUILESS_MAIN(TestOneDnnFusedKernels)
#include "tst_onednnfusedkernels.moc"
