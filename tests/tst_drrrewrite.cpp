// The DRR rewrite engine and the greedy driver on hand-built programs: the matching rules, where
// result ops go, what is erased, Paddle's default stop_gradient and the worklist order.

#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/greedypatternrewritedriver.h"
#include "core/transform/patternrewritepass.h"
#include "core/transform/rewritehelpers.h"
#include "irbuild.h"

#include <QtTest>

using namespace ps;
using irbuild::opNames;

namespace {

Type f32()
{
    return Type::denseTensor(DataType::Float32, { 2, 4 });
}

Operation *make(Builder &b, std::string_view name, std::vector<Value> operands, size_t results = 1,
    std::vector<NamedAttribute> attrs = {})
{
    return irbuild::makeOp(b, name, std::move(operands), std::vector<Type>(results, f32()), std::move(attrs));
}

Value data(Builder &b, const char *name, bool stopGradient = false)
{
    return make(b, "pd_op.data", {}, 1,
        { { "name", Attribute::string(name) }, { "stop_gradient", boolArrayAttr(1, stopGradient) } })
        ->result(0);
}

/// A pass made of the given patterns.
class TestPass : public PatternRewritePass
{
public:
    explicit TestPass(std::vector<DrrPattern> patterns)
        : PatternRewritePass("test_pass", "test", "test")
    {
        for (DrrPattern &p : patterns)
            addPattern(std::make_unique<DrrRewritePattern>(std::move(p)));
    }
};

/// relu(exp(x)) -> tanh(x).
DrrPattern expRelu()
{
    DrrPattern p("ExpRelu");
    p.source("pd_op.exp", { "x" }, { "e" });
    p.source("pd_op.relu", { "e" }, { "out" });
    p.result("pd_op.tanh", { "x" }, { "out" });
    return p;
}

} // namespace

