#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/parameterstore.h"
#include "core/session/parameterstoreevaluator.h"
#include "core/session/passnumericscheck.h"
#include "core/transform/constantfolding.h"
#include "core/transform/inplacepass.h"
#include "core/transform/passmanager.h"
#include "core/transform/passregistry.h"

#include <QtTest>

using namespace ps;

namespace {

// y = scale(relu(x @ w) + b, 2); w transposed and scaled ahead (constant folding), a fetch.
const char *kProgram = R"({
    (%0) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3x4xf32>
    (%1) = "builtin.parameter" () {parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,4],stop_gradient:[false]} : () -> tensor<2x4xf32>
    (%3) = "pd_op.transpose" (%0) {perm:[1,0],stop_gradient:[false]} : (tensor<3x4xf32>) -> tensor<4x3xf32>
    (%4) = "pd_op.matmul" (%2, %3) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.relu" (%4) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%6) = "pd_op.add" (%5, %1) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    (%7) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
    (%8) = "pd_op.scale" (%6, %7) {bias:0,bias_after_scale:true,stop_gradient:[false]} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%8) {output_name:"y"} : (tensor<2x3xf32>) ->
}
)";

// scores = 1 + s * x with s = 0: six exact ties; top_k picks 3 and gathers their rows of y
// ("picked"), then scales them by 1 ("scaled"); "other" does not depend on the choice.
const char *kSelection = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[6],stop_gradient:[true]} : () -> tensor<6xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[6,4],stop_gradient:[true]} : () -> tensor<6x4xf32>
    (%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
    (%3) = "pd_op.scale" (%0, %2) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<6xf32>, tensor<1xf32>) -> tensor<6xf32>
    (%4, %5) = "pd_op.topk" (%3) {axis:-1,k:3,largest:true,sorted:true} : (tensor<6xf32>) -> tensor<3xf32>, tensor<3xi64>
    (%6) = "pd_op.gather" (%1, %5) {axis:0,stop_gradient:[true]} : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
    (%7) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%8) = "pd_op.scale" (%6, %7) {bias:0,bias_after_scale:true,stop_gradient:[true]} : (tensor<3x4xf32>, tensor<1xf32>) -> tensor<3x4xf32>
    (%9) = "pd_op.relu" (%1) {stop_gradient:[true]} : (tensor<6x4xf32>) -> tensor<6x4xf32>
    () = "builtin.shadow_output" (%6) {output_name:"picked"} : (tensor<3x4xf32>) ->
    () = "builtin.shadow_output" (%8) {output_name:"scaled"} : (tensor<3x4xf32>) ->
    () = "builtin.shadow_output" (%9) {output_name:"other"} : (tensor<6x4xf32>) ->
}
)";

/// x -> op -> op ... (`length` of them) -> y, every value 256x1024 float32 (1 MiB).
std::string chain(const std::string &op, int length)
{
    const std::string type = "tensor<256x1024xf32>";
    std::string text = "{\n    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),"
                       "shape:[256,1024],stop_gradient:[true]} : () -> "
        + type + "\n";
    for (int i = 1; i <= length; ++i)
        text += "    (%" + std::to_string(i) + ") = \"" + op + "\" (%" + std::to_string(i - 1)
            + ") {stop_gradient:[true]} : (" + type + ") -> " + type + "\n";
    text += "    () = \"builtin.shadow_output\" (%" + std::to_string(length) + ") {output_name:\"y\"} : ("
        + type + ") ->\n}\n";
    return text;
}

std::unique_ptr<Program> parse(const char *text = kProgram)
{
    LoadResult r = PirTextReader::readString(text, "numerics.txt");
    return r.ok() ? std::move(r.program) : nullptr;
}

