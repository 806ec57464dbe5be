#include "core/runtime/backend.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/kernelregistry.h"
#include "tests/kernelcase.h"

#include <QtTest>
#include <memory>

/// The CPU shape kernels: every case under fixtures/kernels/shape, views sharing storage, and
/// the error messages.
class TstCpuShapeKernels : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cases_data();
    void cases();
    void everyOpHasACase();
    void reshapeIsAView();
    void setValueInplaceWritesIntoX();
    void errors_data();
    void errors();

private:
    /// Parses `text` (a Gen C program) and runs its last op on `inputs`.
    std::vector<ps::RuntimeValue> runLast(const QString &text, std::vector<ps::RuntimeValue> inputs);

    std::unique_ptr<ps::Backend> m_backend;
    std::vector<ps::LoadResult> m_programs;
};

void TstCpuShapeKernels::initTestCase()
{
    m_backend = ps::createCpuBackend();
    QVERIFY(m_backend);
}

void TstCpuShapeKernels::cases_data()
{
    QTest::addColumn<QString>("dir");
    const QStringList names = kernelcase::cases("shape");
    QVERIFY2(names.size() >= 40, "the shape fixtures are missing: run make_shape_cases.py");
    for (const QString &name : names)
        QTest::newRow(qPrintable(name)) << kernelcase::root() + "/shape/" + name;
}

void TstCpuShapeKernels::cases()
{
    QFETCH(QString, dir);
    const kernelcase::Outcome outcome = kernelcase::run(dir, *m_backend);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QVERIFY(outcome.compared > 0);
}

void TstCpuShapeKernels::everyOpHasACase()
{
    QSet<QString> covered;
    for (const QString &name : kernelcase::cases("shape")) {
        QFile f(kernelcase::root() + "/shape/" + name + "/case.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        covered.insert(QJsonDocument::fromJson(f.readAll()).object().value("op").toString());
    }
    ps::KernelRegistry registry;
    ps::registerCpuShapeKernels(registry);
    QVERIFY(registry.size() >= 25);
    QStringList missing;
    for (const std::string &op : registry.opNames()) {
        const QString name = QString::fromStdString(op);
        if (!name.endsWith('_') && !covered.contains(name))
            missing << name;
    }
    QVERIFY2(missing.isEmpty(), qPrintable("no case for " + missing.join(", ")));
}

std::vector<ps::RuntimeValue> TstCpuShapeKernels::runLast(
    const QString &text, std::vector<ps::RuntimeValue> inputs)
{
    m_programs.push_back(ps::PirTextReader::readString(text.toStdString(), "inline"));
    const ps::LoadResult &loaded = m_programs.back();
    if (!loaded.ok())
        throw std::runtime_error("test program does not load: " + text.toStdString());
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

/// A program of two data ops (x: `xType`, operand: `yType`) and `op` on them.
static QString program(const QString &xType, const QString &yType, const QString &op, const QString &attrs,
    const QString &outType)
{
    QString text = QStringLiteral(R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1],stop_gradient:[true]} : () -> XTYPE
    (%1) = "pd_op.data" () {dtype:int64,name:"y",place:Place(cpu),shape:[1],stop_gradient:[true]} : () -> YTYPE
    (%2) = "OPNAME" (%0, %1) {ATTRS} : (XTYPE, YTYPE) -> OUTTYPE
})");
    return text.replace("XTYPE", xType)
        .replace("YTYPE", yType)
        .replace("OPNAME", op)
        .replace("ATTRS", attrs)
        .replace("OUTTYPE", outType);
}

static ps::Tensor iota(std::vector<int64_t> shape, ps::DataType dtype)
{
    std::vector<double> v(size_t(ps::numElementsOf(shape)));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = double(i);
    return ps::Tensor::fromDoubles(std::move(shape), dtype, v);
}

static ps::Tensor ints(std::vector<double> v)
{
    const int64_t n = int64_t(v.size());
    return ps::Tensor::fromDoubles({ n }, ps::DataType::Int64, v);
}

