#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/runnableprogram.h"
#include "core/transform/valuerename.h"
#include "paddlebundle.h"

#include <QtTest>

using namespace ps;
using namespace bundle;

namespace {

Type f32()
{
    return Type::denseTensor(DataType::Float32, { 4 });
}

Operation *make(Builder &b, std::string_view name, std::vector<Value> operands, std::vector<Type> results,
    std::vector<NamedAttribute> attrs = {})
{
    return b.create(name, std::span<const Value>(operands), std::span<const Type>(results), std::move(attrs));
}

void shadow(Builder &b, Value v, const char *name)
{
    make(b, "builtin.shadow_output", { v }, {}, { { "output_name", Attribute::string(name) } });
}

/// x → a = relu(x) → b = relu_(a) (output_0); the backward reads a (a middle). Whole program with
/// the seed between the ranges, as _append_backward lays it out.
RunnableProgram inplaceProgram(PipelineFlavour flavour)
{
    auto p = std::make_unique<Program>();
    Builder b(*p);
    const Value x = make(b, "pd_op.data", {}, { f32() }, { { "name", Attribute::string("x") } })->result(0);
    const Value a = make(b, "pd_op.relu", { x }, { f32() })->result(0);
    const Value out = make(b, "pd_op.relu_", { a }, { f32() })->result(0);
    shadow(b, out, "output_0");
    const Value seed = make(b, "pd_op.full", {}, { f32() })->result(0);
    shadow(b, seed, "grad_input_0");
    const Value gx = make(b, "pd_op.relu_grad", { a, seed }, { f32() })->result(0);
    shadow(b, gx, "grad_output_0");
    RunnableProgram::Names names { { "x" }, {}, { "output_0" }, { "grad_output_0" }, {}, { "grad_input_0" } };
    return RunnableProgram(std::move(p), names, OpRange { 0, 4 }, OpRange { 6, 8 }, flavour);
}

std::vector<std::string> shadowNames(const Program &p)
{
    std::vector<std::string> names;
    for (const Operation *op : p.block().ops())
        if (op->name() == "builtin.shadow_output")
            names.push_back(op->stringAttribute("output_name"));
    return names;
}

std::vector<std::string> kwargNames(const Program &p)
{
    std::vector<std::string> names;
    for (const Value &kw : p.block().kwargs())
        names.push_back(kw.keyword());
    return names;
}

} // namespace

/// RunnableProgram: the names, split, passes and program_attr of the newest pipeline against
/// Paddle 3.3.1's bundles, the flavour differences, unify_value_names, clone and op ranges.
class TestRunnableProgram : public QObject
{
    Q_OBJECT

private slots:
    void bundles_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : kModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    /// Paddle's train program through split, CSE and program_attr gives Paddle's final programs.
    void bundles()
    {
        QFETCH(QString, model);
        const QString d = dir(model);
        if (!QFileInfo::exists(d + "/manifest.json"))
            QSKIP("golden bundle missing");
        const QJsonObject manifest = readJson(d + "/manifest.json");
        std::optional<RunnableProgram> train = trainFromBundle(d);
        QVERIFY(train);
        RunnableProgram &rp = *train;
        // Every manifest name resolves through the newest name map.
        for (const std::vector<Value> &values :
            { rp.xValues(), rp.paramValues(), rp.outValues(), rp.outGradValues() })
            for (const Value &v : values)
                QVERIFY(!v.isNull());

        rp.splitForwardBackward();
        QCOMPARE(rp.forwardRange(), rangeOf(manifest.value("forward_range")));
        QCOMPARE(rp.backwardRange(), rangeOf(manifest.value("backward_range")));
        const QString splitMismatch
            = attributeMismatch(rp.programNameAttr(), readJson(d + "/split/program_attributes.json"));
        QVERIFY2(splitMismatch.isEmpty(), qPrintable(splitMismatch));

        PassManager passes = PassManager::withDefaultPasses();
        QVERIFY(rp.applyPass([&passes](Program &fwd, Program &bwd, const SplitNames &) {
            passes.run(fwd, "forward");
            passes.run(bwd, "backward");
        }));
        const ProgramAttributes &attr = rp.programAttr();
        QVERIFY2(rp.diagnostics().empty(), qPrintable(joined(rp.diagnostics())));
        QVERIFY(!rp.applyPass([](Program &, Program &, const SplitNames &) {}));

        auto forward = loadText(d + "/forward_program.txt");
        auto backward = loadText(d + "/backward_program.txt");
        QVERIFY(forward && backward);
        const ProgramDifference fd = compareWithPaddle(rp.forwardProgram(), *forward);
        QVERIFY2(fd.equal, fd.toString("ours", "paddle").c_str());
        const ProgramDifference bd = compareWithPaddle(rp.backwardProgram(), *backward);
        QVERIFY2(bd.equal, bd.toString("ours", "paddle").c_str());
        QCOMPARE(printedSorted(rp.forwardProgram()), fileSorted(d + "/forward_program.txt"));
        QCOMPARE(printedSorted(rp.backwardProgram()), fileSorted(d + "/backward_program.txt"));
        const QString mismatch = attributeMismatch(attr.names, readJson(d + "/program_attributes.json"));
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        // Every name but the fake one resolves in the final programs.
        for (SplitKey key : allSplitKeys())
            for (size_t i = 0; i < attr.names[key].size(); ++i)
                QCOMPARE(attr.values[key][i].isNull(), attr.names[key][i] == "Fake_var");
        int passLog = 0;
        for (const PassRecord &r : passes.log())
            passLog += int(r.removedOps.size());
        qInfo("%s: split names, final forward/backward and program_attr equal to Paddle's (%d ops removed by "
              "CSE)",
            qPrintable(model), passLog);
    }

