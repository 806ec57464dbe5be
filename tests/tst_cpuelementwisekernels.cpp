#include "core/dialect/opregistry.h"
#include "core/runtime/backend.h"
#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/halffloat.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/indexspace.h"
#include "tests/kernelcase.h"

#include <QtTest>
#include <memory>

/// The CPU elementwise kernels: every case under fixtures/kernels/elementwise, half-float bit
/// patterns, broadcasting, inplace storage sharing and the error messages.
class TstCpuElementwiseKernels : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cases_data();
    void cases();
    void everyOpHasACase();
    void float16Bits_data();
    void float16Bits();
    void bfloat16Bits();
    void broadcastPlanMergesDims();
    void broadcastErrorNamesShapes();
    void unsupportedDtypeSaysSo();
    void floatOnlyOpRejectsInt();
    void mixedDtypesRejected();
    void integerDivisionByZero();
    void inplaceWritesIntoInput();
    void everyInplaceFormPaddleHasRuns();

private:
    /// Parses `text` (a Gen C program) and runs its last op on `inputs`.
    std::vector<ps::RuntimeValue> runLast(const char *text, std::vector<ps::RuntimeValue> inputs);

    std::unique_ptr<ps::Backend> m_backend;
    std::vector<ps::LoadResult> m_programs;
};

void TstCpuElementwiseKernels::initTestCase()
{
    m_backend = ps::createCpuBackend();
    QVERIFY(m_backend);
}

void TstCpuElementwiseKernels::cases_data()
{
    QTest::addColumn<QString>("dir");
    const QStringList names = kernelcase::cases("elementwise");
    QVERIFY2(names.size() >= 100, "the elementwise fixtures are missing: run make_elementwise_cases.py");
    for (const QString &name : names)
        QTest::newRow(qPrintable(name)) << kernelcase::root() + "/elementwise/" + name;
}

void TstCpuElementwiseKernels::cases()
{
    QFETCH(QString, dir);
    const kernelcase::Outcome outcome = kernelcase::run(dir, *m_backend);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QVERIFY(outcome.compared > 0);
}

