#include "core/analysis/inplacegroups.h"
#include "core/analysis/unionfind.h"
#include "core/analysis/valuenames.h"
#include "core/io/pirjsonreader.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <QtTest>
#include <filesystem>

using namespace ps;

namespace {

Type f32()
{
    return Type::denseTensor(DataType::Float32, { 8 });
}

NamedAttribute str(const char *name, const char *value)
{
    return { name, Attribute::string(value) };
}

Operation *make(Builder &b, std::string_view name, std::vector<Value> operands, std::vector<Type> results,
    std::vector<NamedAttribute> attrs = {})
{
    return b.create(name, std::span<const Value>(operands), std::span<const Type>(results), std::move(attrs));
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

Value unary(Builder &b, std::string_view name, Value x)
{
    return make(b, name, { x }, { f32() })->result(0);
}

std::string outputName(const Operation *op)
{
    return op->stringAttribute("output_name");
}

} // namespace

/// The seed's UnionFindSet and the 3.0-era deal_inplace_values (groups, renames, kwarg moves).
class TestInplaceGroups : public QObject
{
    Q_OBJECT

private slots:
    void unionFindRootIsSecondArgument()
    {
        Program p;
        Builder b(p);
        const Value a = data(b, "a");
        const Value c = data(b, "c");
        const Value d = data(b, "d");
        const Value e = data(b, "e");
        UnionFind uf;
        QVERIFY(!uf.contains(a));
        QCOMPARE(uf.root(a), a);
        QVERIFY(!uf.contains(a));
        uf.unite(a, c); // a -> c
        QCOMPARE(uf.find(a), c);
        uf.unite(d, a); // d -> root(a) = c
        QCOMPARE(uf.find(d), c);
        uf.unite(c, e); // c -> e: e becomes the root of all
        QCOMPARE(uf.root(a), e);
        QCOMPARE(uf.find(d), e);
        uf.unite(a, d); // same set: no change
        QCOMPARE(uf.find(e), e);
        QCOMPARE(uf.size(), size_t(4));
        QCOMPARE(uf.elements(), std::vector<Value>({ a, c, d, e }));
        uf.unite(Value(), a); // the null value is an ordinary element
        QCOMPARE(uf.find(Value()), e);
        QCOMPARE(uf.elements().back(), Value());
    }

    void registryInplaceInfo()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        std::vector<Value> bnIn { x, x, x, x, x };
        Operation *bn = make(b, "pd_op.batch_norm_", bnIn, { f32(), f32(), f32(), f32(), f32(), f32() });
        Operation *relu = make(b, "pd_op.relu_", { x }, { f32() });
        Operation *plain = make(b, "pd_op.relu", { x }, { f32() });
        Operation *kernel
            = make(b, "pd_kernel.phi_kernel", { x }, { f32() }, { str("op_name", "pd_op.relu_") });

        const std::vector<OpIndexPair> bnPairs = InplaceGroups::registryInplaceInfo(bn);
        QCOMPARE(bnPairs.size(), size_t(2));
        QCOMPARE(bnPairs[0].output, 1); // mean_out <- mean
        QCOMPARE(bnPairs[0].input, 1);
        QCOMPARE(bnPairs[1].output, 2); // variance_out <- variance
        QCOMPARE(bnPairs[1].input, 2);
        QCOMPARE(InplaceGroups::registryInplaceInfo(relu).size(), size_t(1));
        QVERIFY(InplaceGroups::registryInplaceInfo(plain).empty());
        QCOMPARE(InplaceGroups::registryInplaceInfo(kernel).size(), size_t(1));
    }

    void unnamedChainHasNoRootName()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value a = unary(b, "pd_op.relu", x);
        const Value r1 = unary(b, "pd_op.relu_", a);
        const Value r2 = make(b, "pd_op.add_", { r1, x }, { f32() })->result(0);
        const Value other = unary(b, "pd_op.relu", r2);