    void flavoursOnInplaceProgram()
    {
        // Newest: unify_value_names finds one name per value: nothing is renamed.
        RunnableProgram newest = inplaceProgram(PipelineFlavour::Newest);
        const ProgramAttributes &n = newest.programAttr();
        QVERIFY(n.renames.empty());
        QCOMPARE(shadowNames(newest.forwardProgram()), std::vector<std::string>({ "middle_0", "output_0" }));
        QCOMPARE(
            kwargNames(newest.backwardProgram()), std::vector<std::string>({ "middle_0", "output_grad_0" }));
        QCOMPARE(n.names[SplitKey::Bm], std::vector<std::string>({ "middle_0" }));
        QVERIFY(!n.values[SplitKey::Bm][0].isNull());

        // 3.0: the middle shares output_0's buffer (relu_), so its shadow output takes the root's
        // name and the backward kwarg moves with it.
        RunnableProgram v30 = inplaceProgram(PipelineFlavour::Paddle30);
        const ProgramAttributes &t = v30.programAttr();
        QCOMPARE(
            t.renames, (std::vector<std::pair<std::string, std::string>>({ { "middle_0", "output_0" } })));
        QCOMPARE(shadowNames(v30.forwardProgram()), std::vector<std::string>({ "output_0", "output_0" }));
        QCOMPARE(
            kwargNames(v30.backwardProgram()), std::vector<std::string>({ "output_grad_0", "output_0" }));
        QCOMPARE(t.names[SplitKey::Bm], std::vector<std::string>({ "middle_0" })); // as program_name_attr
        QVERIFY(!t.values[SplitKey::Bm][0].isNull()); // resolved before the rename

        // Seed: the same forward rename, but the backward kwarg keeps the stale name.
        RunnableProgram seed = inplaceProgram(PipelineFlavour::Seed);
        const ProgramAttributes &s = seed.programAttr();
        QCOMPARE(s.renames, t.renames);
        QCOMPARE(shadowNames(seed.forwardProgram()), std::vector<std::string>({ "output_0", "output_0" }));
        QCOMPARE(
            kwargNames(seed.backwardProgram()), std::vector<std::string>({ "middle_0", "output_grad_0" }));
        QCOMPARE(s.names[SplitKey::Fx], std::vector<std::string>({ "x" }));
        QCOMPARE(std::string(fakeValueName(PipelineFlavour::Seed)), std::string("FakeVar"));
        QCOMPARE(s.names[SplitKey::Bx], std::vector<std::string>({ "FakeVar" })); // x is not read backward
        QCOMPARE(n.names[SplitKey::Bx], std::vector<std::string>({ "Fake_var" }));
    }

    void unifyValueNamesCarriesRenames()
    {
        // Forward: a data value also shadow-output under another name; backward: a kwarg with
        // that other name. unify keeps the data name and moves the kwarg.
        Program fwd;
        Builder fb(fwd);
        const Value x
            = make(fb, "pd_op.data", {}, { f32() }, { { "name", Attribute::string("x") } })->result(0);
        shadow(fb, x, "output_0");
        Program bwd;
        const Value kw = bwd.block().addKwarg("output_0", f32());
        Builder bb(bwd);
        const Value g = make(bb, "pd_op.relu", { kw }, { f32() })->result(0);
        shadow(bb, g, "input_grad_0");

        std::vector<std::string> problems;
        RenameMapping mapping = unifyValueNames(fwd, {}, &problems);
        QCOMPARE(
            mapping.items(), (std::vector<std::pair<std::string, std::string>>({ { "output_0", "x" } })));
        QCOMPARE(shadowNames(fwd), std::vector<std::string>({ "x" }));
        mapping = unifyValueNames(bwd, mapping, &problems);
        QVERIFY(problems.empty());
        QCOMPARE(kwargNames(bwd), std::vector<std::string>({ "x" }));
        QCOMPARE(bwd.block().op(0)->operand(0), bwd.block().kwarg("x"));
        QCOMPARE(programAllValues(bwd).size(), size_t(2));
    }

    void cloneAndRanges()
    {
        RunnableProgram rp = inplaceProgram(PipelineFlavour::Newest);
        RunnableProgram copy = rp.clone();
        QCOMPARE(copy.names().x, rp.names().x);
        QVERIFY(copy.names().xGrad.empty()); // Paddle's clone drops the gradient names
        QCOMPARE(copy.forwardRange(), rp.forwardRange());
        QVERIFY(&copy.program() != &rp.program());
        QCOMPARE(copy.program().numOps(), rp.program().numOps());

        // An op inserted inside the forward range moves the boundaries: update_op_range finds them.
        Builder b(rp.program());
        b.setInsertionPoint(rp.program().block(), 1);
        b.create("pd_op.full", std::initializer_list<Value> {}, { f32() });
        rp.updateOpRange();
        QCOMPARE(rp.forwardRange(), (OpRange { 0, 5 }));
        QCOMPARE(rp.backwardRange(), (OpRange { 7, 9 }));
        // Default ranges: all ops forward, an empty backward.
        RunnableProgram plain(std::make_unique<Program>(), {});
        QCOMPARE(plain.forwardRange(), (OpRange { 0, 0 }));
        QVERIFY(!plain.valueByName("nothing").has_value());
        QCOMPARE(plain.valueByName("Fake_var"), std::optional<Value>(Value()));
    }
};

QTEST_GUILESS_MAIN(TestRunnableProgram)
#include "tst_runnableprogram.moc"
