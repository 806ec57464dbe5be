#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/automixedprecision.h"

#include <QtTest>

using namespace ps;

namespace {

const char *kProgram = R"({
    (%0) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,4],stop_gradient:[false]} : () -> tensor<2x4xf32>
    (%3) = "pd_op.matmul" (%2, %0) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.add" (%3, %1) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.exp" (%4) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%6) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
    (%7) = "pd_op.scale" (%5, %6) {bias:0,bias_after_scale:true,stop_gradient:[false]} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%8) = "pd_op.softmax" (%7) {axis:-1,stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%9) = "pd_op.fetch" (%8) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
)";

std::unique_ptr<Program> parse()
{
    LoadResult r = PirTextReader::readString(kProgram, "amp.txt");
    return r.ok() ? std::move(r.program) : nullptr;
}

Place gpu()
{
    return { Place::AllocType::Gpu, 0, {} };
}

/// "pd_op.cast>f16" for a cast, the op name otherwise, in program order.
QStringList opsWithCasts(const Program &p)
{
    QStringList out;
    for (const Operation *op : p.block().ops()) {
        QString s = QString::fromUtf8(op->name().data(), int(op->name().size()));
        if (op->name() == "pd_op.cast")
            s += ">" + QString::fromUtf8(phiName(op->attribute("dtype")->asDataType()).data());
        out << s;
    }
    return out;
}

const Operation *first(const Program &p, std::string_view name)
{
    for (const Operation *op : p.block().ops())
        if (op->name() == name)
            return op;
    return nullptr;
}

} // namespace

/// auto_mixed_precision_pass as Paddle 3.3.1's source decides it (PIRScope has no GPU build of
/// Paddle to generate golden programs from; the kernel-support assumption is in the class comment).
class TestAutoMixedPrecision : public QObject
{
    Q_OBJECT

private slots:
    void float16Casts()
    {
        auto p = parse();
        QVERIFY(p);
        AutoMixedPrecision amp(gpu(), DataType::Float16);
        QVERIFY(amp.run(*p) > 0);
        QCOMPARE(opsWithCasts(*p),
            QStringList({ "builtin.parameter", "builtin.parameter", "pd_op.data", "pd_op.cast>float16",
                "pd_op.cast>float16", "pd_op.matmul", "pd_op.cast>float16", "pd_op.add", "pd_op.cast>float32",
                "pd_op.exp", "pd_op.full", "pd_op.cast>float16", "pd_op.scale", "pd_op.softmax",
                "pd_op.cast>float32", "pd_op.fetch" }));
        // Inputs stay float32 (no low-precision IO); the black-listed exp runs in float32 between
        // a cast down from add and a cast up to scale.
        QCOMPARE(first(*p, "pd_op.data")->result(0).type().dtype(), DataType::Float32);
        QCOMPARE(first(*p, "pd_op.matmul")->result(0).type().dtype(), DataType::Float16);
        QCOMPARE(first(*p, "pd_op.exp")->result(0).type().dtype(), DataType::Float32);
        // full feeds scale's Scalar input: it stays float32, and scale reads it as it is.
        QCOMPARE(first(*p, "pd_op.full")->result(0).type().dtype(), DataType::Float32);
        QCOMPARE(first(*p, "pd_op.full")->attribute("dtype")->asDataType(), DataType::Float32);
        QCOMPARE(first(*p, "pd_op.softmax")->result(0).type().dtype(), DataType::Float16);
        // fetch keeps its type and reads a cast back to float32.
        const Operation *fetch = first(*p, "pd_op.fetch");
        QCOMPARE(fetch->result(0).type().dtype(), DataType::Float32);
        QCOMPARE(fetch->operand(0).definingOp()->name(), std::string_view("pd_op.cast"));
        QVERIFY(!amp.takeNotes().empty());
    }

    void bfloat16AndLists()
    {
        auto p = parse();
        QVERIFY(p);
        AutoMixedPrecision amp(gpu(), DataType::BFloat16, false, { "exp" }, { "softmax" });
        amp.run(*p);
        QCOMPARE(first(*p, "pd_op.matmul")->result(0).type().dtype(), DataType::BFloat16);
        // Paddle checks its default black list before the user's white list: exp stays float32.
        QCOMPARE(first(*p, "pd_op.exp")->result(0).type().dtype(), DataType::Float32);
        QCOMPARE(first(*p, "pd_op.softmax")->result(0).type().dtype(), DataType::Float32); // black-listed
    }

    void cpuPlaceChangesNothing()
    {
        auto p = parse();
        QVERIFY(p);
        AutoMixedPrecision amp({ Place::AllocType::Cpu, 0, {} }, DataType::Float16);
        QCOMPARE(amp.run(*p), size_t(0));
        const std::vector<std::string> notes = amp.takeNotes();
        QCOMPARE(notes.size(), size_t(1));
        QVERIFY(QString::fromStdString(notes[0]).contains("GPU place only"));
    }
};

QTEST_GUILESS_MAIN(TestAutoMixedPrecision)
#include "tst_automixedprecision.moc"