/// Sets `attribute` of the `index`-th op named `op` (program order): a rewrite standing for a
/// pass, harmless or wrong depending on the value.
class SetAttribute : public Pass
{
public:
    SetAttribute(std::string op, size_t index, std::string attribute, Attribute value)
        : m_op(std::move(op))
        , m_index(index)
        , m_attribute(std::move(attribute))
        , m_value(std::move(value))
    {
    }
    std::string_view name() const override { return "set_attribute_pass"; }
    std::string_view alias() const override { return "set_attribute"; }
    std::string_view description() const override { return "sets one attribute"; }
    size_t run(Program &program) override
    {
        size_t seen = 0, n = 0;
        program.block().walk([&](Operation *op) {
            if (op->name() == m_op && seen++ == m_index) {
                op->setAttribute(m_attribute, m_value);
                ++n;
            }
        });
        return n;
    }

private:
    std::string m_op;
    size_t m_index;
    std::string m_attribute;
    Attribute m_value;
};

const ValueNumerics *output(const PassNumerics &n, const std::string &name)
{
    for (const ValueNumerics &o : n.outputs)
        if (o.value == name)
            return &o;
    return nullptr;
}

/// Adds 0.5 to every scale's bias: a wrong "optimisation" the check must flag.
class Perturb : public Pass
{
public:
    std::string_view name() const override { return "perturb_pass"; }
    std::string_view alias() const override { return "perturb"; }
    std::string_view description() const override { return "changes the numbers"; }
    size_t run(Program &program) override
    {
        size_t n = 0;
        program.block().walk([&n](Operation *op) {
            if (op->name() == "pd_op.scale") {
                op->setAttribute("bias", Attribute::f32(0.5f));
                ++n;
            }
        });
        return n;
    }
};

struct Setup
{
    std::unique_ptr<Backend> cpu = createCpuBackend();
    std::shared_ptr<ParameterStore> store = std::make_shared<ParameterStore>();
    std::shared_ptr<PassNumericsCheck> check;
    PassManager pm;

    explicit Setup(const Program &program)
    {
        std::string error;
        store->load(program, TensorSource::random(3), error);
        PassNumericsCheck::Options options;
        options.inputs = TensorSource::random(5);
        check = std::make_shared<PassNumericsCheck>(*cpu, store, options);
    }
};

} // namespace

/// PassNumericsCheck: before/after runs per pass on the same inputs and parameters.
class TestPassNumericsCheck : public QObject
{
    Q_OBJECT

private slots:
    void exactPassesAreWithinTolerance()
    {
        auto program = parse();
        QVERIFY(program);
        Setup s(*program);
        PassOptions options;
        options.place.type = Place::AllocType::Cpu;
        options.evaluator = std::make_shared<ParameterStoreEvaluator>(s.store, *s.cpu);
        for (const char *name : { "constant_folding_pass", "dead_code_elimination_pass", "inplace_pass" })
            s.pm.addPass(PassRegistry::create(name, options));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        QVERIFY2(s.check->baselineError().empty(), s.check->baselineError().c_str());
        const std::vector<PassNumerics> &r = s.check->results();
        QCOMPARE(r.size(), size_t(3));
        for (const PassNumerics &n : r) {
            QVERIFY2(n.checked, qPrintable(QString::fromStdString(n.pass + ": " + n.skipped)));
            QVERIFY2(n.ok, n.pass.c_str());
            QVERIFY(!n.lowPrecision);
        }
        // Folding computed transpose(w) and full ahead: the output is the same to the bit.
        QCOMPARE(r[0].pass, std::string("constant_folding_pass"));
        QVERIFY(r[0].skipped.empty());
        QCOMPARE(r[0].outputs.size(), size_t(1));
        QCOMPARE(r[0].outputs[0].value, std::string("y"));
        QCOMPARE(r[0].maxAbs, 0.0);
        QVERIFY(r[0].valuesCompared > 1); // the output and the values that survived
        // Inplace: relu_/add_/scale_ overwrite their inputs; values are compared as produced.
        QVERIFY(r[2].skipped.empty());
        QCOMPARE(r[2].valuesOutsideTolerance, size_t(0));
    }

