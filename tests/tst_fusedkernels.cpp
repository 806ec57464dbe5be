// The fused ops' plain kernels (cpu-plain, the oracle) against their parts run one by one: same
// numbers (the plain fused kernels replay the parts), the less common attribute forms, and clear
// errors for the unsupported ones. The oneDNN fused convolution, one primitive with post-ops,
// rounds differently and is checked against these in tst_onednnkernels.

#include "core/runtime/backend.h"
#include "core/runtime/kernelcomposer.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensorcomparison.h"

#include <QtTest>
#include <random>

using namespace ps;

namespace {

Tensor randomTensor(std::vector<int64_t> shape, uint64_t seed, double offset = 0.0)
{
    std::mt19937_64 gen(seed);
    std::normal_distribution<double> dist(0.0, 1.0);
    std::vector<double> values(size_t(numElementsOf(shape)));
    for (double &v : values)
        v = dist(gen) + offset;
    return Tensor::fromDoubles(std::move(shape), DataType::Float32, values);
}

NamedAttribute attr(const char *name, Attribute value)
{
    return { name, std::move(value) };
}

Attribute ints(std::vector<int64_t> values)
{
    std::vector<Attribute> items;
    for (int64_t v : values)
        items.push_back(Attribute::int32(int32_t(v)));
    return Attribute::array(std::move(items));
}

Type typeOf(const Tensor &t)
{
    return Type::denseTensor(t.dtype(), t.shape());
}

void checkEqual(const Tensor &actual, const Tensor &expected)
{
    const TensorComparison c = TensorComparison::compare(actual, expected, 0.0, 0.0);
    QVERIFY2(c.ok(), c.summary().c_str());
}

std::vector<NamedAttribute> convAttrs()
{
    return { attr("strides", ints({ 1, 1 })), attr("paddings", ints({ 1, 1 })),
        attr("padding_algorithm", Attribute::string("EXPLICIT")), attr("dilations", ints({ 1, 1 })),
        attr("groups", Attribute::int32(1)), attr("data_format", Attribute::string("NCHW")) };
}

} // namespace

