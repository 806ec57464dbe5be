#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/splitprogram.h"
#include "paddlebundle.h"

#include <QtTest>
#include <algorithm>
#include <optional>

using namespace ps;

namespace {

using namespace bundle;

bool valuesByName(const Program &program, const QJsonArray &names, std::vector<Value> &out, QString &missing)
{
    for (const QJsonValue &n : names) {
        const std::optional<Value> v = findByName(program, n.toString().toStdString());
        if (!v) {
            missing = n.toString();
            return false;
        }
        out.push_back(*v);
    }
    return true;
}

Operation *make(Builder &b, std::string_view name, std::vector<Value> operands, std::vector<Type> results,
    std::vector<NamedAttribute> attrs = {})
{
    return b.create(name, std::span<const Value>(operands), std::span<const Type>(results), std::move(attrs));
}

Type f32()
{
    return Type::denseTensor(DataType::Float32, { 4 });
}

Value data(Builder &b, const char *name)
{
    return make(b, "pd_op.data", {}, { f32() }, { { "name", Attribute::string(name) } })->result(0);
}

void shadow(Builder &b, Value v, const char *name)
{
    make(b, "builtin.shadow_output", { v }, {}, { { "output_name", Attribute::string(name) } });
}

std::vector<std::string> shadowNames(const Program &p)
{
    std::vector<std::string> names;
    for (const Operation *op : p.block().ops())
        if (op->name() == "builtin.shadow_output")
            names.push_back(op->stringAttribute("output_name"));
    return names;
}

} // namespace

/// split_program against the raw split output of Paddle 3.3.1 in the golden bundles, plus
/// hand-built cases for the naming, counter and no-need-buffer rules.
class TestSplitProgram : public QObject
{
    Q_OBJECT

private slots:
    void bundles_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : kModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    void bundles()
    {
        QFETCH(QString, model);
        const QString dir = bundle::dir(model);
        if (!QFileInfo::exists(dir + "/manifest.json"))
            QSKIP("golden bundle missing");
        const QJsonObject manifest = readJson(dir + "/manifest.json");
        const QJsonObject names = manifest.value("train_names").toObject();
        auto whole = loadText(dir + "/train_program.txt");
        QVERIFY(whole);

        SplitRequest request;
        QString missing;
        QVERIFY2(valuesByName(*whole, names.value("x").toArray(), request.fx, missing), qPrintable(missing));
        QVERIFY2(
            valuesByName(*whole, names.value("param").toArray(), request.fp, missing), qPrintable(missing));
        QVERIFY2(
            valuesByName(*whole, names.value("out").toArray(), request.fo, missing), qPrintable(missing));
        QVERIFY2(valuesByName(*whole, names.value("x_grad").toArray(), request.fxGrad, missing),
            qPrintable(missing));
        QVERIFY2(valuesByName(*whole, names.value("param_grad").toArray(), request.fpGrad, missing),
            qPrintable(missing));
        QVERIFY2(valuesByName(*whole, names.value("out_grad").toArray(), request.foGrad, missing),
            qPrintable(missing));
        request.forwardRange = rangeOf(manifest.value("forward_range"));
        request.backwardRange = rangeOf(manifest.value("backward_range"));

        const SplitResult result = SplitProgram::split(*whole, request);
        QVERIFY2(result.diagnostics.empty(), qPrintable(joined(result.diagnostics)));
        QVERIFY(result.hasBackward);

        auto forward = loadText(dir + "/split/forward_program.txt");
        auto backward = loadText(dir + "/split/backward_program.txt");
        QVERIFY(forward && backward);
        for (const auto &[ours, paddle] : { std::pair(result.forward.get(), forward.get()),
                 std::pair(result.backward.get(), backward.get()) }) {
            const ProgramDifference d = compareWithPaddle(*ours, *paddle);
            QVERIFY2(d.equal, d.toString("ours", "paddle").c_str());
        }

        const QJsonObject expected = readJson(dir + "/split/program_attributes.json");
        QCOMPARE(expected.size(), int(kSplitKeyCount));
        const SplitNames got = SplitProgram::valueNames(result.attributes, "Fake_var");
        for (SplitKey key : allSplitKeys()) {
            std::vector<std::string> want
                = strings(expected.value(QString::fromLatin1(splitKeyName(key))).toArray());
            std::vector<std::string> have = got[key];
            if (key == SplitKey::NoNeedBuffers) { // Paddle's order comes from a hash set
                std::sort(want.begin(), want.end());
                std::sort(have.begin(), have.end());
            }
            QVERIFY2(have == want,
                qPrintable(
                    QString::fromLatin1(splitKeyName(key)) + ": " + joined(have) + " vs " + joined(want)));
        }
        QCOMPARE(printedSorted(*result.forward), fileSorted(dir + "/split/forward_program.txt"));
        QCOMPARE(printedSorted(*result.backward), fileSorted(dir + "/split/backward_program.txt"));
        qInfo("%s: forward equal (%zu ops), backward equal (%zu ops), 12 attribute lists equal",
            qPrintable(model), forward->numOps(), backward->numOps());
    }

