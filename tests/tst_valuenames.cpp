#include "core/analysis/valuenames.h"
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
    return Type::denseTensor(DataType::Float32, { 2, 3 });
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

Operation *shadow(Builder &b, Value v, const char *name)
{
    return make(b, "builtin.shadow_output", { v }, {}, { str("output_name", name) });
}

Operation *setParameter(Builder &b, Value v, const char *name)
{
    return make(b, "builtin.set_parameter", { v }, {}, { str("parameter_name", name) });
}

QStringList names(const std::vector<std::string> &v)
{
    QStringList out;
    for (const std::string &s : v)
        out << QString::fromStdString(s);
    return out;
}

} // namespace

/// Paddle's name analysis: input names, output names, first name.
class TestValueNames : public QObject
{
    Q_OBJECT

private slots:
    void sourceText_data()
    {
        QTest::addColumn<int>("source");
        QTest::addColumn<QString>("text");
        QTest::newRow("data") << int(NameSource::Data) << "data";
        QTest::newRow("parameter") << int(NameSource::Parameter) << "parameter";
        QTest::newRow("shadow") << int(NameSource::ShadowOutput) << "shadow_output";
        QTest::newRow("setparam") << int(NameSource::SetParameter) << "set_parameter";
        QTest::newRow("kwarg") << int(NameSource::Kwarg) << "kwarg";
        QTest::newRow("blockarg") << int(NameSource::BlockArg) << "block_arg";
        QTest::newRow("constant") << int(NameSource::Constant) << "constant";
    }

    void sourceText()
    {
        QFETCH(int, source);
        QFETCH(QString, text);
        const std::string_view sv = nameSourceText(NameSource(source));
        QCOMPARE(QString::fromUtf8(sv.data(), qsizetype(sv.size())), text);
    }

    void inputNames()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        Operation *paramOp
            = make(b, "builtin.parameter", {}, { f32() }, { str("parameter_name", "linear_0.w_0") });
        const Value w = paramOp->result(0);
        const Value c
            = make(b, "builtin.constant", {}, { f32() }, { { "value", Attribute::tensorName("const_t") } })
                  ->result(0);
        const Value scalarConst
            = make(b, "builtin.constant", {}, { f32() }, { { "value", Attribute::f32(1.0f) } })->result(0);
        const Value y = make(b, "pd_op.matmul", { x, w }, { f32() })->result(0);
        const Value kw = p.block().addKwarg("grad_in", f32());
        const Value arg0 = p.block().addArgument(f32());
        const Value arg1 = p.block().addArgument(f32());

        auto in = ValueNames::inputName(x);
        QVERIFY(in.has_value());
        QCOMPARE(in->name, std::string("x"));
        QCOMPARE(in->source, NameSource::Data);
        QCOMPARE(in->op, x.definingOp());

        in = ValueNames::inputName(w);
        QVERIFY(in.has_value());
        QCOMPARE(in->name, std::string("linear_0.w_0"));
        QCOMPARE(in->source, NameSource::Parameter);
        QCOMPARE(in->op, paramOp);

        in = ValueNames::inputName(c);
        QVERIFY(in.has_value());
        QCOMPARE(in->name, std::string("const_t"));
        QCOMPARE(in->source, NameSource::Constant);

        QVERIFY(!ValueNames::inputName(scalarConst).has_value());
        QVERIFY(!ValueNames::inputName(y).has_value());
        QVERIFY(!ValueNames::inputName(Value()).has_value());

        in = ValueNames::inputName(kw);
        QVERIFY(in.has_value());
        QCOMPARE(in->name, std::string("grad_in"));
        QCOMPARE(in->source, NameSource::Kwarg);
        QVERIFY(in->op == nullptr);