    void wrongPassIsFlaggedWithItsWorstValue()
    {
        auto program = parse();
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(std::make_unique<Perturb>());
        s.pm.addPass(PassRegistry::create("cse"));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        const std::vector<PassNumerics> &r = s.check->results();
        QCOMPARE(r.size(), size_t(2));
        QVERIFY(r[0].checked);
        QVERIFY(!r[0].ok);
        QVERIFY(qAbs(r[0].maxAbs - 0.5) < 1e-6); // the bias is added after the scale
        QCOMPARE(r[0].worstValue, std::string("y"));
        QVERIFY(!r[0].outputs[0].ok);
        // The element furthest off: after vs before.
        QVERIFY(r[0].outputs[0].worstIndex >= 0);
        QVERIFY(qAbs(r[0].outputs[0].worstActual - r[0].outputs[0].worstExpected - 0.5) < 1e-6);
        QCOMPARE(r[0].beyondTolerance.front().value, std::string("y"));
        // The next pass is compared with the perturbed program, not with the original.
        QVERIFY(r[1].checked);
        QVERIFY(r[1].ok);
    }

    void nearTieFlipIsOrderSensitiveNotAFailure()
    {
        // s = 1e-5: the scores move by ~1e-5 (within tolerance, as a reordered float sum does)
        // and the ties break by x: top_k picks other rows, gather and what follows differ.
        auto program = parse(kSelection);
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(std::make_unique<SetAttribute>("pd_op.full", 0, "value", Attribute::f32(1e-5f)));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        QVERIFY2(s.check->baselineError().empty(), s.check->baselineError().c_str());
        QCOMPARE(s.check->results().size(), size_t(1));
        const PassNumerics &n = s.check->results()[0];
        QVERIFY(n.checked);
        QVERIFY(n.ok);
        QCOMPARE(n.valuesOutsideTolerance, size_t(0));
        // The float values compare as usual: the scores' tiny error is the pass's error.
        QVERIFY(n.maxAbs > 0);
        QVERIFY(n.maxAbs < 1e-4);
        // What went through the flipped choice is reported apart, with the scores' error.
        const PassNumerics::OrderSensitive &o = n.orderSensitive;
        QCOMPARE(o.selections.size(), size_t(1));
        QVERIFY(QString::fromStdString(o.selections[0]).contains("pd_op.topk"));
        QVERIFY(o.values >= 4); // indices, gather, scale, outputs picked and scaled
        QVERIFY(o.mismatches > 0);
        QVERIFY(o.maxAbs > 0.01);
        QVERIFY(o.inputMaxAbs > 0);
        QVERIFY(o.inputMaxAbs < 1e-4);
        QVERIFY(output(n, "picked") && output(n, "picked")->orderSensitive);
        QVERIFY(output(n, "picked")->ok);
        QVERIFY(output(n, "other") && !output(n, "other")->orderSensitive);
        QCOMPARE(output(n, "other")->maxAbs, 0.0);
        QVERIFY(!n.beyondTolerance.empty());
        for (const ValueNumerics &v : n.beyondTolerance)
            QVERIFY2(v.orderSensitive, v.value.c_str());
    }

    void wrongScoresFeedingASelectionAreFlagged()
    {
        // s = 0.5: the scores themselves are wrong; the flipped choice excuses nothing.
        auto program = parse(kSelection);
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(std::make_unique<SetAttribute>("pd_op.full", 0, "value", Attribute::f32(0.5f)));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        const PassNumerics &n = s.check->results().at(0);
        QVERIFY(n.checked);
        QVERIFY(!n.ok);
        QVERIFY(n.orderSensitive.selections.empty());
        QCOMPARE(n.orderSensitive.values, size_t(0));
        QVERIFY(n.valuesOutsideTolerance >= 3);
        QVERIFY(!output(n, "picked")->ok);
    }

