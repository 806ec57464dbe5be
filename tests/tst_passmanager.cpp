#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/transform/commonsubexpressionelimination.h"
#include "core/transform/deadcodeelimination.h"
#include "core/transform/passirprinter.h"
#include "core/transform/passmanager.h"
#include "core/transform/passtimelinerecorder.h"
#include "core/transform/unimplementedpass.h"
#include "paddlebundle.h"

#include <QtTest>
#include <sstream>

using namespace ps;

namespace {

using bundle::kModels;
using bundle::loadText;

Type f32()
{
    return Type::denseTensor(DataType::Float32, { 4 });
}

NamedAttribute attr(const char *name, Attribute value)
{
    return { name, std::move(value) };
}

Operation *make(Builder &b, std::string_view name, std::vector<Value> operands, std::vector<Type> results,
    std::vector<NamedAttribute> attrs = {}, unsigned regions = 0)
{
    return b.create(
        name, std::span<const Value>(operands), std::span<const Type>(results), std::move(attrs), regions);
}

Value data(Builder &b, const char *name)
{
    return make(b, "pd_op.data", {}, { f32() }, { attr("name", Attribute::string(name)) })->result(0);
}

Value full(Builder &b, double value, const char *structName = nullptr)
{
    std::vector<NamedAttribute> attrs { attr("shape", Attribute::intArray({ 4 })),
        attr("value", Attribute::f64(value)), attr("dtype", Attribute::dataType(DataType::Float32)),
        attr("place", Attribute::place({})),
        attr("stop_gradient", Attribute::array({ Attribute::boolean(true) })) };
    if (structName)
        attrs.push_back(attr("struct_name", Attribute::string(structName)));
    return make(b, "pd_op.full", {}, { f32() }, std::move(attrs))->result(0);
}

Value binary(Builder &b, std::string_view name, Value x, Value y)
{
    return make(b, name, { x, y }, { f32() })->result(0);
}

Operation *shadow(Builder &b, Value v, const char *name)
{
    return make(b, "builtin.shadow_output", { v }, {}, { attr("output_name", Attribute::string(name)) });
}

std::vector<std::string> opNames(const Block &block)
{
    std::vector<std::string> names;
    for (const Operation *op : block.ops())
        names.emplace_back(op->name());
    return names;
}

} // namespace

/// DeadCodeElimination, CommonSubexpressionElimination (against Paddle 3.3.1's dy2static CSE in
/// the golden bundles) and the PassManager's toggles and log.
class TestPassManager : public QObject
{
    Q_OBJECT

private slots:
    void dceRemovesUnusedChains()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value unusedData = data(b, "unused");
        const Value param
            = make(b, "builtin.parameter", {}, { f32() }, { attr("parameter_name", Attribute::string("w")) })
                  ->result(0);
        const Value a = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        const Value dead1 = make(b, "pd_op.tanh", { a }, { f32() })->result(0);
        make(b, "pd_op.sin", { dead1 }, { f32() }); // dead, and makes dead1 dead once erased
        make(b, "pd_op.relu_", { a }, { f32() }); // inplace: kept
        make(b, "pd_op.dropout", { x }, { f32(), f32() }); // side effect: kept
        make(b, "pd_op.if", { x }, {}, {}, 2); // control flow: kept
        shadow(b, a, "output_0");
        Q_UNUSED(unusedData);
        Q_UNUSED(param);

