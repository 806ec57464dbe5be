#include "core/analysis/valuenamemap.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <QtTest>

using namespace ps;

namespace {

Type f32()
{
    return Type::denseTensor(DataType::Float32, { 4 });
}

NamedAttribute str(const char *name, const char *value)
{
    return { name, Attribute::string(value) };
}

Operation *make(Builder &b, std::string_view name, std::vector<Value> operands, std::vector<Type> results,
    std::vector<NamedAttribute> attrs = {}, unsigned regions = 0)
{
    return b.create(
        name, std::span<const Value>(operands), std::span<const Type>(results), std::move(attrs), regions);
}

Value data(Builder &b, const char *name)
{
    return make(b, "pd_op.data", {}, { f32() }, { str("name", name) })->result(0);
}

Value parameter(Builder &b, const char *name)
{
    return make(b, "builtin.parameter", {}, { f32() }, { str("parameter_name", name) })->result(0);
}

Operation *shadow(Builder &b, Value v, const char *name)
{
    return make(b, "builtin.shadow_output", { v }, {}, { str("output_name", name) });
}

Value relu(Builder &b, Value x)
{
    return make(b, "pd_op.relu", { x }, { f32() })->result(0);
}

/// "name:source" per entry, in map order.
QStringList describe(const ValueNameMap &map)
{
    QStringList out;
    for (const ValueNameEntry &e : map.entries()) {
        const std::string_view src = nameSourceText(e.source);
        out << QString::fromStdString(e.name) + ":" + QString::fromUtf8(src.data(), qsizetype(src.size()));
    }
    return out;
}

} // namespace

/// The 3.0-era `_get_value_name_map_from_program` and its reverse map.
class TestValueNameMap : public QObject
{
    Q_OBJECT

private slots:
    void entriesInDictOrder()
    {
        Program p;
        Builder b(p);
        const Value kw = p.block().addKwarg("out_grad_0", f32());
        const Value x = data(b, "x");
        const Value w = parameter(b, "w");
        const Value y = make(b, "pd_op.add", { x, w }, { f32() })->result(0);
        Operation *sp = make(b, "builtin.set_parameter", { w }, {}, { str("parameter_name", "w_new") });
        Operation *so = shadow(b, y, "output_0");
        const Value unnamed = relu(b, y);

        const ValueNameMap map(p);
        QCOMPARE(describe(map),
            QStringList({ "out_grad_0:kwarg", "x:data", "w_new:set_parameter", "output_0:shadow_output" }));
        QCOMPARE(map.entries()[0].value, kw);
        QCOMPARE(map.entries()[1].value, x);
        QCOMPARE(map.entries()[2].value, w);
        QCOMPARE(map.entries()[2].op, sp);
        QCOMPARE(map.entries()[3].value, y);
        QCOMPARE(map.entries()[3].op, so);
        QVERIFY(map.entries()[0].op == nullptr);

        QCOMPARE(map.name(x).value_or("?"), std::string("x"));
        QCOMPARE(map.name(w).value_or("?"), std::string("w_new"));
        QVERIFY(!map.name(unnamed).has_value());
        QVERIFY(!map.contains(unnamed));
        QVERIFY(map.entry(unnamed) == nullptr);
        QCOMPARE(map.entry(y)->source, NameSource::ShadowOutput);
    }

    void fakeValueIsFakeVar()
    {
        Program p;
        Builder b(p);
        data(b, "x");
        const ValueNameMap map(p);
        QCOMPARE(map.fakeName(), std::string("FakeVar"));
        QVERIFY(map.contains(Value()));
        QCOMPARE(map.name(Value()).value_or("?"), std::string("FakeVar"));
        QVERIFY(map.entry(Value()) == nullptr);
        QCOMPARE(map.entries().size(), size_t(1));
        const std::optional<Value> fake = map.lookup("FakeVar");
        QVERIFY(fake.has_value());
        QVERIFY(fake->isNull());
        QVERIFY(!map.lookup("nope").has_value());
    }

    void nullOperandOverwritesFake()
    {
        Program p;
        Builder b(p);
        data(b, "x");
        shadow(b, Value(), "grad_input_0");
        const ValueNameMap map(p);
        QCOMPARE(map.fakeName(), std::string("grad_input_0"));
        QCOMPARE(map.entries().size(), size_t(2));
        QVERIFY(map.entries()[0].value.isNull());
        QCOMPARE(describe(map), QStringList({ "grad_input_0:shadow_output", "x:data" }));
        QVERIFY(!map.lookup("FakeVar").has_value());
        QVERIFY(map.lookup("grad_input_0")->isNull());
    }

    void laterOpsOverwriteButKeepPosition()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = relu(b, x);
        shadow(b, y, "first");
        shadow(b, x, "x_out");
        shadow(b, y, "second");
        const ValueNameMap map(p);
        QCOMPARE(describe(map), QStringList({ "x_out:shadow_output", "second:shadow_output" }));
        // The reverse map forgets names that were overwritten.
        QVERIFY(!map.lookup("x").has_value());
        QVERIFY(!map.lookup("first").has_value());
        QCOMPARE(*map.lookup("x_out"), x);
        QCOMPARE(*map.lookup("second"), y);
    }

    void reverseLookupLastEntryWins()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "dup");
        const Value y = relu(b, x);
        shadow(b, y, "dup");
        const ValueNameMap map(p);
        QCOMPARE(*map.lookup("dup"), y);
        QCOMPARE(map.name(x).value_or("?"), std::string("dup"));
    }

    void onlyTopLevelAndSkipsBrokenOps()
    {
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond");
        Operation *ifOp = make(b, "pd_op.if", { cond }, { f32() }, {}, 2);
        Builder inner(p);
        inner.setInsertionPointToEnd(ifOp->region(0).addBlock());
        const Value innerX = data(inner, "inner");
        make(inner, "cf.yield", { innerX }, {});
        ifOp->region(1).addBlock();
        make(b, "pd_op.data", {}, { f32() }, {});
        make(b, "builtin.shadow_output", {}, {}, { str("output_name", "no_operand") });
        make(b, "builtin.parameter", {}, {}, { str("parameter_name", "no_result") });

        const ValueNameMap map(p);
        QCOMPARE(describe(map), QStringList({ "cond:data" }));
        QVERIFY(!map.contains(innerX));
        QVERIFY(!map.lookup("inner").has_value());
    }

    void emptyProgram()
    {
        Program p;
        const ValueNameMap map(p);
        QVERIFY(map.entries().empty());
        QCOMPARE(map.name(Value()).value_or("?"), std::string("FakeVar"));
    }
};

QTEST_GUILESS_MAIN(TestValueNameMap)
#include "tst_valuenamemap.moc"