    void namingRulesAndCounters()
    {
        // x → a = relu(x) → b = tanh(a), output b already shadow-output; backward reads a and x.
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value a = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        const Value out = make(b, "pd_op.tanh", { a }, { f32() })->result(0);
        shadow(b, out, "output_0");
        const Value seed = data(b, "seed"); // stands for the full_like seed, between the ranges
        const Value ga = make(b, "pd_op.tanh_grad", { out, seed }, { f32() })->result(0);
        const Value gx = make(b, "pd_op.relu_grad", { a, ga }, { f32() })->result(0);
        shadow(b, gx, "grad_output_0");

        SplitRequest r;
        r.fx = { x, Value() }; // a null input consumes index 1
        r.fo = { Value(), out }; // a null output consumes output_0, the real one is output_1's slot
        r.fxGrad = { gx, Value() };
        r.foGrad = { Value(), seed };
        r.forwardRange = { 0, 4 };
        r.backwardRange = { 5, 8 };
        const SplitResult s = SplitProgram::split(p, r);
        QVERIFY(s.diagnostics.empty());
        QCOMPARE(s.middles, std::vector<Value>({ a }));
        // The existing shadow_output is skipped; the output's new one is named output_1 (counter).
        QCOMPARE(shadowNames(*s.forward), std::vector<std::string>({ "middle_0", "output_1" }));
        QCOMPARE(s.forward->numOps(), size_t(5));
        // kwargs in creation order: fo first (named after its forward shadow output), x by its
        // data name, the middle, then the output grad with its default name (counter 1).
        std::vector<std::string> keys;
        for (const Value &kw : s.backward->block().kwargs())
            keys.push_back(kw.keyword());
        QCOMPARE(keys, std::vector<std::string>({ "output_1", "middle_0", "output_grad_1" }));
        QCOMPARE(shadowNames(*s.backward), std::vector<std::string>({ "input_grad_0" }));
        const SplitNames names = SplitProgram::valueNames(s.attributes, "Fake_var");
        QCOMPARE(names[SplitKey::Fx], std::vector<std::string>({ "x", "Fake_var" }));
        QCOMPARE(names[SplitKey::Bx], std::vector<std::string>({ "Fake_var", "Fake_var" })); // x is unused
        QCOMPARE(names[SplitKey::Fo], std::vector<std::string>({ "Fake_var", "output_1" }));
        QCOMPARE(names[SplitKey::Bo], std::vector<std::string>({ "Fake_var", "output_1" }));
        QCOMPARE(names[SplitKey::BoG], std::vector<std::string>({ "Fake_var", "output_grad_1" }));
        QCOMPARE(names[SplitKey::BxG], std::vector<std::string>({ "input_grad_0", "Fake_var" }));
        // tanh_grad(out, grad) and relu_grad(out, grad) need every buffer.
        QVERIFY(names[SplitKey::NoNeedBuffers].empty());
    }

    void noNeedBuffersAndCombine()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = data(b, "y");
        const Value g = data(b, "g");
        // add_grad(x, y, out_grad): x and y are no_need_buffer inputs.
        make(b, "pd_op.add_grad", { x, y, g }, { f32(), f32() }, { { "axis", Attribute::int32(-1) } });
        // A combine consumed by concat (needs its buffers) pulls y back into the need set.
        const Value c = make(b, "builtin.combine", { y, g }, { Type::vector({ f32(), f32() }) })->result(0);
        const Value axis = make(b, "pd_op.full", {}, { f32() })->result(0);
        make(b, "pd_op.concat", { c, axis }, { f32() });
        std::vector<Value> noNeed = SplitProgram::noNeedBufferValues(p.block(), { 3, 7 });
        QCOMPARE(noNeed, std::vector<Value>({ x }));
        // Without the concat, both add_grad inputs are no-need (g stays needed: add_grad's out_grad).
        noNeed = SplitProgram::noNeedBufferValues(p.block(), { 3, 5 });
        QCOMPARE(noNeed, std::vector<Value>({ x, y }));
        QVERIFY(SplitProgram::hasYamlInfo("pd_op.add_grad"));
        QVERIFY(!SplitProgram::hasYamlInfo("builtin.shadow_output"));
        QVERIFY(!SplitProgram::hasYamlInfo("pd_op.if"));
    }

    void inferenceHasNoBackward()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        shadow(b, y, "output_0");
        SplitRequest r;
        r.fx = { x };
        r.fo = { y };
        r.forwardRange = { 0, 3 };
        r.backwardRange = { 3, 3 };
        const SplitResult s = SplitProgram::split(p, r);
        QVERIFY(!s.hasBackward);
        QVERIFY(s.middles.empty());
        QCOMPARE(s.backward->numOps(), size_t(0));
        QCOMPARE(s.backward->block().numKwargs(), size_t(0));
        QCOMPARE(shadowNames(*s.forward), std::vector<std::string>({ "output_0" }));
        QCOMPARE(s.attributes[SplitKey::Bo], std::vector<Value>({ Value() }));
    }

    void outsideOperandIsDiagnosed()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, "x");
        const Value y = make(b, "pd_op.relu", { x }, { f32() })->result(0);
        SplitRequest r;
        r.fo = { y };
        r.forwardRange = { 1, 2 }; // the data op is outside and x is not passed in
        r.backwardRange = { 2, 2 };
        const SplitResult s = SplitProgram::split(p, r);
        QCOMPARE(s.diagnostics.size(), size_t(1));
        QVERIFY(s.forward->block().op(0)->operand(0).isNull());
    }
};

QTEST_GUILESS_MAIN(TestSplitProgram)
#include "tst_splitprogram.moc"