void TstCpuElementwiseKernels::everyOpHasACase()
{
    QSet<QString> covered;
    for (const QString &name : kernelcase::cases("elementwise")) {
        QFile f(kernelcase::root() + "/elementwise/" + name + "/case.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        covered.insert(QJsonDocument::fromJson(f.readAll()).object().value("op").toString());
    }
    ps::KernelRegistry registry;
    ps::registerCpuElementwiseKernels(registry);
    QVERIFY(registry.size() > 100);
    QStringList missing;
    for (const std::string &op : registry.opNames()) {
        const QString name = QString::fromStdString(op);
        if (!name.endsWith('_') && !covered.contains(name))
            missing << name;
    }
    QVERIFY2(missing.isEmpty(), qPrintable("no case for " + missing.join(", ")));
}

void TstCpuElementwiseKernels::float16Bits_data()
{
    QTest::addColumn<float>("value");
    QTest::addColumn<int>("bits");
    QTest::newRow("one") << 1.0f << 0x3c00;
    QTest::newRow("minus two") << -2.0f << 0xc000;
    QTest::newRow("0.1") << 0.1f << 0x2e66;
    QTest::newRow("1/3") << 1.0f / 3.0f << 0x3555;
    QTest::newRow("max") << 65504.0f << 0x7bff;
    QTest::newRow("below overflow") << 65519.0f << 0x7bff;
    QTest::newRow("overflow") << 65520.0f << 0x7c00;
    QTest::newRow("inf") << std::numeric_limits<float>::infinity() << 0x7c00;
    QTest::newRow("minus zero") << -0.0f << 0x8000;
    QTest::newRow("tie to even down") << 2049.0f << 0x6800;
    QTest::newRow("tie to even up") << 2051.0f << 0x6802;
    QTest::newRow("smallest normal") << 6.103515625e-05f << 0x0400;
    QTest::newRow("smallest subnormal") << 5.9604644775390625e-08f << 0x0001;
    QTest::newRow("subnormal") << 3e-05f << 0x01f7;
    QTest::newRow("underflow") << 1e-08f << 0x0000;
}

void TstCpuElementwiseKernels::float16Bits()
{
    QFETCH(float, value);
    QFETCH(int, bits);
    QCOMPARE(int(ps::Float16(value).bits), bits);
    if ((bits & 0x7c00) != 0x7c00) // finite: the round trip gives the half's exact value
        QCOMPARE(float(ps::Float16(float(ps::Float16(value)))), float(ps::Float16(value)));
    QCOMPARE(ps::Float16::toFloat(0x3555), 0.333251953125f);
    QCOMPARE(ps::Float16::toFloat(0x0001), 5.9604644775390625e-08f);
    QVERIFY(std::isnan(ps::Float16::toFloat(ps::Float16::fromFloat(std::nanf("")))));
}

void TstCpuElementwiseKernels::bfloat16Bits()
{
    QCOMPARE(int(ps::BFloat16(1.0f).bits), 0x3f80);
    QCOMPARE(int(ps::BFloat16(3.14159265f).bits), 0x4049);
    QCOMPARE(int(ps::BFloat16(std::bit_cast<float>(0x3f808000u)).bits), 0x3f80); // tie, even stays
    QCOMPARE(int(ps::BFloat16(std::bit_cast<float>(0x3f818000u)).bits), 0x3f82); // tie, odd rounds up
    QCOMPARE(float(ps::BFloat16(-2.5f)), -2.5f);
    QVERIFY(std::isnan(float(ps::BFloat16(std::nanf("")))));
}

void TstCpuElementwiseKernels::broadcastPlanMergesDims()
{
    const ps::IndexSpace<2> same = ps::broadcastSpace<2>({ 2, 3, 4 }, { { { 2, 3, 4 }, { 2, 3, 4 } } });
    QCOMPARE(same.sizes, (std::vector<int64_t> { 24 }));
    QCOMPARE(same.strides.back()[1], 1);
    const ps::IndexSpace<2> scalar = ps::broadcastSpace<2>({ 2, 3 }, { { { 2, 3 }, {} } });
    QCOMPARE(scalar.sizes, (std::vector<int64_t> { 6 }));
    QCOMPARE(scalar.strides.back()[1], 0);
    const ps::IndexSpace<2> outer = ps::broadcastSpace<2>({ 3, 4 }, { { { 3, 1 }, { 1, 4 } } });
    QCOMPARE(outer.sizes, (std::vector<int64_t> { 3, 4 }));
    // The CPU launcher walks the space row by row with running offsets.
    std::vector<std::array<int64_t, 3>> visits;
    struct Record
    {
        std::vector<std::array<int64_t, 3>> *visits;
        void operator()(int64_t i, ps::Offsets<2> o) const { visits->push_back({ i, o.v[0], o.v[1] }); }
    };
    ps::CpuExec::launchIndexed(outer, Record { &visits }, "test");
    QCOMPARE(visits.size(), size_t(12));
    QCOMPARE(visits[5], (std::array<int64_t, 3> { 5, 1, 1 }));
    QCOMPARE(visits[11], (std::array<int64_t, 3> { 11, 2, 3 }));
    const ps::IndexSpace<1> reversed = ps::viewSpace(ps::flipView({ 2, 3 }, { 1 }));
    visits.clear();
    struct RecordOne
    {
        std::vector<std::array<int64_t, 3>> *visits;
        void operator()(int64_t i, ps::Offsets<1> o) const { visits->push_back({ i, o.v[0], 0 }); }
    };
    ps::CpuExec::launchIndexed(reversed, RecordOne { &visits }, "test");
    QCOMPARE(visits[0][1], 2);
    QCOMPARE(visits[3][1], 5);
    QCOMPARE(ps::broadcastShapes({ 2, 1, 5 }, { 3, 1 }), (std::vector<int64_t> { 2, 3, 5 }));
    QCOMPARE(ps::broadcastShapes({}, { 0, 2 }), (std::vector<int64_t> { 0, 2 }));
}

std::vector<ps::RuntimeValue> TstCpuElementwiseKernels::runLast(
    const char *text, std::vector<ps::RuntimeValue> inputs)
{
    m_programs.push_back(ps::PirTextReader::readString(text, "inline"));
    const ps::LoadResult &loaded = m_programs.back();
    if (!loaded.ok())
        throw std::runtime_error("test program does not load");
    const ps::Operation &op = *loaded.program->block().ops().back();
    std::vector<const ps::RuntimeValue *> pointers;
    for (const ps::RuntimeValue &v : inputs)
        pointers.push_back(&v);
    ps::KernelContext ctx(op, pointers, *m_backend);
    const ps::KernelFn kernel = m_backend->kernels().find(op.name());
    if (!kernel)
        throw std::runtime_error("no kernel");
    kernel(ctx);
    return ctx.takeOutputs();
}

static const char *kAddProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(cpu),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%2) = "pd_op.add" (%0, %1) {} : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
})";