        DeadCodeElimination dce;
        QCOMPARE(dce.run(p), size_t(3)); // sin, tanh, the unused parameter
        QCOMPARE(opNames(p.block()),
            std::vector<std::string>({ "pd_op.data", "pd_op.data", "pd_op.relu", "pd_op.relu_",
                "pd_op.dropout", "pd_op.if", "builtin.shadow_output" }));
        QCOMPARE(dce.run(p), size_t(0));
        QVERIFY(DeadCodeElimination::hasSideEffect(*p.block().op(6)));
        QVERIFY(DeadCodeElimination::isInplace(*p.block().op(3)));
    }

    void dceNestedBlocks()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        Operation *ifOp = make(b, "pd_op.if", { x }, { f32() }, {}, 2);
        Block &then = ifOp->region(0).addBlock();
        ifOp->region(1).addBlock();
        Builder inner(p);
        inner.setInsertionPointToEnd(then);
        const Value dead = make(inner, "pd_op.relu", { x }, { f32() })->result(0);
        make(inner, "pd_op.tanh", { dead }, { f32() });
        const Value live = make(inner, "pd_op.sin", { x }, { f32() })->result(0);
        make(inner, "cf.yield", { live }, {});
        shadow(b, ifOp->result(0), "out");
        DeadCodeElimination dce;
        QCOMPARE(dce.run(p), size_t(2));
        QCOMPARE(opNames(then), std::vector<std::string>({ "pd_op.sin", "cf.yield" }));
    }

    void cseMergesAndCopiesShadowOutputs()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = data(b, "y");
        const Value c1 = full(b, 2.0, "/A/");
        const Value c2 = full(b, 2.0, "/B/"); // struct_name is not a declared attribute: merged
        const Value c3 = full(b, 3.0); // other value: kept
        const Value s1 = binary(b, "pd_op.add", x, y);
        const Value s2 = binary(b, "pd_op.add", y, x); // commutative: merged with s1
        const Value d1 = binary(b, "pd_op.subtract", x, y);
        const Value d2 = binary(b, "pd_op.subtract", y, x); // not commutative: kept
        const Value m1 = binary(b, "pd_op.multiply", s1, c1);
        const Value m2 = binary(b, "pd_op.multiply", s2, c2); // equal through merged operands
        const Value r1 = make(b, "pd_op.dropout", { x }, { f32(), f32() })->result(0);
        const Value r2 = make(b, "pd_op.dropout", { x }, { f32(), f32() })->result(0); // side effect
        shadow(b, c1, "middle_0");
        shadow(b, c2, "middle_1"); // c2 has a shadow output: it moves to an assign of c1
        for (Value v : { c3, d1, d2, m1, m2, r1, r2 })
            make(b, "pd_op.tanh", { v }, { f32() });

        CommonSubexpressionElimination cse;
        QCOMPARE(cse.run(p), size_t(4)); // c2, s2, m2 and then tanh(m2), equal to tanh(m1)
        const Block &block = p.block();
        // The assign sits right after the kept full; it copies the kept op's stop_gradient.
        QCOMPARE(block.op(3)->name(), std::string_view("pd_op.assign"));
        QCOMPARE(block.op(3)->operand(0), c1);
        QCOMPARE(*block.op(3)->attribute("stop_gradient"), Attribute::array({ Attribute::boolean(true) }));
        std::vector<std::string> shadows;
        for (const Operation *op : block.ops())
            if (op->name() == "builtin.shadow_output")
                shadows.push_back(op->operand(0) == c1             ? "c1"
                        : op->operand(0) == block.op(3)->result(0) ? "assign"
                                                                   : "?");
        QCOMPARE(shadows, std::vector<std::string>({ "c1", "assign" }));
        size_t adds = 0, subtracts = 0, dropouts = 0, multiplies = 0;
        for (const Operation *op : block.ops()) {
            adds += op->name() == "pd_op.add";
            subtracts += op->name() == "pd_op.subtract";
            dropouts += op->name() == "pd_op.dropout";
            multiplies += op->name() == "pd_op.multiply";
        }
        QCOMPARE(adds, size_t(1));
        QCOMPARE(subtracts, size_t(2));
        QCOMPARE(dropouts, size_t(2));
        QCOMPARE(multiplies, size_t(1));
    }

    void cseRespectsBlockedUsersAndScopes()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value a1 = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        const Value a2 = make(b, "pd_op.relu", { x }, { f32() })->result(0); // used inplace below: kept
        make(b, "pd_op.relu_", { a2 }, { f32() });
        const Value cond = make(b, "pd_op.full", {}, { Type::denseTensor(DataType::Bool, { 1 }) })->result(0);
        Operation *ifOp = make(b, "pd_op.if", { cond }, { f32() }, {}, 2);
        Block &then = ifOp->region(0).addBlock();
        Block &other = ifOp->region(1).addBlock();
        Builder inner(p);
        inner.setInsertionPointToEnd(then);
        const Value inThen = make(inner, "pd_op.relu", { x }, { f32() })->result(0); // = a1: merged
        const Value onlyThen = make(inner, "pd_op.sin", { x }, { f32() })->result(0);
        make(inner, "cf.yield", { binary(inner, "pd_op.add", inThen, onlyThen) }, {});
        inner.setInsertionPointToEnd(other);
        const Value sinElse = make(inner, "pd_op.sin", { x }, { f32() })->result(0); // sibling scope: kept
        make(inner, "cf.yield", { sinElse }, {}); // yielded: not replaceable anyway
        const Value afterIf = make(b, "pd_op.sin", { x }, { f32() })->result(0); // outer scope: kept
        make(b, "pd_op.tanh", { a1 }, { f32() });
        make(b, "pd_op.tanh", { afterIf }, { f32() });

        CommonSubexpressionElimination cse;
        QCOMPARE(cse.run(p), size_t(1));
        QCOMPARE(cse.replacements().front().second, a1.definingOp());
        QCOMPARE(then.size(), size_t(3));
        QCOMPARE(then.op(0)->operand(0), x); // the sin in "then" survives
        QCOMPARE(then.op(1)->operand(0), a1); // the add now reads the outer relu
        QCOMPARE(other.size(), size_t(2));
    }

    void cseMatchesPaddle_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("part");
        for (const char *m : kModels) {
            QTest::newRow(qPrintable(QString::fromLatin1(m) + "/forward"))
                << QString::fromLatin1(m) << "forward";
            QTest::newRow(qPrintable(QString::fromLatin1(m) + "/backward"))
                << QString::fromLatin1(m) << "backward";
        }
    }

    /// Paddle's CSE applied to split_program's output gives the programs run_program receives.
    void cseMatchesPaddle()
    {
        QFETCH(QString, model);
        QFETCH(QString, part);
        const QString dir = bundle::dir(model);
        if (!QFileInfo::exists(dir + "/manifest.json"))
            QSKIP("golden bundle missing");
        auto split = loadText(dir + "/split/" + part + "_program.txt");
        auto final = loadText(dir + "/" + part + "_program.txt");
        QVERIFY(split && final);
        const size_t before = split->numOps();
        CommonSubexpressionElimination cse;
        const size_t merged = cse.run(*split);
        const ProgramDifference d = ProgramDiff::compare(*split, *final);
        QVERIFY2(d.equal, d.toString("ours", "paddle").c_str());
        qInfo("%s %s: %zu merged, %zu -> %zu ops, equal to Paddle's", qPrintable(model), qPrintable(part),
            merged, before, split->numOps());
    }

    void managerTogglesAndLog()
    {
        PassManager pm = PassManager::withDefaultPasses();
        QVERIFY(pm.isEnabled("common_subexpression_elimination_pass"));
        QVERIFY(pm.isEnabled("cse"));
        QVERIFY(!pm.isEnabled("dce"));
        QVERIFY(!pm.setEnabled("no_such_pass", true));
        QVERIFY(pm.setEnabled("dce", true));
        QCOMPARE(pm.passes().size(), size_t(2));

        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value c1 = full(b, 1.0);
        const Value c2 = full(b, 1.0);
        make(b, "pd_op.tanh", { x }, { f32() }); // dead
        shadow(b, binary(b, "pd_op.add", c1, c2), "out");

        auto recorder = std::make_shared<PassTimelineRecorder>();
        pm.addInstrumentation(recorder);
        const std::vector<PassRecord> records = pm.run(p, "forward");
        QCOMPARE(records.size(), size_t(2));
        QCOMPARE(records[0].pass, std::string("dead_code_elimination_pass"));
        QCOMPARE(records[0].target, std::string("forward"));
        QCOMPARE(records[0].opsBefore, size_t(6));
        QCOMPARE(records[0].opsAfter, size_t(5));
        // The tanh was op 3 of the walk before the pass.
        QCOMPARE(records[0].removedOps, std::vector<PassOpRef>({ { 3, "pd_op.tanh" } }));
        QVERIFY(records[0].addedOps.empty());
        QVERIFY(records[0].seconds >= 0);
        QCOMPARE(records[1].pass, std::string("common_subexpression_elimination_pass"));
        QCOMPARE(records[1].rewrites, size_t(1));
        QCOMPARE(records[1].removedOps, std::vector<PassOpRef>({ { 2, "pd_op.full" } }));
        QVERIFY(records[1].changed());
        QCOMPARE(pm.log().size(), size_t(2));

        // The recorder's copies: before and after each pass, shared along the run.
        const std::vector<PassTimelineStep> steps = recorder->takeSteps();
        QCOMPARE(steps.size(), size_t(2));
        QCOMPARE(steps[0].target, std::string("forward"));
        QCOMPARE(steps[0].before->load()->program->numOps(), size_t(6));
        QCOMPARE(steps[0].after->load()->program->numOps(), size_t(5));
        QCOMPARE(steps[1].before, steps[0].after);
        QCOMPARE(steps[1].after->load()->program->numOps(), size_t(4));
        QCOMPARE(steps[0].removedOps, records[0].removedOps);
        QCOMPARE(steps[1].rewrites, long(records[1].rewrites));
        QCOMPARE(steps[0].removedOpTexts().size(), size_t(1));
        QVERIFY(QString::fromStdString(steps[0].removedOpTexts()[0]).contains("pd_op.tanh"));
        QVERIFY(QString::fromStdString(steps[1].removedOpTexts()[0]).contains("pd_op.full"));
        // CSE re-pointed the add's operand: the add is edited in place, not added.
        QCOMPARE(steps[1].modifiedOps.size(), size_t(1));
        QCOMPARE(steps[1].modifiedOps[0].name, std::string_view("pd_op.add"));
        QVERIFY(QString::fromStdString(steps[1].modifiedOpTexts()[0]).contains("pd_op.add"));

        pm.setEnabled("cse", false);
        QVERIFY(pm.removeInstrumentation(recorder.get()));
        QVERIFY(!pm.removeInstrumentation(recorder.get()));
        const std::vector<PassRecord> again = pm.run(p);
        QCOMPARE(again.size(), size_t(1));
        QVERIFY(!again[0].changed());
        QVERIFY(recorder->takeSteps().empty()); // removed: saw nothing more
        QCOMPARE(pm.log().size(), size_t(3));
    }

    /// The callbacks come in order around each pass, an unimplemented pass included; the IR
    /// printer writes Paddle's IRPrinting banners.
    void instrumentationOrderAndIrPrinter()
    {
        struct Trace : PassInstrumentation
        {
            QStringList calls;
            void runBeforePipeline(const Program &, std::string_view t) override
            {
                calls << "pipeline " + QString::fromUtf8(t.data(), int(t.size()));
            }
            void runBeforePass(const Pass &pass, const Program &, std::string_view) override
            {
                calls << "before " + QString::fromUtf8(pass.alias().data(), int(pass.alias().size()));
            }
            void runAfterPass(const Pass &, const Program &, const PassRecord &r) override
            {
                calls << QStringLiteral("after %1 %2").arg(QString::fromStdString(r.pass)).arg(r.implemented);
            }
            void runAfterPipeline(const Program &, std::string_view) override { calls << "end"; }
        };
        PassManager pm;
        pm.addPass(std::make_unique<DeadCodeElimination>());
        pm.addPass(std::make_unique<UnimplementedPass>("build_cinn_pass", "a CINN pass"));
        auto trace = std::make_shared<Trace>();
        pm.addInstrumentation(trace);
        std::ostringstream printed;
        pm.addInstrumentation(std::make_shared<PassIrPrinter>(printed));

        Program p;
        Builder b(p);
        make(b, "pd_op.tanh", { data(b, "x") }, { f32() }); // dead
        const std::vector<PassRecord> records = pm.run(p, "main");
        QCOMPARE(trace->calls,
            QStringList({ "pipeline main", "before dce", "after dead_code_elimination_pass 1",
                "before build_cinn_pass", "after build_cinn_pass 0", "end" }));
        QCOMPARE(records.size(), size_t(2));
        QVERIFY(!records[1].implemented);
        QVERIFY(!records[1].changed());
        QCOMPARE(records[1].seconds, 0.0);
        const std::string header = "IRPrinting on builtin.module before dead_code_elimination_pass pass";
        const std::string rule = "===" + std::string(header.size() + 10, '-') + "===\n";
        const std::string text = printed.str();
        QVERIFY(text.starts_with(rule + "        " + header + "\n" + rule + "{\n"));
        QVERIFY(text.find("after dead_code_elimination_pass pass") != std::string::npos);
        QVERIFY(text.find("build_cinn_pass") == std::string::npos); // not run: nothing to print
        QVERIFY(text.ends_with("}\n\n\n"));
    }
};

QTEST_GUILESS_MAIN(TestPassManager)
#include "tst_passmanager.moc"