void TstCpuShapeKernels::reshapeIsAView()
{
    const ps::Tensor x = iota({ 2, 6 }, ps::DataType::Float32);
    const std::vector<ps::RuntimeValue> out
        = runLast(program("tensor<2x6xf32>", "tensor<3xi64>", "pd_op.reshape", "", "tensor<3x2x2xf32>"),
            { x, ints({ 3, -1, 2 }) });
    QCOMPARE(out[0].tensor().shape(), (std::vector<int64_t> { 3, 2, 2 }));
    QCOMPARE(out[0].tensor().storage(), x.storage());
}

void TstCpuShapeKernels::setValueInplaceWritesIntoX()
{
    const QString text = QStringLiteral(R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]} : () -> tensor<1xi64>
    (%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
    (%3) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
    (%4) = "pd_op.set_value_" (%0, %1, %2, %3) {axes:[1],decrease_axes:[1],none_axes:[],shape:[1],stop_gradient:[false],values:[0.5]} : (tensor<2x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x4xf32>
})");
    const ps::Tensor x = iota({ 2, 4 }, ps::DataType::Float32);
    const std::vector<ps::RuntimeValue> out = runLast(text, { x, ints({ 0 }), ints({ 1 }), ints({ 1 }) });
    QCOMPARE(out[0].tensor().storage(), x.storage());
    QCOMPARE(x.toDoubles(), (std::vector<double> { 0.5, 1, 2, 3, 0.5, 5, 6, 7 }));
}

void TstCpuShapeKernels::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("xShape");
    QTest::addColumn<QList<int>>("operand");
    QTest::addColumn<QString>("expected");
    QTest::newRow("reshape count") << program("tensor<2x3xf32>", "tensor<2xi64>", "pd_op.reshape", "",
        "tensor<4x2xf32>") << QList<int> { 2, 3 }
                                   << QList<int> { 4, 2 } << "cannot reshape float32[2, 3] to [4, 2]";
    QTest::newRow("expand") << program("tensor<2x3xf32>", "tensor<2xi64>", "pd_op.expand", "",
        "tensor<4x3xf32>") << QList<int> { 2, 3 }
                            << QList<int> { 4, 3 } << "cannot expand float32[2, 3] to [4, 3]";
    QTest::newRow("gather range") << program(
        "tensor<2x3xf32>", "tensor<1xi64>", "pd_op.index_select", "axis:0", "tensor<1x3xf32>")
                                  << QList<int> { 2, 3 } << QList<int> { 5 } << "index 5 is out of range";
    QTest::newRow("embedding id") << program("tensor<2x3xf32>", "tensor<1xi64>", "pd_op.embedding",
        "padding_idx:-1,sparse:false", "tensor<1x3xf32>")
                                  << QList<int> { 2, 3 } << QList<int> { 2 } << "id 2 is out of range";
    QTest::newRow("transpose perm") << program(
        "tensor<2x3xf32>", "tensor<1xi64>", "pd_op.transpose", "perm:[0,0]", "tensor<2x3xf32>")
                                    << QList<int> { 2, 3 } << QList<int> { 0 } << "repeats axis 0";
}

void TstCpuShapeKernels::errors()
{
    QFETCH(QString, text);
    QFETCH(QList<int>, xShape);
    QFETCH(QList<int>, operand);
    QFETCH(QString, expected);
    const ps::Tensor x = iota(std::vector<int64_t>(xShape.begin(), xShape.end()), ps::DataType::Float32);
    try {
        if (text.contains("embedding")) // ids first, weight second
            runLast(text, { ints(std::vector<double>(operand.begin(), operand.end())), x });
        else
            runLast(text, { x, ints(std::vector<double>(operand.begin(), operand.end())) });
        QFAIL("no RuntimeError");
    } catch (const ps::RuntimeError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
    }
}

QTEST_GUILESS_MAIN(TstCpuShapeKernels)
#include "tst_cpushapekernels.moc"