        const InplaceGroups groups(p);
        QCOMPARE(groups.groups().size(), size_t(1));
        const InplaceGroup &g = groups.groups()[0];
        QCOMPARE(g.root, a); // union(left, right): the operand's root wins
        QVERIFY(!g.rootName.has_value());
        QVERIFY(!g.rootFirstName.has_value());
        QCOMPARE(g.members, std::vector<Value>({ a, r1, r2 }));
        QCOMPARE(g.edges.size(), size_t(2));
        QCOMPARE(g.edges[1].op, r2.definingOp());
        QCOMPARE(groups.groupOf(r1), &g);
        QVERIFY(groups.groupOf(x) == nullptr);
        QVERIFY(groups.groupOf(other) == nullptr);
        QVERIFY(groups.renames().empty());
        QVERIFY(groups.hasName(x));
        QVERIFY(!groups.hasName(a));
    }

    void namedResultBecomesRoot()
    {
        // relu_(x) whose result is shadow-output: has_name(left), so union(x, y) and y is the
        // root. x is named by its data op, y by its own shadow_output: nothing to rename.
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = unary(b, "pd_op.relu_", x);
        Operation *out = shadow(b, y, "output_0");

        const InplaceGroups groups(p);
        QCOMPARE(groups.groups().size(), size_t(1));
        QCOMPARE(groups.groups()[0].root, y);
        QCOMPARE(groups.groups()[0].rootName.value_or("?"), std::string("output_0"));
        QCOMPARE(groups.groups()[0].members, std::vector<Value>({ x, y }));
        QCOMPARE(groups.nameDefiningOp(y), out);
        QCOMPARE(groups.nameDefiningOp(x), x.definingOp());
        QVERIFY(groups.renames().empty());
    }

    void shadowOutputNamedRootRenamesOthers()
    {
        // a = relu(x) is shadow-output as "middle_0"; b = relu_(a) as "out_1". has_name(b), so
        // union(a, b): b is the root and a's shadow_output is renamed to "out_1".
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value a = unary(b, "pd_op.relu", x);
        Operation *sa = shadow(b, a, "middle_0");
        const Value r = unary(b, "pd_op.relu_", a);
        Operation *sr = shadow(b, r, "out_1");

        const InplaceGroups groups(p);
        QCOMPARE(groups.groups().size(), size_t(1));
        const InplaceGroup &g = groups.groups()[0];
        QCOMPARE(g.root, r);
        QCOMPARE(g.rootName.value_or("?"), std::string("out_1"));
        QCOMPARE(g.members, std::vector<Value>({ a, r }));
        QCOMPARE(groups.renames().size(), size_t(1));
        const ShadowOutputRename &rn = groups.renames()[0];
        QCOMPARE(rn.value, a);
        QCOMPARE(rn.op, sa);
        QCOMPARE(rn.from, std::string("middle_0"));
        QCOMPARE(rn.to, std::string("out_1"));

        // Computing does not mutate; apply() does.
        QCOMPARE(outputName(sa), std::string("middle_0"));
        QVERIFY(groups.apply(p));
        QCOMPARE(outputName(sa), std::string("out_1"));
        QCOMPARE(outputName(sr), std::string("out_1"));
    }

    void unnamedResultJoinsNamedOperand()
    {
        // y = relu_(x) is unnamed: union(y, x) keeps x as root; z = relu_(y) is named:
        // union(y, z) makes z the root of all three.
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = unary(b, "pd_op.relu_", x);
        const Value z = unary(b, "pd_op.relu_", y);
        Operation *sz = shadow(b, z, "output_0");
        const InplaceGroups groups(p);
        QCOMPARE(groups.groups().size(), size_t(1));
        QCOMPARE(groups.groups()[0].root, z);
        QCOMPARE(groups.groups()[0].rootName.value_or("?"), std::string("output_0"));
        QCOMPARE(groups.groups()[0].members, std::vector<Value>({ x, y, z }));
        QVERIFY(groups.renames().empty()); // x is named by its data op, not a shadow_output
        QCOMPARE(outputName(sz), std::string("output_0"));
    }

    void unionsInBothDirections()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value t = unary(b, "pd_op.relu", x);
        shadow(b, t, "t_out");
        const Value u = unary(b, "pd_op.relu_", t); // u unnamed: union(u, t) -> root t
        const Value v = unary(b, "pd_op.relu_", u); // v named: union(u, v) -> root(t) -> v
        Operation *sv = shadow(b, v, "v_out");
        const Value w = unary(b, "pd_op.relu_", v); // w unnamed: union(w, v) -> root v

        const InplaceGroups groups(p);
        QCOMPARE(groups.groups().size(), size_t(1));
        const InplaceGroup &g = groups.groups()[0];
        QCOMPARE(g.root, v);
        QCOMPARE(g.rootName.value_or("?"), std::string("v_out"));
        QCOMPARE(g.members, std::vector<Value>({ t, u, v, w }));
        QCOMPARE(groups.renames().size(), size_t(1));
        QCOMPARE(groups.renames()[0].value, t);
        QCOMPARE(groups.renames()[0].from, std::string("t_out"));
        QCOMPARE(groups.renames()[0].to, std::string("v_out"));
        QCOMPARE(outputName(sv), std::string("v_out"));
    }

    void batchNormMeanAndVariance()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value mean = parameter(b, "bn.mean");
        const Value var = parameter(b, "bn.var");
        const Value scale = parameter(b, "bn.scale");
        const Value bias = parameter(b, "bn.bias");
        std::vector<Value> in { x, mean, var, scale, bias };
        Operation *bn = make(b, "pd_op.batch_norm_", in, { f32(), f32(), f32(), f32(), f32(), f32() });
        shadow(b, bn->result(2), "var_out_0");
        const Value act = unary(b, "pd_op.relu_", bn->result(0));

        const InplaceGroups groups(p);
        QCOMPARE(groups.groups().size(), size_t(3));
        // Ordered by first member: mean (param), var (param), then bn.out.
        const InplaceGroup &gm = groups.groups()[0];
        QCOMPARE(gm.root, mean);
        QCOMPARE(gm.rootName.value_or("?"), std::string("bn.mean"));
        QCOMPARE(gm.members, std::vector<Value>({ mean, bn->result(1) }));
        const InplaceGroup &gv = groups.groups()[1];
        QCOMPARE(gv.root, bn->result(2)); // variance_out has a name: union(var, var_out)
        QCOMPARE(gv.rootName.value_or("?"), std::string("var_out_0"));
        QCOMPARE(gv.rootFirstName.value_or("?"), std::string("var_out_0"));
        QCOMPARE(gv.members, std::vector<Value>({ var, bn->result(2) }));
        const InplaceGroup &ga = groups.groups()[2];
        QCOMPARE(ga.root, bn->result(0));
        QCOMPARE(ga.members, std::vector<Value>({ bn->result(0), act }));
        QVERIFY(!ga.rootName.has_value());
        QVERIFY(groups.renames().empty()); // var is named by its parameter op, not a shadow_output
    }

    void rootNameIsTheMapNameNotTheFirstName()
    {
        // value2name[x] is overwritten by the later shadow_output ("x_alias"); the name
        // analysis' first name stays the data name.
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        shadow(b, x, "x_alias");
        const Value r1 = unary(b, "pd_op.relu_", x);
        const Value r2 = unary(b, "pd_op.relu", r1);
        const Value r3 = unary(b, "pd_op.relu_", r2);
        shadow(b, r3, "out");
        const InplaceGroups groups(p);
        QCOMPARE(groups.groups().size(), size_t(2));
        const InplaceGroup *gx = groups.groupOf(r1);
        QVERIFY(gx);
        QCOMPARE(gx->root, x);
        QCOMPARE(gx->rootName.value_or("?"), std::string("x_alias"));
        QCOMPARE(gx->rootFirstName.value_or("?"), std::string("x"));
        QCOMPARE(groups.groupOf(r2)->root, r3);
        QVERIFY(groups.renames().empty());
    }

    void twoProgramsMoveTheKwarg_data()
    {
        QTest::addColumn<bool>("targetExists");
        QTest::newRow("create") << false;
        QTest::newRow("reuse") << true;
    }

    void twoProgramsMoveTheKwarg()
    {
        QFETCH(bool, targetExists);
        // Forward: a = relu(x) shadow "middle_0"; r = relu_(a) shadow "out_1" -> rename to out_1.
        Program fwd;
        Builder b(fwd);
        const Value x = data(b, "x");
        const Value a = unary(b, "pd_op.relu", x);
        Operation *sa = shadow(b, a, "middle_0");
        const Value r = unary(b, "pd_op.relu_", a);
        shadow(b, r, "out_1");

        // Backward reads "middle_0" as a kwarg.
        Program bwd;
        Builder c(bwd);
        const Type kwType = Type::denseTensor(DataType::Float16, { 8 });
        const Value oldKw = bwd.block().addKwarg("middle_0", kwType);
        const Value grad = bwd.block().addKwarg("out_1@GRAD", f32());
        Value existing;
        if (targetExists)
            existing = bwd.block().addKwarg("out_1", kwType);
        Operation *user = make(c, "pd_op.relu_grad", { oldKw, grad }, { f32() });
        Operation *user2 = make(c, "pd_op.scale", { oldKw }, { f32() });

        const InplaceGroups groups(fwd, &bwd);
        QCOMPARE(groups.renames().size(), size_t(1));
        QCOMPARE(groups.kwargMoves().size(), size_t(1));
        QCOMPARE(groups.kwargMoves()[0].from, std::string("middle_0"));
        QCOMPARE(groups.kwargMoves()[0].to, std::string("out_1"));
        QCOMPARE(groups.kwargMoves()[0].created, !targetExists);
        QCOMPARE(bwd.block().kwarg("middle_0"), oldKw); // not mutated yet

        QVERIFY(!groups.apply(fwd)); // the wrong pair of programs does nothing
        QCOMPARE(outputName(sa), std::string("middle_0"));
        QVERIFY(groups.apply(fwd, &bwd));
        QCOMPARE(outputName(sa), std::string("out_1"));
        QVERIFY(bwd.block().kwarg("middle_0").isNull());
        const Value newKw = bwd.block().kwarg("out_1");
        QVERIFY(!newKw.isNull());
        if (targetExists)
            QCOMPARE(newKw, existing);
        QCOMPARE(newKw.type(), kwType);
        QCOMPARE(user->operand(0), newKw);
        QCOMPARE(user2->operand(0), newKw);
        QCOMPARE(user->operand(1), grad);
        QCOMPARE(bwd.block().numKwargs(), size_t(2));
    }

    void singleProgramFormHasNoKwargMoves()
    {
        Program fwd;
        Builder b(fwd);
        const Value a = unary(b, "pd_op.relu", data(b, "x"));
        shadow(b, a, "middle_0");
        shadow(b, unary(b, "pd_op.relu_", a), "out_1");
        const InplaceGroups groups(fwd);
        QCOMPARE(groups.renames().size(), size_t(1));
        QVERIFY(groups.kwargMoves().empty());
    }

    void kwargMovesAreSimulatedInOrder()
    {
        // Two groups whose roots share the name "root1": the first move creates kwarg "root1",
        // the second reuses it. Built with a custom inplace table.
        Program fwd;
        Builder b(fwd);
        const Value x = data(b, "x");
        const Value a = unary(b, "test.op", x);
        shadow(b, a, "a_out");
        const Value a2 = unary(b, "test.inplace", a);
        shadow(b, a2, "root1");
        const Value c = unary(b, "test.op", x);
        shadow(b, c, "c_out");
        const Value c2 = unary(b, "test.inplace", c);
        shadow(b, c2, "root1");

        Program bwd;
        bwd.block().addKwarg("a_out", f32());
        bwd.block().addKwarg("c_out", f32());
        auto info = [](const Operation *op) {
            return op->name() == "test.inplace" ? std::vector<OpIndexPair> { { 0, 0 } }
                                                : std::vector<OpIndexPair> {};
        };
        const InplaceGroups groups(fwd, &bwd, info);
        QCOMPARE(groups.renames().size(), size_t(2));
        QCOMPARE(groups.kwargMoves().size(), size_t(2));
        QVERIFY(groups.kwargMoves()[0].created);
        QVERIFY(!groups.kwargMoves()[1].created);
        QVERIFY(groups.apply(fwd, &bwd));
        QCOMPARE(bwd.block().numKwargs(), size_t(1));
        QVERIFY(!bwd.block().kwarg("root1").isNull());
    }

    void brokenPairsAndNullOperandsDoNotCrash()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        Operation *op1 = make(b, "test.inplace", { Value() }, { f32() });
        Operation *op2 = make(b, "test.inplace", { Value() }, { f32() });
        make(b, "test.inplace", { x }, {});
        shadow(b, op2->result(0), "named");
        auto info = [](const Operation *op) {
            if (op->name() != "test.inplace")
                return std::vector<OpIndexPair> {};
            return std::vector<OpIndexPair> { { 0, 0 }, { 3, 0 }, { 0, 5 }, { -1, 0 } };
        };
        const InplaceGroups groups(p, nullptr, info);
        // Python unions the fake value like any value: both null-input ops join one group.
        QCOMPARE(groups.groups().size(), size_t(1));
        const InplaceGroup &g = groups.groups()[0];
        QCOMPARE(g.members, std::vector<Value>({ Value(), op1->result(0), op2->result(0) }));
        QCOMPARE(g.root, op2->result(0));
        QCOMPARE(g.edges.size(), size_t(2));
    }

    void emptyProgram()
    {
        Program p;
        const InplaceGroups groups(p);
        QVERIFY(groups.groups().empty());
        QVERIFY(groups.renames().empty());
    }

    void realSampleBatchNorm()
    {
        const std::string path = PIRSCOPE_SAMPLES_DIR "/json/PP-OCRv5_mobile_det_infer.inference.json";
        if (!std::filesystem::exists(path))
            QSKIP("PP-OCRv5_mobile_det sample is absent");
        LoadResult loaded = PirJsonReader::readFile(path);
        QVERIFY2(loaded.ok(), loaded.diagnostics.toString().c_str());
        const Program &program = *loaded.program;
        size_t batchNorms = 0;
        for (const Operation *op : program.block().ops())
            batchNorms += op->name() == "pd_op.batch_norm_";
        QVERIFY(batchNorms > 0);

        const InplaceGroups groups(program);
        // Every batch_norm_ ties its mean and variance parameters to mean_out / variance_out.
        size_t parameterRooted = 0;
        size_t members = 0;
        for (const InplaceGroup &g : groups.groups()) {
            members += g.members.size();
            const Operation *def = g.root.definingOp();
            if (def && def->name() == "builtin.parameter") {
                ++parameterRooted;
                QVERIFY(g.rootName.has_value());
                QCOMPARE(*g.rootName, valueNameOrEmpty(g.root));
            }
        }
        QVERIFY(parameterRooted >= 2 * batchNorms);
        QVERIFY(members >= 4 * batchNorms);
        for (const Operation *op : program.block().ops()) {
            if (op->name() != "pd_op.batch_norm_")
                continue;
            const InplaceGroup *mean = groups.groupOf(op->result(1));
            QVERIFY(mean);
            QVERIFY(
                std::find(mean->members.begin(), mean->members.end(), op->operand(1)) != mean->members.end());
            const InplaceGroup *var = groups.groupOf(op->result(2));
            QVERIFY(var);
            QVERIFY(var != mean);
        }
        // An inference program has no shadow_output on these values: nothing to rename.
        QVERIFY(groups.renames().empty());
        qInfo("%zu batch_norm_ ops, %zu groups, %zu members", batchNorms, groups.groups().size(), members);
    }
};

QTEST_GUILESS_MAIN(TestInplaceGroups)
#include "tst_inplacegroups.moc"