void TstCpuElementwiseKernels::broadcastErrorNamesShapes()
{
    const std::vector<double> six(6, 1.0), four(4, 2.0);
    try {
        runLast(kAddProgram,
            { ps::Tensor::fromDoubles({ 2, 3 }, ps::DataType::Float32, six),
                ps::Tensor::fromDoubles({ 4 }, ps::DataType::Float32, four) });
        QFAIL("adding [2, 3] to [4] did not throw");
    } catch (const ps::RuntimeError &e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains("[2, 3]") && message.contains("[4]"), qPrintable(message));
        QVERIFY2(message.contains("add"), qPrintable(message));
    }
}

void TstCpuElementwiseKernels::unsupportedDtypeSaysSo()
{
    const ps::Tensor c = ps::Tensor::zeros({ 4 }, ps::DataType::Complex64);
    try {
        runLast(kAddProgram, { c, c });
        QFAIL("adding complex64 tensors did not throw");
    } catch (const ps::RuntimeError &e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains("unsupported dtype") && message.contains("complex64"), qPrintable(message));
    }
}

void TstCpuElementwiseKernels::floatOnlyOpRejectsInt()
{
    const char *text = R"({
    (%0) = "pd_op.data" () {dtype:int32,name:"x",place:Place(cpu),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
    (%1) = "pd_op.exp" (%0) {} : (tensor<2xi32>) -> tensor<2xi32>
})";
    const std::vector<double> v { 1, 2 };
    try {
        runLast(text, { ps::Tensor::fromDoubles({ 2 }, ps::DataType::Int32, v) });
        QFAIL("exp of an int32 tensor did not throw");
    } catch (const ps::RuntimeError &e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains("int32[2]") && message.contains("floating-point"), qPrintable(message));
    }
}

void TstCpuElementwiseKernels::mixedDtypesRejected()
{
    const std::vector<double> six(6, 1.0), four(4, 2.0);
    try {
        runLast(kAddProgram,
            { ps::Tensor::fromDoubles({ 2, 3 }, ps::DataType::Float32, six),
                ps::Tensor::fromDoubles({ 2, 3 }, ps::DataType::Float64, six) });
        QFAIL("adding float32 to float64 did not throw");
    } catch (const ps::RuntimeError &e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains("float32[2, 3]") && message.contains("float64[2, 3]"), qPrintable(message));
    }
}

void TstCpuElementwiseKernels::integerDivisionByZero()
{
    const char *text = R"({
    (%0) = "pd_op.data" () {dtype:int64,name:"x",place:Place(cpu),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
    (%1) = "pd_op.data" () {dtype:int64,name:"y",place:Place(cpu),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
    (%2) = "pd_op.floor_divide" (%0, %1) {} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
})";
    const std::vector<double> x { 4, 5 }, y { 2, 0 };
    QVERIFY_THROWS_EXCEPTION(ps::RuntimeError,
        runLast(text,
            { ps::Tensor::fromDoubles({ 2 }, ps::DataType::Int64, x),
                ps::Tensor::fromDoubles({ 2 }, ps::DataType::Int64, y) }));
}

