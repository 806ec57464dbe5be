#include "core/analysis/verifier.h"
#include "core/io/pirjsonreader.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <QtTest>
#include <filesystem>

using namespace ps;

namespace {

Type f32()
{
    return Type::denseTensor(DataType::Float32, { 2, 2 });
}

Type boolean()
{
    return Type::denseTensor(DataType::Bool, { 1 });
}

Operation *make(Builder &b, std::string_view name, std::vector<Value> operands, std::vector<Type> results,
    std::vector<NamedAttribute> attrs = {}, unsigned regions = 0)
{
    return b.create(
        name, std::span<const Value>(operands), std::span<const Type>(results), std::move(attrs), regions);
}

Value data(Builder &b, const char *name, Type type = f32())
{
    return make(b, "pd_op.data", {}, { type }, { { "name", Attribute::string(name) } })->result(0);
}

/// Builds a block's ops through a builder positioned at its end.
Builder into(Program &p, Block &block)
{
    Builder b(p);
    b.setInsertionPointToEnd(block);
    return b;
}

QString text(const DiagnosticList &d)
{
    return QString::fromStdString(d.toString());
}

size_t warnings(const DiagnosticList &d)
{
    size_t n = 0;
    for (const Diagnostic &x : d.items())
        n += x.severity == Diagnostic::Severity::Warning;
    return n;
}

/// `if (cond) { yield a } else { yield b }` with one result; returns the if op.
Operation *makeIf(Program &p, Builder &b, Value cond, Value a, Value bv)
{
    Operation *ifOp = make(b, "pd_op.if", { cond }, { f32() }, {}, 2);
    Builder t = into(p, ifOp->region(0).addBlock());
    make(t, "cf.yield", { make(t, "pd_op.relu", { a }, { f32() })->result(0) }, {});
    Builder f = into(p, ifOp->region(1).addBlock());
    make(f, "cf.yield", { bv }, {});
    return ifOp;
}

std::vector<std::string> sampleJsonFiles()
{
    std::vector<std::string> files;
    const std::filesystem::path dir = PIRSCOPE_SAMPLES_DIR "/json";
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

/// verify(): undefined values, dominance, arity, regions, control flow (yield types, conditions),
/// null operands; verifyBeforeUse(), the gate in front of running, splitting, passes and drawing.
class TestVerifier : public QObject
{
    Q_OBJECT

private slots:
    void cleanProgramHasNoDiagnostics()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value w
            = make(b, "builtin.parameter", {}, { f32() }, { { "parameter_name", Attribute::string("w") } })
                  ->result(0);
        const Value y = make(b, "pd_op.matmul", { x, w }, { f32() })->result(0);
        const Value axis = make(b, "pd_op.full", {}, { f32() })->result(0);
        const Value list
            = make(b, "builtin.combine", { x, y, y }, { Type::vector({ f32(), f32(), f32() }) })->result(0);
        const Value cat = make(b, "pd_op.concat", { list, axis }, { f32() })->result(0);
        const Value cond = data(b, "cond", boolean());
        Operation *ifOp = makeIf(p, b, cond, cat, x);
        make(b, "builtin.shadow_output", { ifOp->result(0) }, {},
            { { "output_name", Attribute::string("out") } });
        const DiagnosticList d = verify(p);
        QVERIFY2(d.empty(), qPrintable(text(d)));
    }

    void useBeforeDefinitionInSameBlock()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        Operation *later = make(b, "pd_op.relu", { x }, { f32() });
        b.setInsertionPoint(p.block(), 1);
        make(b, "pd_op.tanh", { later->result(0) }, { f32() });
        const DiagnosticList d = verify(p);
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(d[0].message,
            std::string("op #1 (pd_op.tanh): operand #0 uses %2 before its definition by op #2 "
                        "(pd_op.relu)"));
    }

