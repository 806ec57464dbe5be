#include "core/ir/arena.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/diagnostic.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/opnames.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <QtTest>
#include <chrono>

using namespace ps;

namespace {

Type f32(std::vector<int64_t> dims)
{
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

} // namespace

/// The core IR: types, attributes, values, use lists, blocks, regions, clone, erase.
class TestIr : public QObject
{
    Q_OBJECT

private slots:
    void typesAreInterned()
    {
        QCOMPARE(f32({ 2, 3 }), f32({ 2, 3 }));
        QVERIFY(f32({ 2, 3 }) != f32({ 3, 2 }));
        QVERIFY(f32({ 2, 3 }) != Type::denseTensor(DataType::Float16, { 2, 3 }));
        QCOMPARE(Type::vector({ f32({ 1 }), f32({ 2 }) }), Type::vector({ f32({ 1 }), f32({ 2 }) }));
        QCOMPARE(f32({ -1, 3 }).numElements(), int64_t(-1));
        QCOMPARE(f32({ 4, 3 }).byteSize(), int64_t(48));
        QCOMPARE(f32({}).numElements(), int64_t(1));
        QVERIFY(Type().isNull());
        QVERIFY(Type::null().isNull());
        QCOMPARE(Type::opaque("cf.stack").text(), std::string("cf.stack"));
        QCOMPARE(
            Type::denseTensor(DataType::Int64, { 2 }, "NHWC", { { 0, 1, 2 } }, 5).lod().size(), size_t(1));
    }

    void dataTypeSpellings_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("phi");
        QTest::addColumn<QString>("ir");
        QTest::newRow("f32") << int(DataType::Float32) << "float32"
                             << "f32";
        QTest::newRow("bf16") << int(DataType::BFloat16) << "bfloat16"
                              << "bf16";
        QTest::newRow("bool") << int(DataType::Bool) << "bool"
                              << "b";
        QTest::newRow("u8") << int(DataType::UInt8) << "uint8"
                            << "u8";
        QTest::newRow("i64") << int(DataType::Int64) << "int64"
                             << "i64";
        QTest::newRow("c128") << int(DataType::Complex128) << "complex128"
                              << "c128";
    }

    void dataTypeSpellings()
    {
        QFETCH(int, type);
        QFETCH(QString, phi);
        QFETCH(QString, ir);
        const auto t = DataType(type);
        QCOMPARE(QString::fromUtf8(phiName(t).data(), qsizetype(phiName(t).size())), phi);
        QCOMPARE(QString::fromUtf8(irName(t).data(), qsizetype(irName(t).size())), ir);
        QCOMPARE(dataTypeFromPhiName(phi.toStdString()), std::optional<DataType>(t));
        QCOMPARE(dataTypeFromIrName(ir.toStdString()), std::optional<DataType>(t));
        QCOMPARE(dataTypeFromJsonTypeId(jsonTypeId(t)), std::optional<DataType>(t));
    }

    void attributes()
    {
        QCOMPARE(Attribute::int32(3).asInt(), int64_t(3));
        QVERIFY(Attribute::int32(3) != Attribute::int64(3));
        QCOMPARE(Attribute::f32(0.9f).asDouble(), double(0.9f));
        const Attribute nan = Attribute::f64(std::numeric_limits<double>::quiet_NaN());
        QVERIFY(nan == nan);
        Attribute arr = Attribute::array({ Attribute::boolean(true), Attribute::string("x") });
        QCOMPARE(arr.asArray().size(), size_t(2));
        QCOMPARE(arr.asArray()[1].asString(), std::string("x"));
        QCOMPARE(Attribute::intArray({ 1, 2 }), Attribute::intArray({ 1, 2 }));
        QCOMPARE(Attribute::dataType(DataType::Float32).asDataType(), DataType::Float32);
        QCOMPARE(Attribute::unknown("4.a_mesh", "[1]").unknownKindId(), std::string("4.a_mesh"));
        QVERIFY(Attribute().isNull());
    }