    void aRewrittenSelectionIsFlagged()
    {
        // Distinct scores (s = 1): a pass that makes top_k pick the smallest changes the choice
        // with the same float inputs; it is the pass's doing, not a tie.
        std::string text = kSelection;
        text.replace(text.find("value:0}"), 8, "value:1}");
        auto program = parse(text.c_str());
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(std::make_unique<SetAttribute>("pd_op.topk", 0, "largest", Attribute::boolean(false)));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        const PassNumerics &n = s.check->results().at(0);
        QVERIFY(n.checked);
        QVERIFY(!n.ok);
        QCOMPARE(n.orderSensitive.values, size_t(0));
        QVERIFY(n.orderSensitive.selections.empty());
        QVERIFY(!output(n, "picked")->ok);
        QVERIFY(!output(n, "picked")->orderSensitive);
    }

    void wrongRewriteAfterAnUnchangedSelectionIsFlagged()
    {
        // The ties stay (same choice before and after): a wrong bias after the gather is a
        // failure like any other.
        auto program = parse(kSelection);
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(std::make_unique<SetAttribute>("pd_op.scale", 1, "bias", Attribute::f32(0.5f)));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        const PassNumerics &n = s.check->results().at(0);
        QVERIFY(n.checked);
        QVERIFY(!n.ok);
        QCOMPARE(n.orderSensitive.values, size_t(0));
        QCOMPARE(n.worstValue, std::string("scaled"));
        QVERIFY(qAbs(n.maxAbs - 0.5) < 1e-6);
        QVERIFY(output(n, "picked")->ok);
        QVERIFY(!output(n, "scaled")->ok);
        QVERIFY(!output(n, "scaled")->orderSensitive);
    }

    void checkHoldsTwoRunsLiveValuesNotARunsValues()
    {
        // Two changed passes over a chain of 1 MiB values: the programs before and after each pass
        // run in lockstep, each value compared and released as soon as both runs have it, so the
        // check holds a few values of each run. Keeping the reference run's values for the whole
        // check (as before the lockstep) would reach one run's values.
        const int length = 24;
        const std::string text = chain("pd_op.sigmoid", length);
        auto program = parse(text.c_str());
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(std::make_unique<SetAttribute>("pd_op.sigmoid", 3, "unused", Attribute::f32(1)));
        s.pm.addPass(std::make_unique<SetAttribute>("pd_op.sigmoid", 7, "unused", Attribute::f32(2)));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        QVERIFY2(s.check->baselineError().empty(), s.check->baselineError().c_str());
        const std::vector<PassNumerics> &r = s.check->results();
        QCOMPARE(r.size(), size_t(2));
        for (const PassNumerics &n : r) {
            QVERIFY2(n.checked && n.skipped.empty(), n.skipped.c_str());
            QVERIFY(n.ok);
            QCOMPARE(n.valuesCompared, size_t(length + 2)); // x, the sigmoids and the output y
            // Per pass: what the check held against its runs alone: the two runs in lockstep
            // and the one value the leading run is ahead with.
            QVERIFY(n.runPeakBytes > 0 && n.peakBytes > n.runPeakBytes);
            QVERIFY2(n.peakBytes <= 2 * n.runPeakBytes + 256 * 1024 * 4,
                qPrintable(QString("%1 vs %2").arg(n.peakBytes).arg(n.runPeakBytes)));
            QVERIFY(n.peakBytes <= s.check->peakBytes() && n.runPeakBytes <= s.check->runPeakBytes());
        }
        QCOMPARE(s.check->peakBytes(), std::max(r[0].peakBytes, r[1].peakBytes));
        const int64_t oneRun = int64_t(length + 1) * 256 * 1024 * 4;
        QVERIFY2(s.check->peakBytes() > 0, qPrintable(QString::number(s.check->peakBytes())));
        QVERIFY2(s.check->peakBytes() < oneRun / 3, qPrintable(QString::number(s.check->peakBytes())));
        // A run on its own frees each value after its last read: a few values at a time.
        QVERIFY2(s.check->runPeakBytes() < oneRun / 4, qPrintable(QString::number(s.check->runPeakBytes())));
    }