class TestDrrRewrite : public QObject
{
    Q_OBJECT

private slots:
    void rewritesAndErasesTheSourceOps()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value r = make(b, "pd_op.relu", { make(b, "pd_op.exp", { x })->result(0) })->result(0);
        make(b, "pd_op.fetch", { r }, 1);
        TestPass pass({ expRelu() });
        QCOMPARE(pass.run(p), size_t(1));
        QCOMPARE(opNames(p), (std::vector<std::string> { "pd_op.data", "pd_op.tanh", "pd_op.fetch" }));
        const Operation *tanh = p.block().op(1);
        QCOMPARE(tanh->operand(0), x);
        QCOMPARE(p.block().op(2)->operand(0), tanh->result(0));
        // PassStopGradientsDefaultly: x has an explicit false.
        QCOMPARE(*tanh->attribute("stop_gradient"), boolArrayAttr(1, false));
    }

    void intermediateWithAnotherUseBlocksTheMatch()
    {
        Program p;
        Builder b(p);
        const Value e = make(b, "pd_op.exp", { data(b, "x") })->result(0);
        const Value r = make(b, "pd_op.relu", { e })->result(0);
        make(b, "pd_op.fetch", { r });
        make(b, "pd_op.fetch", { e });
        TestPass pass({ expRelu() });
        QCOMPARE(pass.run(p), size_t(0));
        QCOMPARE(p.block().size(), size_t(5));
    }

    void sameNamedTensorsMustBeTheSameValue()
    {
        DrrPattern square("Square");
        square.source("pd_op.multiply", { "x", "x" }, { "out" });
        square.result("pd_op.square", { "x" }, { "out" });
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = data(b, "y");
        make(b, "pd_op.fetch", { make(b, "pd_op.multiply", { x, y })->result(0) });
        make(b, "pd_op.fetch", { make(b, "pd_op.multiply", { y, y })->result(0) });
        TestPass pass({ square });
        QCOMPARE(pass.run(p), size_t(1));
        QCOMPARE(opNames(p),
            (std::vector<std::string> { "pd_op.data", "pd_op.data", "pd_op.multiply", "pd_op.fetch",
                "pd_op.square", "pd_op.fetch" }));
    }

    void missingAttributeBlocksTheMatchAndConstraintsSeeBoundValues()
    {
        DrrPattern p("Scaled");
        p.source("pd_op.relu", { "x" }, { "out" }, { { "alpha", "alpha" } });
        p.constraint([](const DrrMatch &m) { return m.floatAttr("alpha") > 1.0f; });
        p.result("pd_op.tanh", { "x" }, { "out" });
        Program program;
        Builder b(program);
        const Value x = data(b, "x");
        make(b, "pd_op.fetch", { make(b, "pd_op.relu", { x })->result(0) });
        make(b, "pd_op.fetch",
            { make(b, "pd_op.relu", { x }, 1, { { "alpha", Attribute::f32(0.5f) } })->result(0) });
        make(b, "pd_op.fetch",
            { make(b, "pd_op.relu", { x }, 1, { { "alpha", Attribute::f32(2.0f) } })->result(0) });
        TestPass pass({ p });
        QCOMPARE(pass.run(program), size_t(1));
        QCOMPARE(program.block().op(5)->name(), std::string_view("pd_op.tanh"));
    }

    // A result op goes before the first matched op unless an operand is defined later, then
    // right after that operand's op (Paddle's CreateOperations).
    void resultOpGoesAfterItsLatestOperand()
    {
        DrrPattern p("AddLater");
        p.source("pd_op.exp", { "x" }, { "e" });
        p.source("pd_op.add", { "e", "y" }, { "out" });
        p.result("pd_op.subtract", { "x", "y" }, { "out" });
        Program program;
        Builder b(program);
        const Value x = data(b, "x");
        const Value e = make(b, "pd_op.exp", { x })->result(0);
        const Value y = data(b, "y");
        make(b, "pd_op.fetch", { make(b, "pd_op.add", { e, y })->result(0) });
        TestPass pass({ p });
        QCOMPARE(pass.run(program), size_t(1));
        QCOMPARE(opNames(program),
            (std::vector<std::string> { "pd_op.data", "pd_op.data", "pd_op.subtract", "pd_op.fetch" }));
    }

    void assignReplacesWithoutNewOpsAndErasesOrphans()
    {
        DrrPattern p("DropScale");
        p.source("pd_op.full", {}, { "f" });
        p.source("pd_op.scale", { "x", "f" }, { "out" });
        p.assign("out", "x");
        Program program;
        Builder b(program);
        const Value x = data(b, "x");
        const Value f = make(b, "pd_op.full", {})->result(0);
        make(b, "pd_op.fetch", { make(b, "pd_op.scale", { x, f })->result(0) });
        TestPass pass({ p });
        QCOMPARE(pass.run(program), size_t(1));
        QCOMPARE(opNames(program), (std::vector<std::string> { "pd_op.data", "pd_op.fetch" }));
        QCOMPARE(program.block().op(1)->operand(0), x);
    }

    // Ops a rewrite creates are visited next: a chain of four exp-relu pairs written as
    // relu(exp(relu(exp(...)))) collapses completely in one sweep.
    void newOpsAreVisitedNext()
    {
        DrrPattern p("TanhRelu");
        p.source("pd_op.tanh", { "x" }, { "t" });
        p.source("pd_op.relu", { "t" }, { "out" });
        p.result("pd_op.tanh", { "x" }, { "out" });
        Program program;
        Builder b(program);
        Value v = data(b, "x");
        v = make(b, "pd_op.tanh", { v })->result(0);
        for (int i = 0; i < 4; ++i)
            v = make(b, "pd_op.relu", { v })->result(0);
        make(b, "pd_op.fetch", { v });
        TestPass pass({ p });
        QCOMPARE(pass.run(program), size_t(4));
        QCOMPARE(opNames(program), (std::vector<std::string> { "pd_op.data", "pd_op.tanh", "pd_op.fetch" }));
    }

    void higherBenefitWins()
    {
        DrrPattern low("Low", 1);
        low.source("pd_op.relu", { "x" }, { "out" });
        low.result("pd_op.tanh", { "x" }, { "out" });
        DrrPattern high("High", 2);
        high.source("pd_op.relu", { "x" }, { "out" });
        high.result("pd_op.sigmoid", { "x" }, { "out" });
        Program program;
        Builder b(program);
        make(b, "pd_op.fetch", { make(b, "pd_op.relu", { data(b, "x") })->result(0) });
        TestPass pass({ low, high });
        QCOMPARE(pass.run(program), size_t(1));
        QCOMPARE(program.block().op(1)->name(), std::string_view("pd_op.sigmoid"));
    }

    void persistableValues()
    {
        Program program;
        Builder b(program);
        const Value w = make(b, "builtin.parameter", {})->result(0);
        const Value shape = make(b, "pd_op.full_int_array", {})->result(0);
        const Value reshaped = make(b, "pd_op.reshape", { w, shape })->result(0);
        const Value x = data(b, "x");
        QVERIFY(valueIsPersistable(w));
        QVERIFY(valueIsPersistable(reshaped));
        QVERIFY(!valueIsPersistable(x));
        QVERIFY(!valueIsPersistable(make(b, "pd_op.add", { reshaped, x })->result(0)));
        QVERIFY(!valueIsPersistable(Value()));
    }
};

QTEST_GUILESS_MAIN(TestDrrRewrite)
#include "tst_drrrewrite.moc"