        QCOMPARE(ValueNames::inputName(arg0)->name, std::string("arg_0"));
        QCOMPARE(ValueNames::inputName(arg1)->name, std::string("arg_1"));
        QCOMPARE(ValueNames::inputName(arg1)->source, NameSource::BlockArg);
    }

    void outputNamesInUseListOrder()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        Operation *s1 = shadow(b, y, "out_a");
        Operation *sp = setParameter(b, y, "param_b");
        make(b, "pd_op.scale", { y }, { f32() });
        Operation *s2 = shadow(b, y, "out_c");

        // Paddle walks the use list, which holds the most recent use first.
        const std::vector<ValueName> out = ValueNames::outputNames(y);
        QCOMPARE(out.size(), size_t(3));
        QCOMPARE(out[0].name, std::string("out_c"));
        QCOMPARE(out[0].op, s2);
        QCOMPARE(out[1].name, std::string("param_b"));
        QCOMPARE(out[1].source, NameSource::SetParameter);
        QCOMPARE(out[1].op, sp);
        QCOMPARE(out[2].name, std::string("out_a"));
        QCOMPARE(out[2].source, NameSource::ShadowOutput);
        QCOMPARE(out[2].op, s1);

        QCOMPARE(names(ValueNames::allNameStrings(y)), QStringList({ "out_c", "param_b", "out_a" }));
        QCOMPARE(ValueNames::firstName(y).value_or("?"), std::string("out_c"));
        QVERIFY(!ValueNames::hasOnlyOneName(y));
    }

    void allNamesPutInputFirst()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        shadow(b, x, "x_out");
        QCOMPARE(names(ValueNames::allNameStrings(x)), QStringList({ "x", "x_out" }));
        QCOMPARE(ValueNames::allNames(x)[0].source, NameSource::Data);
        QCOMPARE(ValueNames::allNames(x)[1].source, NameSource::ShadowOutput);
        QCOMPARE(ValueNames::firstName(x).value_or("?"), std::string("x"));
        QCOMPARE(valueNameOrEmpty(x), std::string("x"));
    }

    void unnamedAndNull()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        make(b, "pd_op.fetch", { y }, { f32() }, { str("name", "fetch0") });
        QVERIFY(ValueNames::allNames(y).empty());
        QVERIFY(!ValueNames::firstName(y).has_value());
        QCOMPARE(valueNameOrEmpty(y), std::string());
        QCOMPARE(valueNameOrEmpty(Value()), std::string());
        QVERIFY(ValueNames::hasOnlyOneName(y));
        QVERIFY(ValueNames::hasOnlyOneName(Value()));
    }

    void sameNameTwiceIsOneName()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        shadow(b, x, "x");
        QVERIFY(ValueNames::hasOnlyOneName(x));
        QCOMPARE(ValueNames::allNames(x).size(), size_t(2));
    }

    void missingOrNonStringAttributesGiveNoName()
    {
        Program p;
        Builder b(p);
        const Value x = make(b, "pd_op.data", {}, { f32() }, {})->result(0);
        const Value w
            = make(b, "builtin.parameter", {}, { f32() }, { { "parameter_name", Attribute::int32(3) } })
                  ->result(0);
        make(b, "builtin.shadow_output", { x }, {}, {});
        make(b, "builtin.set_parameter", { w }, {}, { { "parameter_name", Attribute::boolean(true) } });
        QVERIFY(ValueNames::allNames(x).empty());
        QVERIFY(ValueNames::allNames(w).empty());
    }

    void nestedBlockArgumentsAndOps()
    {
        Program p;
        Builder b(p);
        const Value cond = data(b, "cond");
        const Value x = data(b, "x");
        Operation *loop = make(b, "pd_op.while", { cond, x }, { f32() }, {}, 1);
        Block &body = loop->region(0).addBlock();
        const Value arg = body.addArgument(f32());
        Builder inner(p);
        inner.setInsertionPointToEnd(body);
        const Value inside = data(inner, "inner_x");
        const Value sum = make(inner, "pd_op.add", { arg, inside }, { f32() })->result(0);
        shadow(inner, sum, "inner_out");
        make(inner, "cf.yield", { cond, sum }, {});

        QCOMPARE(valueNameOrEmpty(arg), std::string("arg_0"));
        QCOMPARE(valueNameOrEmpty(inside), std::string("inner_x"));
        QCOMPARE(valueNameOrEmpty(sum), std::string("inner_out"));
        QCOMPARE(valueNameOrEmpty(loop->result(0)), std::string());
    }

    void namesFollowReplaceAllUses()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        shadow(b, y, "out");
        const Value z = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        y.replaceAllUsesWith(z);
        QVERIFY(ValueNames::allNames(y).empty());
        QCOMPARE(valueNameOrEmpty(z), std::string("out"));
    }
};

QTEST_GUILESS_MAIN(TestValueNames)
#include "tst_valuenames.moc"
