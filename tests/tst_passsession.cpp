#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/parameterstore.h"
#include "core/session/passsession.h"
#include "core/transform/passmanager.h"
#include "core/transform/passregistry.h"
#include "core/transform/passtimelinerecorder.h"

#include <QtTest>

using namespace ps;

namespace {

// y = relu(x @ transpose(w)): transpose(w) folds into a parameter.
const char *kProgram = R"({
    (%0) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,4],stop_gradient:[false]} : () -> tensor<2x4xf32>
    (%2) = "pd_op.transpose" (%0) {perm:[1,0],stop_gradient:[false]} : (tensor<3x4xf32>) -> tensor<4x3xf32>
    (%3) = "pd_op.matmul" (%1, %2) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.relu" (%3) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%4) {output_name:"y"} : (tensor<2x3xf32>) ->
}
)";

std::unique_ptr<Program> parse()
{
    LoadResult r = PirTextReader::readString(kProgram, "test.txt");
    if (!r.ok())
        qWarning("%s", r.diagnostics.toString().c_str());
    return std::move(r.program);
}

/// The parameter names the program's `builtin.parameter` ops read.
std::vector<std::string> parameterNames(const Program &program)
{
    std::vector<std::string> out;
    for (const Operation *op : program.block().ops())
        if (op->name() == "builtin.parameter")
            out.push_back(op->stringAttribute("parameter_name"));
    return out;
}

PassOptions onCpu()
{
    PassOptions options;
    options.place.type = Place::AllocType::Cpu;
    return options;
}

} // namespace

/// PassSession: the backend, parameters, evaluator and numeric checks a pass run shares.
class TestPassSession : public QObject
{
    Q_OBJECT

private slots:
    void withoutParametersFoldingHasNoEvaluator()
    {
        PassSession session;
        QVERIFY(!session.hasParameters());
        QVERIFY(!session.passOptions().evaluator);
        // The options given are kept.
        QCOMPARE(session.passOptions(onCpu()).place.type, Place::AllocType::Cpu);
    }

    void unreadableParametersLeaveNone()
    {
        auto program = parse();
        QVERIFY(program);
        PassSession session;
        std::string error;
        QVERIFY(!session.loadParameters(*program, TensorSource::npyDirectory("/nonexistent/params"), error));
        QVERIFY(!error.empty());
        QVERIFY(!session.hasParameters());
        QVERIFY(!session.passOptions().evaluator);
    }

    void foldedParametersGoIntoTheSessionsStore()
    {
        auto program = parse();
        QVERIFY(program);
        PassSession session;
        std::string error;
        QVERIFY2(session.loadParameters(*program, TensorSource::random(0), error), error.c_str());
        QVERIFY(session.parameters()->contains("w"));
        const PassOptions options = session.passOptions(onCpu());
        QVERIFY(options.evaluator);
        PassManager pm;
        pm.addPass(PassRegistry::create("constant_folding_pass", options));
        pm.addPass(PassRegistry::create("dead_code_elimination_pass", options));
        pm.run(*program);
        const std::vector<std::string> names = parameterNames(*program);
        QCOMPARE(names.size(), size_t(1));
        QVERIFY(names[0] != "w"); // transpose(w), computed by the evaluator
        QVERIFY2(session.parameters()->contains(names[0]), names[0].c_str());
    }

    void numericsCheckRunsOnTheSessionsParameters()
    {
        auto program = parse();
        QVERIFY(program);
        PassSession session;
        std::string error;
        QVERIFY(session.loadParameters(*program, TensorSource::random(0), error));
        PassManager pm;
        pm.addPass(PassRegistry::create("constant_folding_pass", session.passOptions(onCpu())));
        const std::shared_ptr<PassNumericsCheck> check = session.numericsCheck({});
        pm.addInstrumentation(check);
        pm.run(*program);
        QVERIFY2(check->baselineError().empty(), check->baselineError().c_str());
        QCOMPARE(check->results().size(), size_t(1));
        const PassNumerics &n = check->results()[0];
        QVERIFY2(n.checked, n.skipped.c_str()); // the folded program found its folded parameter
        QVERIFY(n.ok);
        QCOMPARE(n.maxAbs, 0.0);
    }

    void timelineCheckGivesEachChangingStepItsNumbers()
    {
        auto program = parse();
        QVERIFY(program);
        PassSession session;
        std::string error;
        QVERIFY(session.loadParameters(*program, TensorSource::random(0), error));
        PassManager pm;
        pm.addPass(PassRegistry::create("constant_folding_pass", session.passOptions(onCpu())));
        pm.addPass(PassRegistry::create("common_subexpression_elimination_pass"));
        PassTimelineOptions options;
        options.check = session.timelineCheck();
        const auto timeline = PassTimelineRecorder::run(pm, *program, options);
        QCOMPARE(timeline->size(), size_t(2));
        const PassTimelineStep &fold = timeline->step(0);
        QVERIFY(fold.numerics && fold.numerics->checked && fold.numerics->ok);
        QVERIFY(!timeline->step(1).numerics); // CSE found nothing: nothing to compare
    }
};

QTEST_GUILESS_MAIN(TestPassSession)
#include "tst_passsession.moc"