    void valueFromSiblingRegion()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value cond = data(b, "cond", boolean());
        Operation *ifOp = make(b, "pd_op.if", { cond }, { f32() }, {}, 2);
        Builder t = into(p, ifOp->region(0).addBlock());
        const Value inTrue = make(t, "pd_op.relu", { x }, { f32() })->result(0);
        make(t, "cf.yield", { inTrue }, {});
        Builder f = into(p, ifOp->region(1).addBlock());
        make(f, "cf.yield", { inTrue }, {});
        const DiagnosticList d = verify(p);
        QCOMPARE(d.errorCount(), size_t(1));
        QVERIFY2(d[0].message.find(
                     "op #2/r1/#0 (cf.yield): operand #0 uses %3, defined by op #2/r0/#0 (pd_op.relu) "
                     "in a region that does not enclose it")
                != std::string::npos,
            d[0].message.c_str());
    }

    void resultOfEnclosingOpUsedInside()
    {
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond", boolean());
        Operation *ifOp = make(b, "pd_op.if", { cond }, { f32() }, {}, 2);
        Builder t = into(p, ifOp->region(0).addBlock());
        make(t, "cf.yield", { ifOp->result(0) }, {});
        Builder f = into(p, ifOp->region(1).addBlock());
        make(f, "cf.yield", { ifOp->result(0) }, {});
        const DiagnosticList d = verify(p);
        QCOMPARE(d.errorCount(), size_t(2));
        QVERIFY(d[0].message.find("before its definition by op #1 (pd_op.if)") != std::string::npos);
    }

    void valueFromAnotherProgram()
    {
        Program other;
        Builder ob(other);
        const Value foreign = data(ob, "foreign");
        Program p;
        Builder b(p);
        make(b, "pd_op.relu", { foreign }, { f32() });
        const DiagnosticList d = verify(p);
        QCOMPARE(d.errorCount(), size_t(1));
        QVERIFY2(d[0].message.find(
                     "op #0 (pd_op.relu): operand #0 uses %1, whose defining op is not in the program")
                != std::string::npos,
            d[0].message.c_str());
    }

    void blockArgumentScope()
    {
        Program other; // outlives p, whose op ends up using one of its values
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond", boolean());
        const Value x = data(b, "x");
        Operation *loop = make(b, "pd_op.while", { cond, x }, { f32() }, {}, 1);
        Block &body = loop->region(0).addBlock();
        const Value arg = body.addArgument(f32());
        Builder in = into(p, body);
        Operation *innerIf = make(in, "pd_op.if", { cond }, {}, {}, 2);
        Builder t = into(p, innerIf->region(0).addBlock());
        make(t, "pd_op.relu", { arg }, { f32() }); // a body argument seen from a nested region: fine
        innerIf->region(1).addBlock();
        make(in, "cf.yield", { cond, arg }, {});
        QVERIFY2(verify(p).empty(), qPrintable(text(verify(p))));

        make(b, "pd_op.relu", { arg }, { f32() }); // outside the loop: error
        const DiagnosticList d = verify(p);
        QCOMPARE(d.errorCount(), size_t(1));
        QVERIFY2(d[0].message.find(
                     "op #3 (pd_op.relu): operand #0 uses %arg_0, a block argument of a block that does "
                     "not enclose it")
                != std::string::npos,
            d[0].message.c_str());

        const Value foreignArg = other.block().addArgument(f32());
        make(b, "pd_op.relu", { foreignArg }, { f32() });
        QVERIFY(text(verify(p)).contains("a block argument of a block that is not in the program"));
    }

    void arity_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("operands");
        QTest::addColumn<int>("results");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ok") << "pd_op.relu" << 1 << 1 << "";
        QTest::newRow("operands") << "pd_op.relu" << 2 << 1 << "has 2 operands, expected 1 (x)";
        QTest::newRow("results") << "pd_op.matmul" << 2 << 2 << "has 2 results, expected 1 (out)";
        QTest::newRow("no operands") << "pd_op.matmul" << 0 << 1 << "has 0 operands, expected 2 (x, y)";
        QTest::newRow("param") << "builtin.parameter" << 1 << 1 << "has 1 operand, expected 0";
        QTest::newRow("unknown op") << "my_dialect.custom" << 5 << 3 << "";
        QTest::newRow("variadic") << "builtin.combine" << 4 << 1 << "";
        QTest::newRow("split") << "builtin.split" << 1 << 7 << "";
        QTest::newRow("regions") << "pd_op.relu" << 1 << 1 << "has 1 region, expected 0";
    }

    void arity()
    {
        QFETCH(QString, op);
        QFETCH(int, operands);
        QFETCH(int, results);
        QFETCH(QString, expected);
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const unsigned regions = QByteArray(QTest::currentDataTag()) == "regions" ? 1 : 0;
        Operation *o = make(b, op.toStdString(), std::vector<Value>(size_t(operands), x),
            std::vector<Type>(size_t(results), f32()), {}, regions);
        if (regions)
            o->region(0).addBlock();
        const DiagnosticList d = verify(p);
        if (expected.isEmpty()) {
            QVERIFY2(d.empty(), qPrintable(text(d)));
            return;
        }
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(QString::fromStdString(d[0].message), "op #1 (" + op + "): " + expected);

        VerifyOptions noArity;
        noArity.checkArity = false;
        QVERIFY(!verify(p, noArity).hasErrors());
    }

    void mutableAttributeKeptAsAttribute()
    {
        // Paddle 2.6 printed `pd_op.mean (%x) {axis:(pd_op.IntArray)[]}`; newer Paddle makes
        // the IntArray an operand. Both are valid; a missing axis in both places is not.
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        make(b, "pd_op.mean", { x }, { f32() }, { { "axis", Attribute::intArray({}) } });
        const Value axis = make(b, "pd_op.full_int_array", {}, { f32() })->result(0);
        make(b, "pd_op.mean", { x, axis }, { f32() });
        QVERIFY2(verify(p).empty(), qPrintable(text(verify(p))));
        make(b, "pd_op.mean", { x }, { f32() });
        const DiagnosticList d = verify(p);
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(d[0].message, std::string("op #4 (pd_op.mean): has 1 operand, expected 2 (x, axis)"));
    }

    void regionWithoutBlock()
    {
        Program p;
        Builder b(p);
        make(b, "my.op", {}, {}, {}, 2)->region(0).addBlock();
        const DiagnosticList d = verify(p);
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(d[0].message, std::string("op #0 (my.op): region #1 has no block"));
    }

    void ifStructure_data()
    {
        QTest::addColumn<int>("regions");
        QTest::addColumn<int>("results");
        QTest::addColumn<QString>("falseBranch"); // "yield1", "yield0", "relu", "empty", "none", "two"
        QTest::addColumn<QString>("expected");
        QTest::newRow("ok") << 2 << 1 << "yield1"
                            << "";
        QTest::newRow("no results, empty branch") << 2 << 0 << "empty"
                                                  << "";
        QTest::newRow("one region") << 1 << 1 << "yield1"
                                    << "has 1 region, expected 2";
        QTest::newRow("missing yield") << 2 << 1 << "relu"
                                       << "region #1 ends with pd_op.relu, not cf.yield";
        QTest::newRow("empty branch") << 2 << 1 << "empty"
                                      << "region #1 is empty; it must end with cf.yield";
        QTest::newRow("yield count") << 2 << 1 << "yield0"
                                     << "region #1 yields 0 values, expected 1";
        QTest::newRow("no block") << 2 << 1 << "none"
                                  << "region #1 has no block";
        QTest::newRow("two blocks") << 2 << 1 << "two"
                                    << "region #1 has 2 blocks, expected 1";
    }

    void ifStructure()
    {
        QFETCH(int, regions);
        QFETCH(int, results);
        QFETCH(QString, falseBranch);
        QFETCH(QString, expected);
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond", boolean());
        const Value x = data(b, "x");
        Operation *ifOp
            = make(b, "pd_op.if", { cond }, std::vector<Type>(size_t(results), f32()), {}, unsigned(regions));
        Builder t = into(p, ifOp->region(0).addBlock());
        if (results)
            make(t, "cf.yield", { x }, {});
        if (regions == 2) {
            Region &r = ifOp->region(1);
            if (falseBranch != "none") {
                Builder f = into(p, r.addBlock());
                if (falseBranch == "yield1" || falseBranch == "two")
                    make(f, "cf.yield", { x }, {});
                else if (falseBranch == "yield0")
                    make(f, "cf.yield", {}, {});
                else if (falseBranch == "relu")
                    make(f, "pd_op.relu", { x }, { f32() });
                if (falseBranch == "two")
                    r.addBlock();
            }
        }
        const DiagnosticList d = verify(p);
        if (expected.isEmpty()) {
            QVERIFY2(d.empty(), qPrintable(text(d)));
            return;
        }
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(QString::fromStdString(d[0].message), "op #2 (pd_op.if): " + expected);
    }

    void whileStructure_data()
    {
        QTest::addColumn<int>("loopVars");
        QTest::addColumn<int>("results");
        QTest::addColumn<int>("args");
        QTest::addColumn<int>("yielded");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ok") << 2 << 2 << 2 << 3 << "";
        QTest::newRow("results")
            << 2 << 1 << 1 << 3
            << "has 3 operands and 1 result; a while takes the condition plus one operand per "
               "result";
        QTest::newRow("args") << 2 << 2 << 1 << 3
                              << "body block has 1 argument, expected 2 (one per loop variable)";
        QTest::newRow("yield") << 2 << 2 << 2 << 2 << "region #0 yields 2 values, expected 3";
        QTest::newRow("empty body") << 1 << 1 << 1 << -1 << "region #0 is empty; it must end with cf.yield";
    }

    void whileStructure()
    {
        QFETCH(int, loopVars);
        QFETCH(int, results);
        QFETCH(int, args);
        QFETCH(int, yielded);
        QFETCH(QString, expected);
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond", boolean());
        const Value x = data(b, "x");
        std::vector<Value> operands { cond };
        for (int i = 0; i < loopVars; ++i)
            operands.push_back(x);
        Operation *loop = make(b, "pd_op.while", operands, std::vector<Type>(size_t(results), f32()), {}, 1);
        Block &body = loop->region(0).addBlock();
        for (int i = 0; i < args; ++i)
            body.addArgument(f32());
        if (yielded >= 0) {
            Builder in = into(p, body);
            std::vector<Value> ys { cond };
            while (int(ys.size()) < yielded)
                ys.push_back(x);
            ys.resize(size_t(yielded));
            make(in, "cf.yield", ys, {});
        }
        const DiagnosticList d = verify(p);
        if (expected.isEmpty()) {
            QVERIFY2(d.empty(), qPrintable(text(d)));
            return;
        }
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(QString::fromStdString(d[0].message), "op #2 (pd_op.while): " + expected);
    }

    void yieldTypes_data()
    {
        QTest::addColumn<int>("dtype"); // DataType of the false branch's value
        QTest::addColumn<QList<qint64>>("dims");
        QTest::addColumn<QList<qint64>>("declared"); // the if's result dims (float32)
        QTest::addColumn<QString>("expected");
        const QList<qint64> d22 { 2, 2 };
        QTest::newRow("same") << int(DataType::Float32) << d22 << d22 << "";
        QTest::newRow("dynamic value") << int(DataType::Float32) << QList<qint64> { -1, 2 } << d22 << "";
        QTest::newRow("dynamic result") << int(DataType::Float32) << d22 << QList<qint64> { 2, -1 } << "";
        QTest::newRow("0-d for [1]") << int(DataType::Float32) << QList<qint64> {} << QList<qint64> { 1 }
                                     << "";
        QTest::newRow("dtype") << int(DataType::Int64) << d22 << d22
                               << "region #1 yields tensor<2x2xi64> (%3) for result #0 (%1), declared "
                                  "tensor<2x2xf32>";
        QTest::newRow("dims") << int(DataType::Float32) << QList<qint64> { 7, 7 } << d22
                              << "region #1 yields tensor<7x7xf32> (%3) for result #0 (%1), declared "
                                 "tensor<2x2xf32>";
        QTest::newRow("rank") << int(DataType::Float32) << QList<qint64> { 4 } << d22
                              << "region #1 yields tensor<4xf32> (%3) for result #0 (%1), declared "
                                 "tensor<2x2xf32>";
    }

    /// Paddle's IfOp: each branch yields values of the if's result types (dynamic dims aside).
    void yieldTypes()
    {
        QFETCH(int, dtype);
        QFETCH(QList<qint64>, dims);
        QFETCH(QList<qint64>, declared);
        QFETCH(QString, expected);
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond", boolean());
        const Type result = Type::denseTensor(DataType::Float32, { declared.begin(), declared.end() });
        Operation *ifOp = make(b, "pd_op.if", { cond }, { result }, {}, 2);
        Builder t = into(p, ifOp->region(0).addBlock());
        make(t, "cf.yield", { make(t, "pd_op.full", {}, { result })->result(0) }, {});
        Builder f = into(p, ifOp->region(1).addBlock());
        const Type other = Type::denseTensor(DataType(dtype), { dims.begin(), dims.end() });
        make(f, "cf.yield", { make(f, "pd_op.full", {}, { other })->result(0) }, {});
        const DiagnosticList d = verify(p);
        if (expected.isEmpty()) {
            QVERIFY2(d.empty(), qPrintable(text(d)));
            return;
        }
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(QString::fromStdString(d[0].message), "op #1 (pd_op.if): " + expected);
    }

    /// A while's body yields the condition and then one value per result, of its type.
    void whileYieldTypes()
    {
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond", boolean());
        const Value x = data(b, "x");
        Operation *loop = make(b, "pd_op.while", { cond, x }, { f32() }, {}, 1);
        Block &body = loop->region(0).addBlock();
        body.addArgument(f32());
        Builder in = into(p, body);
        const Value wide
            = make(in, "pd_op.full", {}, { Type::denseTensor(DataType::Float32, { 3, 2 }) })->result(0);
        make(in, "cf.yield", { cond, wide }, {});
        const DiagnosticList d = verify(p);
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(d[0].message,
            std::string("op #2 (pd_op.while): region #0 yields tensor<3x2xf32> (%3) for result #0 (%2), "
                        "declared tensor<2x2xf32>"));
    }

    void conditions_data()
    {
        QTest::addColumn<QString>("op"); // "if", "while" or "while body" (the yielded condition)
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QList<qint64>>("dims");
        QTest::addColumn<QString>("expected");
        QTest::newRow("if bool 0-d") << "if" << int(DataType::Bool) << QList<qint64> {} << "";
        QTest::newRow("if bool [1]") << "if" << int(DataType::Bool) << QList<qint64> { 1 } << "";
        QTest::newRow("if bool dynamic") << "if" << int(DataType::Bool) << QList<qint64> { -1 } << "";
        QTest::newRow("if float") << "if" << int(DataType::Float32) << QList<qint64> {}
                                  << "op #1 (pd_op.if): the condition %0 is tensor<f32>, expected a "
                                     "one-element bool tensor";
        QTest::newRow("if two bools") << "if" << int(DataType::Bool) << QList<qint64> { 2 }
                                      << "op #1 (pd_op.if): the condition %0 is tensor<2xb>, expected a "
                                         "one-element bool tensor";
        QTest::newRow("while int") << "while" << int(DataType::Int64) << QList<qint64> { 1 }
                                   << "op #1 (pd_op.while): the condition %0 is tensor<1xi64>, expected "
                                      "a one-element bool tensor";
        QTest::newRow("while body float")
            << "while body" << int(DataType::Float32) << QList<qint64> { 1 }
            << "op #1 (pd_op.while): region #0's yielded condition %1 is tensor<1xf32>, expected a "
               "one-element bool tensor";
    }

    /// Paddle's IfOp and WhileOp take a bool scalar, not element 0 of any tensor.
    void conditions()
    {
        QFETCH(QString, op);
        QFETCH(int, dtype);
        QFETCH(QList<qint64>, dims);
        QFETCH(QString, expected);
        Program p;
        Builder b(p);
        const Type condType = Type::denseTensor(DataType(dtype), { dims.begin(), dims.end() });
        const Value given
            = make(b, "pd_op.full", {}, { op == "while body" ? boolean() : condType })->result(0);
        if (op == "if") {
            Operation *ifOp = make(b, "pd_op.if", { given }, {}, {}, 2);
            ifOp->region(0).addBlock();
            ifOp->region(1).addBlock();
        } else {
            Operation *loop = make(b, "pd_op.while", { given }, {}, {}, 1);
            Builder in = into(p, loop->region(0).addBlock());
            const Value again
                = make(in, "pd_op.full", {}, { op == "while" ? boolean() : condType })->result(0);
            make(in, "cf.yield", { again }, {});
        }
        const DiagnosticList d = verify(p);
        if (expected.isEmpty()) {
            QVERIFY2(d.empty(), qPrintable(text(d)));
            return;
        }
        QCOMPARE(d.errorCount(), size_t(1));
        QCOMPARE(QString::fromStdString(d[0].message), expected);
    }

    /// The gate in front of run, split, passes and drawing: errors and a closing note, or nothing.
    void verifyBeforeUseGates()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        make(b, "pd_op.relu", { Value() }, { f32() }); // a warning only
        DiagnosticList kept;
        QVERIFY(verifyBeforeUse(p, "ok.txt", kept));
        QVERIFY(kept.empty());

        make(b, "builtin.shadow_output", {}, {}, { { "output_name", Attribute::string("out") } });
        make(b, "pd_op.fetch", { x, x }, { f32() }, { { "name", Attribute::string("y") } });
        DiagnosticList refused;
        QVERIFY(!verifyBeforeUse(p, "bad.txt", refused));
        QCOMPARE(refused.size(), size_t(3));
        QCOMPARE(refused[0].toString(),
            std::string("bad.txt: error: op #2 (builtin.shadow_output): has 0 operands, expected 1 (x)"));
        QCOMPARE(refused[1].toString(),
            std::string("bad.txt: error: op #3 (pd_op.fetch): has 2 operands, expected 1 (x)"));
        QCOMPARE(refused[2].severity, Diagnostic::Severity::Note);
        QCOMPARE(refused[2].toString(),
            std::string("bad.txt: note: the program does not verify (2 errors); it is not run, split, "
                        "passed or drawn"));
    }

    void nullOperands()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        std::vector<Value> bnIn { x, x, x, Value(), Value() }; // scale and bias are optional
        make(b, "pd_op.batch_norm_", bnIn, std::vector<Type>(6, f32()));
        QVERIFY2(verify(p).empty(), qPrintable(text(verify(p))));

        make(b, "pd_op.relu", { Value() }, { f32() });
        make(b, "builtin.shadow_output", { Value() }, {}, { { "output_name", Attribute::string("fake") } });
        make(b, "my.op", { x, Value() }, {});
        const DiagnosticList d = verify(p);
        QVERIFY2(!d.hasErrors(), qPrintable(text(d)));
        QCOMPARE(warnings(d), size_t(3));
        QCOMPARE(d[0].message,
            std::string("op #2 (pd_op.relu): operand #0 (x) is null but the input is not optional"));
        QCOMPARE(d[1].message,
            std::string("op #3 (builtin.shadow_output): operand #0 (x) is null but the input is "
                        "not optional"));
        QCOMPARE(
            d[2].message, std::string("op #4 (my.op): operand #1 is null but the input is not optional"));

        VerifyOptions quiet;
        quiet.checkNullOperands = false;
        QVERIFY(verify(p, quiet).empty());
    }

    void locations()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        make(b, "pd_op.relu", { x, x }, { f32() });

        VerifyOptions withFile;
        withFile.file = "model.json";
        QCOMPARE(verify(p, withFile)[0].toString(),
            std::string("model.json: error: op #1 (pd_op.relu): has 2 operands, expected 1 (x)"));

        VerifyOptions located;
        located.locator = [&](const Operation *op) {
            SourceLocation loc;
            loc.file = "prog.txt";
            loc.line = int(p.block().indexOf(op)) + 10;
            loc.column = 5;
            return loc;
        };
        QCOMPARE(verify(p, located)[0].toString(),
            std::string("prog.txt:11:5: error: op #1 (pd_op.relu): has 2 operands, expected 1 (x)"));
    }

    void opPaths()
    {
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond", boolean());
        Operation *ifOp = make(b, "pd_op.if", { cond }, {}, {}, 2);
        ifOp->region(0).addBlock();
        Builder f = into(p, ifOp->region(1).addBlock());
        make(f, "pd_op.relu", { cond }, { f32() });
        Operation *inner = make(f, "pd_op.tanh", { cond }, { f32() });
        Builder g = into(p, ifOp->region(1).addBlock());
        Operation *deep = make(g, "pd_op.abs", { cond }, { f32() });
        QCOMPARE(opPath(ifOp), std::string("op #1 (pd_op.if)"));
        QCOMPARE(opPath(inner), std::string("op #1/r1/#1 (pd_op.tanh)"));
        QCOMPARE(opPath(deep), std::string("op #1/r1b1/#0 (pd_op.abs)"));
        // The verifier uses the same paths.
        QVERIFY(text(verify(p)).contains("op #1 (pd_op.if): region #1 has 2 blocks, expected 1"));
    }

    void realSamplesVerify()
    {
        const std::vector<std::string> files = sampleJsonFiles();
        if (files.empty())
            QSKIP("no sample programs in " PIRSCOPE_SAMPLES_DIR "/json");
        size_t ops = 0;
        for (const std::string &file : files) {
            LoadResult loaded = PirJsonReader::readFile(file);
            QVERIFY2(loaded.program, file.c_str());
            const DiagnosticList d = verify(*loaded.program);
            QVERIFY2(!d.hasErrors(), (file + "\n" + d.toString()).c_str());
            ops += loaded.program->numOpsTotal();
        }
        qInfo("%zu files, %zu ops verified", files.size(), ops);
    }
};

QTEST_GUILESS_MAIN(TestVerifier)
#include "tst_verifier.moc"