void TstCpuElementwiseKernels::inplaceWritesIntoInput()
{
    const char *relu = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
    (%1) = "pd_op.relu_" (%0) {} : (tensor<3xf32>) -> tensor<3xf32>
})";
    const std::vector<double> v { -1, 0.5, 2 };
    const ps::Tensor x = ps::Tensor::fromDoubles({ 3 }, ps::DataType::Float32, v);
    const std::vector<ps::RuntimeValue> out = runLast(relu, { x });
    QCOMPARE(out[0].tensor().storage(), x.storage());
    QCOMPARE(x.toDoubles(), (std::vector<double> { 0, 0.5, 2 }));

    // add_ where y is a reshaped view of x's own storage: the result must not read clobbered values.
    const char *add = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,2],stop_gradient:[true]} : () -> tensor<2x2xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(cpu),shape:[2,1],stop_gradient:[true]} : () -> tensor<2x1xf32>
    (%2) = "pd_op.add_" (%0, %1) {} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
})";
    const std::vector<double> w { 1, 2, 3, 4 };
    const ps::Tensor a = ps::Tensor::fromDoubles({ 2, 2 }, ps::DataType::Float32, w);
    const ps::Tensor column(a.storage(), { 2, 1 }, ps::DataType::Float32, 0); // holds a[0, 0], a[0, 1]
    const std::vector<ps::RuntimeValue> sum = runLast(add, { a, column });
    QCOMPARE(sum[0].tensor().storage(), a.storage());
    QCOMPARE(a.toDoubles(), (std::vector<double> { 2, 3, 5, 6 }));
}

/// A `_` op Paddle 3.3.1 has (InplaceTrait in its op table) whose out-of-place op has a CPU kernel
/// runs too: inplace_pass writes it (PP-DocLayout's silu_ did not run before).
void TstCpuElementwiseKernels::everyInplaceFormPaddleHasRuns()
{
    const ps::KernelRegistry &kernels = ps::plainCpuKernels();
    QStringList missing;
    for (const ps::OpInfo *info : ps::OpRegistry::instance().all()) {
        const std::string name(info->name);
        if (!info->inplaceTrait || name.size() < 2 || name.back() != '_')
            continue;
        const std::string outOfPlace = name.substr(0, name.size() - 1);
        if (kernels.has(outOfPlace) && !kernels.has(name) && outOfPlace.find("grad") == std::string::npos)
            missing << QString::fromStdString(name);
    }
    // Not run yet, and refused by name ("no kernel for 'pd_op.transpose_' on CPU ..."): the
    // comparisons and binary logical ops (a bool result in x's buffer), transpose_, cumsum_, add_n_.
    const QStringList notYet { "pd_op.add_n_", "pd_op.cumsum_", "pd_op.equal_", "pd_op.greater_equal_",
        "pd_op.greater_than_", "pd_op.less_equal_", "pd_op.less_than_", "pd_op.logical_and_",
        "pd_op.logical_or_", "pd_op.logical_xor_", "pd_op.not_equal_", "pd_op.transpose_" };
    QCOMPARE(missing, notYet);
    const char *silu = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
    (%1) = "pd_op.silu_" (%0) {} : (tensor<3xf32>) -> tensor<3xf32>
})";
    const std::vector<double> v { -1, 0, 2 };
    const ps::Tensor x = ps::Tensor::fromDoubles({ 3 }, ps::DataType::Float32, v);
    const std::vector<ps::RuntimeValue> out = runLast(silu, { x });
    QCOMPARE(out[0].tensor().storage(), x.storage());
    const std::vector<double> y = x.toDoubles();
    QVERIFY(qAbs(y[0] - (-1 / (1 + std::exp(1.0)))) < 1e-6 && y[1] == 0
        && qAbs(y[2] - 2 / (1 + std::exp(-2.0))) < 1e-6);
}

QTEST_GUILESS_MAIN(TstCpuElementwiseKernels)
#include "tst_cpuelementwisekernels.moc"