class TestFusedKernels : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { m_backend = createCpuPlainBackend(); }

    void fcFlattensLeadingDims()
    {
        KernelComposer k(*m_backend);
        const Tensor x = randomTensor({ 2, 3, 4 }, 1);
        const Tensor w = randomTensor({ 12, 5 }, 2);
        const Tensor b = randomTensor({ 5 }, 3);
        const Tensor fused = k.tensor("pd_op.fc", { x, w, b },
            { attr("in_num_col_dims", Attribute::int32(1)),
                attr("activation_type", Attribute::string("relu")),
                attr("padding_weights", Attribute::boolean(false)) });
        QCOMPARE(fused.shape(), (std::vector<int64_t> { 2, 5 }));
        const Tensor mm = k.tensor("pd_op.matmul", { x.reshaped({ 2, 12 }), w },
            { attr("transpose_x", Attribute::boolean(false)),
                attr("transpose_y", Attribute::boolean(false)) });
        checkEqual(fused, k.tensor("pd_op.relu", { k.tensor("pd_op.add", { mm, b }) }));
    }

    void fcOnTheLastDimKeepsTheShape()
    {
        KernelComposer k(*m_backend);
        const Tensor x = randomTensor({ 2, 3, 4 }, 4);
        const Tensor w = randomTensor({ 4, 6 }, 5);
        const Tensor fused = k.tensor(
            "pd_op.fc", { x, w, RuntimeValue() }, { attr("in_num_col_dims", Attribute::int32(2)) });
        QCOMPARE(fused.shape(), (std::vector<int64_t> { 2, 3, 6 }));
        checkEqual(fused,
            k.tensor("pd_op.matmul", { x, w },
                { attr("transpose_x", Attribute::boolean(false)),
                    attr("transpose_y", Attribute::boolean(false)) }));
    }

    void fcRejectsPaddedWeights()
    {
        KernelComposer k(*m_backend);
        try {
            k.tensor("pd_op.fc", { randomTensor({ 2, 4 }, 1), randomTensor({ 4, 4 }, 2) },
                { attr("padding_weights", Attribute::boolean(true)) });
            QFAIL("no error");
        } catch (const RuntimeError &e) {
            QVERIFY2(QString(e.what()).contains("padding_weights"), e.what());
        }
    }

    void fusedConvWithResidualAndActivation_data()
    {
        QTest::addColumn<QString>("activation");
        QTest::newRow("identity") << "identity";
        QTest::newRow("relu") << "relu";
        QTest::newRow("sigmoid") << "sigmoid";
        QTest::newRow("tanh") << "tanh";
    }
    void fusedConvWithResidualAndActivation()
    {
        QFETCH(QString, activation);
        KernelComposer k(*m_backend);
        const Tensor x = randomTensor({ 1, 3, 5, 5 }, 1);
        const Tensor w = randomTensor({ 4, 3, 3, 3 }, 2);
        const Tensor b = randomTensor({ 1, 4, 1, 1 }, 3);
        const Tensor r = randomTensor({ 1, 4, 5, 5 }, 4);
        std::vector<NamedAttribute> attrs = convAttrs();
        attrs.push_back(attr("activation", Attribute::string(activation.toStdString())));
        attrs.push_back(attr("split_channels", Attribute::array({})));
        std::vector<RuntimeValue> fused = k.run("pd_op.fused_conv2d_add_act", { x, w, b, r }, attrs,
            { Type::denseTensor(DataType::Float32, { 1, 4, 5, 5 }), Type::vector({}) });
        QVERIFY(fused[1].isList() && fused[1].list().empty());
        Tensor expected = k.tensor("pd_op.add",
            { r, k.tensor("pd_op.add", { k.tensor("pd_op.conv2d", { x, w }, convAttrs()), b }) });
        if (activation != "identity")
            expected = k.tensor("pd_op." + activation.toStdString(), { expected });
        checkEqual(fused[0].tensor(), expected);
    }

    void fusedConvRejectsSplitChannels()
    {
        KernelComposer k(*m_backend);
        std::vector<NamedAttribute> attrs = convAttrs();
        attrs.push_back(attr("split_channels", ints({ 2, 2 })));
        QVERIFY_THROWS_EXCEPTION(RuntimeError,
            k.run("pd_op.fused_conv2d_add_act",
                { randomTensor({ 1, 3, 5, 5 }, 1), randomTensor({ 4, 3, 3, 3 }, 2) }, attrs));
    }

    void rmsNormWithResidualAndBias()
    {
        KernelComposer k(*m_backend);
        const Tensor x = randomTensor({ 2, 3, 8 }, 1);
        const Tensor residual = randomTensor({ 2, 3, 8 }, 2);
        const Tensor w = randomTensor({ 8 }, 3);
        const Tensor normBias = randomTensor({ 8 }, 4);
        std::vector<RuntimeValue> fused
            = k.run("pd_op.fused_rms_norm_quant", { x, RuntimeValue(), residual, w, normBias },
                { attr("epsilon", Attribute::f32(1e-6f)), attr("begin_norm_axis", Attribute::int32(2)),
                    attr("quant_scale", Attribute::f32(-1.0f)) },
                { typeOf(x), typeOf(x), Type::denseTensor(DataType::Float32, { 2, 3 }) });
        const Tensor sum = k.tensor("pd_op.add", { x, residual });
        checkEqual(fused[1].tensor(), sum);
        QCOMPARE(fused[2].tensor().shape(), (std::vector<int64_t> { 2, 3 }));
        // The unfused form Paddle's pattern matches: pow, mean, scale(1, eps), rsqrt, multiplies.
        const Tensor mean = k.tensor("pd_op.mean",
            { k.tensor("pd_op.pow", { sum }, { attr("y", Attribute::f32(2.0f)) }),
                Tensor::fromDoubles({ 1 }, DataType::Int64, std::vector<double> { -1 }) },
            { attr("keepdim", Attribute::boolean(true)) });
        const Tensor shifted = k.tensor("pd_op.scale",
            { mean, Tensor::fromDoubles({ 1 }, DataType::Float32, std::vector<double> { 1 }) },
            { attr("bias", Attribute::f32(1e-6f)), attr("bias_after_scale", Attribute::boolean(true)) });
        const Tensor norm = k.tensor("pd_op.multiply", { k.tensor("pd_op.rsqrt", { shifted }), sum });
        checkEqual(
            fused[0].tensor(), k.tensor("pd_op.add", { k.tensor("pd_op.multiply", { norm, w }), normBias }));
    }

    void rmsNormWithoutResidualAndQuantized()
    {
        KernelComposer k(*m_backend);
        const Tensor x = randomTensor({ 4, 8 }, 1);
        std::vector<RuntimeValue> fused = k.run("pd_op.fused_rms_norm_quant",
            { x, RuntimeValue(), RuntimeValue(), randomTensor({ 8 }, 2), RuntimeValue() },
            { attr("epsilon", Attribute::f32(1e-6f)), attr("begin_norm_axis", Attribute::int32(1)) },
            { typeOf(x), Type::denseTensor(DataType::Float32, {}),
                Type::denseTensor(DataType::Float32, { 4 }) });
        QCOMPARE(fused[1].tensor().numElements(), int64_t(0));
        QCOMPARE(fused[2].tensor().shape(), (std::vector<int64_t> { 4 }));
        try {
            k.run("pd_op.fused_rms_norm_quant",
                { x, RuntimeValue(), RuntimeValue(), randomTensor({ 8 }, 2), RuntimeValue() },
                { attr("quant_scale", Attribute::f32(2.0f)) });
            QFAIL("no error");
        } catch (const RuntimeError &e) {
            QVERIFY2(QString(e.what()).contains("quant_scale"), e.what());
        }
    }

    void biasResidualLayerNorm()
    {
        KernelComposer k(*m_backend);
        const Tensor x = randomTensor({ 2, 3, 8 }, 1);
        const Tensor bias = randomTensor({ 8 }, 2);
        const Tensor residual = randomTensor({ 2, 3, 8 }, 3);
        const Tensor w = randomTensor({ 8 }, 4);
        const Tensor b = randomTensor({ 8 }, 5);
        const std::vector<NamedAttribute> lnAttrs { attr("epsilon", Attribute::f32(1e-5f)),
            attr("begin_norm_axis", Attribute::int32(2)) };
        std::vector<NamedAttribute> attrs = lnAttrs;
        attrs.push_back(attr("residual_alpha", Attribute::f32(0.5f)));
        std::vector<RuntimeValue> fused
            = k.run("pd_op.fused_bias_residual_layernorm", { x, bias, residual, w, b }, attrs,
                { typeOf(x), typeOf(x), Type::denseTensor(DataType::Float32, { 6 }),
                    Type::denseTensor(DataType::Float32, { 6 }) });
        const Tensor half = k.tensor("pd_op.scale",
            { residual, Tensor::fromDoubles({ 1 }, DataType::Float32, std::vector<double> { 0.5 }) },
            { attr("bias", Attribute::f32(0.0f)), attr("bias_after_scale", Attribute::boolean(true)) });
        const Tensor sum = k.tensor("pd_op.add", { k.tensor("pd_op.add", { x, bias }), half });
        checkEqual(fused[1].tensor(), sum);
        std::vector<RuntimeValue> ln = k.run("pd_op.layer_norm", { sum, w, b }, lnAttrs,
            { typeOf(x), Type::denseTensor(DataType::Float32, { -1 }),
                Type::denseTensor(DataType::Float32, { -1 }) });
        checkEqual(fused[0].tensor(), ln[0].tensor());
        QCOMPARE(fused[2].tensor().shape(), (std::vector<int64_t> { 6 }));
        QCOMPARE(fused[3].tensor().shape(), (std::vector<int64_t> { 6 }));
    }

    void addGroupNormSilu()
    {
        KernelComposer k(*m_backend);
        const Tensor x = randomTensor({ 1, 4, 3, 3 }, 1);
        const Tensor r = randomTensor({ 1, 4, 3, 3 }, 2);
        const Tensor scale = randomTensor({ 4 }, 3);
        const Tensor bias = randomTensor({ 4 }, 4);
        const std::vector<NamedAttribute> gnAttrs { attr("epsilon", Attribute::f32(1e-5f)),
            attr("groups", Attribute::int32(2)), attr("data_format", Attribute::string("NCHW")) };
        std::vector<NamedAttribute> attrs = gnAttrs;
        attrs.push_back(attr("activation", Attribute::string("silu")));
        const std::vector<Type> types { typeOf(x), typeOf(x), Type::denseTensor(DataType::Float32, { 1, 2 }),
            Type::denseTensor(DataType::Float32, { 1, 2 }) };
        std::vector<RuntimeValue> fused
            = k.run("pd_op.add_group_norm_silu", { x, r, scale, bias }, attrs, types);
        const Tensor sum = k.tensor("pd_op.add", { x, r });
        std::vector<RuntimeValue> gn
            = k.run("pd_op.group_norm", { sum, scale, bias }, gnAttrs, { typeOf(x), types[2], types[3] });
        checkEqual(fused[0].tensor(), k.tensor("pd_op.silu", { gn[0].tensor() }));
        checkEqual(fused[1].tensor(), sum);
    }

    void missingPartKernelIsNamed()
    {
        KernelComposer k(*m_backend);
        try {
            k.run("pd_op.no_such_op", { randomTensor({ 2 }, 1) });
            QFAIL("no error");
        } catch (const RuntimeError &e) {
            QVERIFY2(QString(e.what()).contains("pd_op.no_such_op"), e.what());
        }
    }

private:
    std::unique_ptr<Backend> m_backend;
};

QTEST_GUILESS_MAIN(TestFusedKernels)
#include "tst_fusedkernels.moc"
