#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/parameterstore.h"
#include "core/runtime/parameterstoreevaluator.h"
#include "core/runtime/passnumericscheck.h"
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

std::unique_ptr<Program> parse()
{
    LoadResult r = PirTextReader::readString(kProgram, "numerics.txt");
    return r.ok() ? std::move(r.program) : nullptr;
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
        // The next pass is compared with the perturbed program, not with the original.
        QVERIFY(r[1].checked);
        QVERIFY(r[1].ok);
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