    void places_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("cpu") << "Place(cpu)";
        QTest::newRow("gpu") << "Place(gpu:0)";
        QTest::newRow("pinned") << "Place(gpu_pinned)";
        QTest::newRow("undefined") << "Place(undefined:0)";
        QTest::newRow("xpu") << "Place(xpu:3)";
    }

    void places()
    {
        QFETCH(QString, text);
        Place p;
        QVERIFY(Place::parse(text.toStdString(), p));
        QCOMPARE(QString::fromStdString(p.toString()), text);
    }

    void useListsAndReplace()
    {
        Program program;
        Builder b(program);
        Operation *data = b.create("pd_op.data", {}, { f32({ 2 }) }, { { "name", Attribute::string("x") } });
        Value x = data->result(0);
        Operation *relu = b.create("pd_op.relu", { x }, { f32({ 2 }) });
        Operation *add = b.create("pd_op.add", { x, relu->result(0) }, { f32({ 2 }) });
        QCOMPARE(x.useCount(), size_t(2));
        QVERIFY(relu->result(0).hasOneUse());
        QCOMPARE(x.definingOp(), data);
        QCOMPARE(x.parentBlock(), &program.block());

        Operation *other = b.create("pd_op.data", {}, { f32({ 2 }) }, { { "name", Attribute::string("y") } });
        x.replaceAllUsesWith(other->result(0));
        QVERIFY(!x.hasUses());
        QCOMPARE(other->result(0).useCount(), size_t(2));
        QCOMPARE(add->operand(0), other->result(0));

        add->setOperand(1, x);
        QCOMPARE(x.useCount(), size_t(1));
        QVERIFY(!relu->result(0).hasUses());
        program.block().erase(relu);
        QCOMPARE(program.numOps(), size_t(3));
        QCOMPARE(program.block().indexOf(add), long(1));

        add->setOperands(program.arena(), std::vector<Value> { x, x, other->result(0) });
        QCOMPARE(add->numOperands(), 3u);
        QCOMPARE(x.useCount(), size_t(2));
        QCOMPARE(other->result(0).useCount(), size_t(1));
    }

    void attributeEditing()
    {
        Program program;
        Builder b(program);
        Operation *op
            = b.create("builtin.shadow_output", {}, {}, { { "output_name", Attribute::string("a") } });
        QCOMPARE(op->stringAttribute("output_name"), std::string("a"));
        op->setAttribute("output_name", Attribute::string("b"));
        QCOMPARE(op->attributes().size(), size_t(1));
        QCOMPARE(op->stringAttribute("output_name"), std::string("b"));
        QVERIFY(op->removeAttribute("output_name"));
        QVERIFY(!op->hasAttribute("output_name"));
        QCOMPARE(op->dialect(), std::string_view("builtin"));
        QCOMPARE(op->shortName(), std::string_view("shadow_output"));
    }

    void opNamesAreInterned()
    {
        const std::string spelling = "pd_op.conv2d_transpose";
        const std::string_view a = internOpName(spelling);
        QCOMPARE(a, std::string_view(spelling));
        QVERIFY(a.data() != spelling.data());
        QCOMPARE(internOpName(a).data(), a.data()); // an interned view comes back as is
        QCOMPARE(internOpName(std::string("pd_op.conv2d_transpose")).data(), a.data());
        // A prefix of an interned name starts at the same address but is a name of its own.
        const std::string_view prefix = internOpName(a.substr(0, 12));
        QCOMPARE(prefix, std::string_view("pd_op.conv2d"));
        QCOMPARE(internOpName(prefix).data(), prefix.data());
        QCOMPARE(internOpName(a).size(), spelling.size());
    }

    void createMovesAttributesFromASpan()
    {
        Program program;
        std::vector<NamedAttribute> buffer { { "a_long_attribute_name",
                                                 Attribute::string(std::string(40, 'x')) },
            { "b", Attribute::array({ Attribute::int32(1), Attribute::int32(2) }) }, { "c", Attribute() } };
        const std::vector<NamedAttribute> expected = buffer;
        const Type t = f32({ 2 });
        Operation *op = Operation::create(
            program.arena(), "pd_op.foo", {}, std::span(&t, 1), std::span<NamedAttribute>(buffer), 0);
        program.block().push_back(op);
        QCOMPARE(op->attributes().size(), size_t(3));
        for (size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(op->attributes()[i], expected[i]);
        QVERIFY(buffer[0].value.isNull()); // moved out (a moved-from attribute is Null), not copied
        QCOMPARE(buffer.size(), size_t(3));

        // Clones share the list until one of them changes it.
        IrMapping mapping;
        Operation *copy = op->clone(program.arena(), mapping);
        program.block().push_back(copy);
        copy->setAttribute("c", Attribute::boolean(true));
        QCOMPARE(*copy->attribute("c"), Attribute::boolean(true));
        QCOMPARE(*op->attribute("c"), Attribute());
        QCOMPARE(copy->attributes()[0], expected[0]);

        Operation *none
            = Operation::create(program.arena(), "pd_op.bar", {}, {}, std::span<NamedAttribute>(), 0);
        program.block().push_back(none);
        QVERIFY(none->attributes().empty());
    }

    void regionsKwargsAndClone()
    {
        Program program;
        Builder b(program);
        Value kw = program.block().addKwarg("x", f32({ 4 }));
        Operation *cond = b.create("pd_op.full", {}, { Type::denseTensor(DataType::Bool, { 1 }) });
        Operation *loop = b.create("pd_op.while", { cond->result(0), kw }, { f32({ 4 }) }, {}, 1);
        QCOMPARE(loop->region(0).program(), &program);
        Block &body = loop->region(0).addBlock();
        Value arg = body.addArgument(f32({ 4 }));
        Builder inner(program);
        inner.setInsertionPointToEnd(body);
        Operation *relu = inner.create("pd_op.relu", { arg }, { f32({ 4 }) });
        inner.create("cf.yield", { cond->result(0), relu->result(0) }, {});
        b.create("builtin.shadow_output", { loop->result(0) }, {},
            { { "output_name", Attribute::string("out") } });

        QCOMPARE(program.numOps(), size_t(3));
        QCOMPARE(program.numOpsTotal(), size_t(5));
        QCOMPARE(program.numValues(), size_t(5)); // kwarg, cond, loop result, arg, relu
        QCOMPARE(relu->parentOp(), loop);
        QCOMPARE(arg.parentBlock(), &body);
        QCOMPARE(program.block().kwarg("x"), kw);

        IrMapping mapping;
        auto copy = program.clone(&mapping);
        QCOMPARE(copy->numOpsTotal(), size_t(5));
        QVERIFY(mapping.lookup(kw) != kw);
        QCOMPARE(mapping.lookup(kw).keyword(), std::string("x"));
        Operation *loopCopy = copy->block().op(1);
        QCOMPARE(loopCopy->name(), std::string_view("pd_op.while"));
        QCOMPARE(loopCopy->operand(1), copy->block().kwarg("x"));
        Block &bodyCopy = loopCopy->region(0).block(0);
        QCOMPARE(bodyCopy.op(0)->operand(0), bodyCopy.argument(0));
        QCOMPARE(bodyCopy.op(1)->operand(0), copy->block().op(0)->result(0));

        QVERIFY(!program.block().eraseKwarg("missing"));
        Value kw2 = program.block().addKwarg("y", f32({ 4 }));
        kw.replaceAllUsesWith(kw2);
        QVERIFY(program.block().eraseKwarg("x"));
        QCOMPARE(program.block().numKwargs(), size_t(1));
        QCOMPARE(program.block().kwargAt(0).index(), 0u);
    }

    void insertionPointKeepsOrder()
    {
        Program program;
        Builder b(program);
        b.create("a.first", {}, {});
        b.create("a.last", {}, {});
        b.setInsertionPoint(program.block(), 1);
        b.create("a.second", {}, {});
        b.create("a.third", {}, {});
        QCOMPARE(program.block().op(1)->name(), std::string_view("a.second"));
        QCOMPARE(program.block().op(2)->name(), std::string_view("a.third"));
        QCOMPARE(program.block().op(3)->name(), std::string_view("a.last"));
        const size_t erased = program.block().eraseIf([](Operation *op) { return op->name() != "a.last"; });
        QCOMPARE(erased, size_t(3));
        QCOMPARE(program.numOps(), size_t(1));
    }

    void diagnostics()
    {
        DiagnosticList list;
        SourceLocation loc;
        loc.file = "m.txt";
        loc.line = 3;
        loc.column = 14;
        list.warning(loc, "type mismatch");
        QVERIFY(!list.hasErrors());
        list.error(loc, "undefined value %9");
        QCOMPARE(list.errorCount(), size_t(1));
        QCOMPARE(QString::fromStdString(list.firstError()->toString()),
            QStringLiteral("m.txt:3:14: error: undefined value %9"));
        SourceLocation json;
        json.file = "m.json";
        json.jsonPath = "program.regions[0]";
        QCOMPARE(QString::fromStdString(json.toString()), QStringLiteral("m.json: at program.regions[0]"));
    }

    void largeProgramBuildsQuickly()
    {
        // 100k ops in a chain: exercises the arena and use lists at scale (no timing assertion).
        Program program;
        Builder b(program);
        Value v = b.create("pd_op.data", {}, { f32({ 8 }) })->result(0);
        for (int i = 0; i < 100000; ++i)
            v = b.create("pd_op.relu", { v }, { f32({ 8 }) })->result(0);
        QCOMPARE(program.numOps(), size_t(100001));
        QVERIFY(program.arena().bytesAllocated() > 100000 * sizeof(Operation));
        auto copy = program.clone();
        QCOMPARE(copy->numOps(), size_t(100001));
    }
};

QTEST_GUILESS_MAIN(TestIr)
#include "tst_ir.moc"