    void sharedParametersCountOnce()
    {
        // Both runs read w (4 MiB) from the one store: the check holds it once, not twice.
        const std::string text = std::string("{\n")
            + "    (%0) = \"pd_op.data\" () "
              "{dtype:float32,name:\"x\",place:Place(undefined:0),shape:[4,1024],"
              "stop_gradient:[true]} : () -> tensor<4x1024xf32>\n"
            + "    (%1) = \"builtin.parameter\" () "
              "{parameter_name:\"w\",persistable:[true],stop_gradient:[false],"
              "trainable:[true]} : () -> tensor<1024x1024xf32>\n"
            + "    (%2) = \"pd_op.matmul\" (%0, %1) "
              "{stop_gradient:[true],transpose_x:false,transpose_y:false} : "
              "(tensor<4x1024xf32>, tensor<1024x1024xf32>) -> tensor<4x1024xf32>\n"
            + "    () = \"builtin.shadow_output\" (%2) {output_name:\"y\"} : (tensor<4x1024xf32>) ->\n}\n";
        auto program = parse(text.c_str());
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(std::make_unique<SetAttribute>("pd_op.matmul", 0, "unused", Attribute::f32(1)));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        QVERIFY2(s.check->baselineError().empty(), s.check->baselineError().c_str());
        QVERIFY(s.check->results().at(0).checked && s.check->results().at(0).ok);
        const int64_t weights = int64_t(1024) * 1024 * 4;
        QVERIFY2(s.check->peakBytes() >= weights, qPrintable(QString::number(s.check->peakBytes())));
        QVERIFY2(s.check->peakBytes() < weights * 3 / 2, qPrintable(QString::number(s.check->peakBytes())));
        QVERIFY(s.check->runPeakBytes() >= weights);
        // The pass's own figures count the weights once too: the check holds about one run.
        const PassNumerics &n = s.check->results().at(0);
        QCOMPARE(n.peakBytes, s.check->peakBytes());
        QVERIFY2(n.peakBytes < n.runPeakBytes * 3 / 2,
            qPrintable(QString("%1 vs %2").arg(n.peakBytes).arg(n.runPeakBytes)));
    }

    void inplaceChainsStayInBoundedMemory()
    {
        // relu_(relu_(x)): each relu_ after the first writes its input's buffer; each value is
        // copied as its op produced it and released once both runs compared it.
        const int length = 24;
        const std::string text = chain("pd_op.relu_", length);
        auto program = parse(text.c_str());
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(std::make_unique<SetAttribute>("pd_op.relu_", 3, "unused", Attribute::f32(1)));
        s.pm.addInstrumentation(s.check);
        s.pm.run(*program);
        QCOMPARE(s.check->results().size(), size_t(1));
        const PassNumerics &n = s.check->results().front();
        QVERIFY2(n.checked && n.skipped.empty(), n.skipped.c_str());
        QVERIFY(n.ok);
        QCOMPARE(n.valuesCompared, size_t(length + 2));
        const int64_t oneRun = int64_t(length + 1) * 256 * 1024 * 4;
        QVERIFY2(s.check->peakBytes() < oneRun / 2, qPrintable(QString::number(s.check->peakBytes())));
    }

    void runFailuresAreReportedNotHidden()
    {
        auto program = parse();
        QVERIFY(program);
        Setup s(*program);
        s.pm.addPass(PassRegistry::create("dce"));
        s.pm.addPass(PassRegistry::create("pd_op_to_kernel_pass"));
        s.pm.addInstrumentation(s.check);
        // A parameter the store does not have: the baseline cannot run.
        s.store->erase("w");
        s.pm.run(*program);
        QVERIFY(QString::fromStdString(s.check->baselineError()).contains("'w'"));
        QCOMPARE(s.check->results().size(), size_t(2));
        QVERIFY(!s.check->results()[0].checked);
        QVERIFY(QString::fromStdString(s.check->results()[0].skipped).startsWith("the program before"));
        QCOMPARE(s.check->results()[1].skipped, std::string("not implemented in PIRScope"));
    }
};

QTEST_GUILESS_MAIN(TestPassNumericsCheck)
#include "tst_passnumericscheck.moc"
