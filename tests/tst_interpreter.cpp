#include "core/runtime/cpu/cpubackend.h"
#include "interpretertestprograms.h"

#include <QtTest>
#include <atomic>
#include <cmath>
#include <thread>

/// The Interpreter on hand-written programs with a test backend: stepping (over, into, out),
/// run to cursor, breakpoints (op, NaN/Inf, name), restart, two segments sharing a scope,
/// missing kernels, kernel errors, differential mode and stop requests.
class TestInterpreter : public QObject
{
    Q_OBJECT

    testbackend::TestBackend m_backend;

    std::unique_ptr<InterpreterFixture> make(
        const char *text, double x = 1.0, Interpreter::Options options = {})
    {
        return makeFixture(m_backend, text, x, options);
    }

private slots:
    void positions_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("top") << "0:5"
                             << "0:5";
        QTest::newRow("no segment") << "7"
                                    << "0:7";
        QTest::newRow("nested") << "1:5/1:2"
                                << "1:5/1:2";
        QTest::newRow("bwd") << "bwd:3/0:1/0:4"
                             << "1:3/0:1/0:4";
        QTest::newRow("bad") << "0:5/1"
                             << "";
        QTest::newRow("junk") << "x:1"
                              << "";
    }
    void positions()
    {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        const auto p = ProgramPosition::parse(text.toStdString());
        QCOMPARE(p.has_value(), !canonical.isEmpty());
        if (p)
            QCOMPARE(QString::fromStdString(p->toString()), canonical);
    }

    void positionOfNestedOp()
    {
        auto program = parse(kControlFlowProgram);
        QVERIFY(program);
        const Operation *op = at("0:8/0:3").resolve(*program);
        QVERIFY(op);
        QCOMPARE(op->name(), std::string_view("pd_op.scale"));
        QCOMPARE(ProgramPosition::of(op, 0), at("0:8/0:3"));
        QVERIFY(!at("0:8/1:0").resolve(*program)); // the while has one region
        QVERIFY(!at("0:99").resolve(*program));
    }

    void stepsThroughAProgram()
    {
        auto f = make(kLogProgram, -2.0);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.state(), Interpreter::State::Ready);
        QCOMPARE(in.position().value(), at("0:0"));
        for (int i = 1; i <= 5; ++i) {
            const StopInfo s = in.step();
            QCOMPARE(s.reason, StopReason::Step);
            QCOMPARE(s.position.value(), at(("0:" + std::to_string(i)).c_str()));
            QCOMPARE(in.state(), Interpreter::State::Paused);
        }
        QCOMPARE(in.records().size(), size_t(5));
        QCOMPARE(in.records()[2].outputShapes.front(), std::vector<int64_t>({ 2, 3 }));
        QCOMPARE(in.records()[2].kind, OpRecord::Kind::Kernel);
        QCOMPARE(in.records()[0].kind, OpRecord::Kind::Builtin);
        const StopInfo last = in.step();
        QCOMPARE(last.reason, StopReason::Finished);
        QVERIFY(!last.position);
        QVERIFY(in.finished());
        // log(2) + (-2)
        QCOMPARE(float(firstOf(f->scope.find("out"))), float(std::log(2.0) - 2.0)); // float32
        QCOMPARE(in.step().reason, StopReason::Finished);
    }

    void stepsRunThroughParameterLoads()
    {
        // 0 data, 1-3 parameters, 4 add, 5 add, 6 shadow_output: one step from the data op lands
        // on the first add, not on each parameter; a breakpoint on a parameter still stops.
        const char *text = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"p0"} : () -> tensor<2x3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"p1"} : () -> tensor<2x3xf32>
    (%3) = "builtin.parameter" () {parameter_name:"p2"} : () -> tensor<2x3xf32>
    (%4) = "pd_op.add" (%0, %1) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.add" (%4, %2) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%5) {output_name:"out"} : (tensor<2x3xf32>) -> 
}
)";
        auto program = parse(text);
        QVERIFY(program);
        Scope scope;
        for (const char *name : { "x", "p0", "p1", "p2" })
            scope.set(name, RuntimeValue(filled({ 2, 3 }, 1.0)));
        Interpreter in({ { "program", program, {}, {} } }, m_backend, scope);
        StopInfo s = in.step();
        QCOMPARE(s.reason, StopReason::Step);
        QCOMPARE(s.position.value(), at("0:4"));
        QCOMPARE(in.records().size(), size_t(4)); // the parameters ran
        QCOMPARE(in.step().position.value(), at("0:5"));
        QCOMPARE(in.stepInto().position.value(), at("0:6"));

        in.restart();
        QCOMPARE(in.runToCursor(at("0:2")).reason, StopReason::Cursor);
        in.restart();
        QVERIFY(in.breakpoints().addOp(at("0:3")) >= 0);
        s = in.step();
        QCOMPARE(s.reason, StopReason::Breakpoint);
        QCOMPARE(s.position.value(), at("0:3"));
    }

    void stepOverRunsAWholeIf()
    {
        auto f = make(kControlFlowProgram);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.runToCursor(at("0:4")).reason, StopReason::Cursor);
        QCOMPARE(in.currentOp()->name(), std::string_view("pd_op.if"));
        QCOMPARE(in.step().position.value(), at("0:5"));
        const Operation *ifOp = in.opAt(at("0:4"));
        QCOMPARE(firstOf(in.valueOf(ifOp->result(0))), 2.0);
        QCOMPARE(in.records().back().kind, OpRecord::Kind::ControlFlow);
        QCOMPARE(in.records().back().op, ifOp);
    }

    // A user paused inside the branch: the if's time is what its ops took, not the pause.
    void pauseInsideARegionIsNotTimed()
    {
        auto f = make(kControlFlowProgram);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        in.runToCursor(at("0:4"));
        in.stepInto();
        QTest::qSleep(300);
        QCOMPARE(in.stepOut().position.value(), at("0:5"));
        const OpRecord &ifRecord = in.records().back();
        QCOMPARE(ifRecord.kind, OpRecord::Kind::ControlFlow);
        double inside = 0;
        for (const OpRecord &r : in.records())
            if (r.position.depth() > 0)
                inside += r.hostSeconds;
        QVERIFY(inside > 0);
        QCOMPARE(ifRecord.hostSeconds, inside);
        QVERIFY2(ifRecord.hostSeconds < 0.3, qPrintable(QString::number(ifRecord.hostSeconds)));
    }

    void stepIntoTakesTheBranch_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<QString>("first");
        QTest::addColumn<double>("result");
        QTest::newRow("true") << 1.0 << "0:4/0:0" << 2.0;
        QTest::newRow("false") << -1.0 << "0:4/1:0" << 1.0;
    }
    void stepIntoTakesTheBranch()
    {
        QFETCH(double, x);
        QFETCH(QString, first);
        QFETCH(double, result);
        auto f = make(kControlFlowProgram, x);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        in.runToCursor(at("0:4"));
        QCOMPARE(in.stepInto().position.value(), at(first.toLatin1()));
        QCOMPARE(in.frames().size(), size_t(2));
        QCOMPARE(in.frames().back().owner, in.opAt(at("0:4")));
        in.step();
        in.step();
        QCOMPARE(in.currentOp()->name(), std::string_view("cf.yield"));
        QCOMPARE(in.step().position.value(), at("0:5"));
        QCOMPARE(in.frames().size(), size_t(1));
        QCOMPARE(firstOf(in.valueOf(in.opAt(at("0:4"))->result(0))), result);
    }

    void stepIntoALoop()
    {
        auto f = make(kControlFlowProgram);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        in.runToCursor(at("0:8"));
        QCOMPARE(in.stepInto().position.value(), at("0:8/0:0"));
        QCOMPARE(in.frames().back().iteration, size_t(0));
        for (int i = 0; i < 6; ++i) // five ops and the yield
            in.step();
        QCOMPARE(in.position().value(), at("0:8/0:0"));
        QCOMPARE(in.frames().back().iteration, size_t(1));
        const Operation *scale = in.opAt(at("0:8/0:1"));
        QCOMPARE(firstOf(in.valueOf(scale->result(0))), 4.0);
        QCOMPARE(in.records().back().iteration, size_t(0));
        QCOMPARE(in.stepOut().position.value(), at("0:9"));
        const Operation *loop = in.opAt(at("0:8"));
        QCOMPARE(firstOf(in.valueOf(loop->result(0))), 16.0);
        QCOMPARE(firstOf(in.valueOf(loop->result(1))), 3.0);
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QCOMPARE(firstOf(f->scope.find("y")), 16.0);
        QCOMPARE(firstOf(f->scope.find("i")), 3.0);
    }

    void stepOverALoopStopsAtABreakpointInside()
    {
        auto f = make(kControlFlowProgram);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        in.runToCursor(at("0:8"));
        const int id = in.breakpoints().addOp(at("0:8/0:3"));
        const StopInfo s = in.step();
        QCOMPARE(s.reason, StopReason::Breakpoint);
        QCOMPARE(s.breakpointId, id);
        QCOMPARE(s.position.value(), at("0:8/0:3"));
    }

    void breakpointInALoopFiresEveryIteration()
    {
        auto f = make(kControlFlowProgram);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        Recorder recorder;
        in.addObserver(&recorder);
        in.breakpoints().addOp(at("0:8/0:1"));
        std::vector<size_t> iterations;
        StopInfo s;
        while ((s = in.continueRun()).reason == StopReason::Breakpoint)
            iterations.push_back(in.frames().back().iteration);
        QCOMPARE(s.reason, StopReason::Finished);
        QCOMPARE(iterations, std::vector<size_t>({ 0, 1, 2 }));
        QCOMPARE(recorder.reasons.size(), size_t(4));
        QCOMPARE(recorder.ops.load(), int(in.records().size()));
        QCOMPARE(recorder.segments, 1);
        // 11 top-level ops minus the if and the while, 2 in the branch, 5 per iteration, and
        // a record for the if and the while.
        QCOMPARE(in.records().size(), size_t(9 + 2 + 15 + 2));
    }

    void runToCursorInsideTheTakenBranchOnly()
    {
        auto f = make(kControlFlowProgram, 1.0);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.runToCursor(at("0:4/0:1")).reason, StopReason::Cursor);
        in.restart();
        // The false branch is not taken: the run ends.
        QCOMPARE(in.runToCursor(at("0:4/1:1")).reason, StopReason::Finished);
    }

    void nanBreakpoint()
    {
        auto f = make(kLogProgram, 1.0);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        const int id = in.breakpoints().addNanInf();
        const StopInfo s = in.continueRun();
        QCOMPARE(s.reason, StopReason::NanInf);
        QCOMPARE(s.breakpointId, id);
        QVERIFY(s.record);
        const OpRecord &r = in.records()[*s.record];
        QCOMPARE(r.op->name(), std::string_view("pd_op.log"));
        QVERIFY(r.hasNanInf);
        QCOMPARE(s.position.value(), at("0:4"));
        QVERIFY(QString::fromStdString(s.message).contains("pd_op.log"));
        // The next op propagates the NaN: the breakpoint fires again.
        QCOMPARE(in.continueRun().reason, StopReason::NanInf);
        in.breakpoints().clear();
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
    }

    void nameBreakpoint()
    {
        auto f = make(kControlFlowProgram);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        std::string error;
        QCOMPARE(in.breakpoints().addNameRegex("([", error), -1);
        QVERIFY(!error.empty());
        QVERIFY(in.breakpoints().addNameRegex("^y$", error) > 0);
        const StopInfo s = in.continueRun();
        QCOMPARE(s.reason, StopReason::NameMatch);
        QCOMPARE(in.records()[*s.record].op->name(), std::string_view("pd_op.while"));
        QCOMPARE(s.position.value(), at("0:9"));
        in.breakpoints().clear();
        QVERIFY(in.breakpoints().addNameRegex("^%15$", error) > 0); // printer ids match too
        in.restart();
        const StopInfo t = in.continueRun();
        QCOMPARE(t.reason, StopReason::NameMatch);
        QCOMPARE(t.position.value(), at("0:8/0:2"));
    }

    void restartRestoresTheScope()
    {
        auto f = make(kControlFlowProgram);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QVERIFY(f->scope.contains("y"));
        f->scope.set("x", RuntimeValue(filled({ 2, 3 }, 5.0)));
        in.restart();
        QCOMPARE(in.state(), Interpreter::State::Ready);
        QCOMPARE(in.position().value(), at("0:0"));
        QVERIFY(in.records().empty());
        QVERIFY(!f->scope.contains("y"));
        QCOMPARE(firstOf(f->scope.find("x")), 1.0);
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QCOMPARE(firstOf(f->scope.find("y")), 16.0);
    }

    void oneShotRunKeepsNoSnapshot()
    {
        // restartable off: the scope is not copied, the run is the same, restart() refuses.
        Interpreter::Options options;
        options.restartable = false;
        auto f = make(kControlFlowProgram, 1.0, options);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QCOMPARE(firstOf(f->scope.find("y")), 16.0);
        QVERIFY_THROWS_EXCEPTION(RuntimeError, in.restart());
    }

    void missingKernelAndProvidedOutputs()
    {
        const char *text = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:3} : () -> tensor<1xf32>
    (%2) = "pd_op.mystery" (%0, %1) {} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.add" (%2, %0) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%3) {output_name:"out"} : (tensor<2x3xf32>) -> 
}
)";
        auto f = make(text);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        Recorder recorder;
        in.addObserver(&recorder);
        const StopInfo s = in.continueRun();
        QCOMPARE(s.reason, StopReason::Error);
        QCOMPARE(in.state(), Interpreter::State::Error);
        QCOMPARE(recorder.errors, 1);
        QVERIFY(in.error());
        const OpError &e = *in.error();
        QVERIFY(e.missingKernel);
        QCOMPARE(e.position, at("0:2"));
        const QString message = QString::fromStdString(e.toString());
        QVERIFY2(message.contains("'pd_op.mystery'"), qPrintable(message));
        QVERIFY2(message.contains("0:2"), qPrintable(message));
        QVERIFY2(message.contains("%2"), qPrintable(message));
        QVERIFY2(message.contains("float32[2, 3]"), qPrintable(message));
        QCOMPARE(s.position.value(), at("0:2")); // still at the failing op

        std::string error;
        QVERIFY(!in.provideOutputs(at("0:2"), {}, error));
        QVERIFY(QString::fromStdString(error).contains("1 result"));
        // The declared type is checked here, for every caller (CLI --provide, the debugger).
        QVERIFY(!in.provideOutputs(at("0:2"), { RuntimeValue(filled({ 3, 2 }, 7.0)) }, error));
        QVERIFY2(QString::fromStdString(error).contains(
                     "value 0 holds float32[3, 2], result 0 of pd_op.mystery at 0:2 is float32[2, 3]"),
            error.c_str());
        QCOMPARE(in.state(), Interpreter::State::Error); // still at the failing op
        QVERIFY(in.provideOutputs(at("0:2"), { RuntimeValue(filled({ 2, 3 }, 7.0)) }, error));
        QCOMPARE(in.state(), Interpreter::State::Paused);
        QCOMPARE(in.position().value(), at("0:3"));
        QCOMPARE(in.records().back().kind, OpRecord::Kind::Provided);
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QCOMPARE(firstOf(f->scope.find("out")), 8.0);
        // Provided outputs are kept for the next run.
        in.restart();
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
    }

    void kernelErrorNamesTheOperands()
    {
        const char *text = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:3} : () -> tensor<4xf32>
    (%2) = "pd_op.add" (%0, %1) {} : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
}
)";
        auto f = make(text);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        const QString message = QString::fromStdString(in.error()->toString());
        QVERIFY(!in.error()->missingKernel);
        QVERIFY2(message.contains("pd_op.add at 0:2"), qPrintable(message));
        QVERIFY2(message.contains("shapes differ"), qPrintable(message));
        QVERIFY2(message.contains("%1 float32[4]"), qPrintable(message));
        // Retrying fails the same way and does not crash.
        QCOMPARE(in.continueRun().reason, StopReason::Error);
    }

    void missingInputIsAnError()
    {
        auto f = make(kLogProgram);
        QVERIFY(f);
        f->scope.erase("x");
        f->interpreter->snapshotScope();
        f->interpreter->restart();
        QCOMPARE(f->interpreter->continueRun().reason, StopReason::Error);
        QVERIFY(QString::fromStdString(f->interpreter->error()->message)
                    .contains("input 'x' is not in the scope"));
    }

    void twoSegmentsShareTheScope()
    {
        auto forward = parse(kForward);
        auto backward = parse(kBackward);
        QVERIFY(forward && backward);
        Scope scope;
        scope.set("x", RuntimeValue(filled({ 2, 3 }, 2.0)));
        scope.set("w", RuntimeValue(filled({ 2, 3 }, 3.0)));
        Interpreter::Segment fwd { "forward", forward, { { "x", FreeReason::NotNeededLater } }, {} };
        Interpreter::Segment bwd { "backward", backward, {}, {} };
        bwd.prologue = [](Scope &s) { s.set("output_grad_0", RuntimeValue(filled({ 2, 3 }, 1.0))); };
        Interpreter in({ fwd, bwd }, m_backend, scope);
        QCOMPARE(in.stepOut().position.value(), at("1:0")); // out of the forward segment
        in.restart();
        QVERIFY(scope.contains("x"));
        QVERIFY(in.runToCursor(at("0:9")).reason == StopReason::Cursor);
        QCOMPARE(in.currentSegment(), size_t(0));
        QCOMPARE(in.step().position.value(), at("1:0"));
        QVERIFY(scope.isFreed("x"));
        QCOMPARE(scope.freedInfo("x")->reason, FreeReason::NotNeededLater);
        QVERIFY(!scope.contains("x"));
        QVERIFY(scope.find("middle_1")->isStack());
        QCOMPARE(scope.find("middle_1")->stack()->size(), size_t(1));
        QVERIFY(scope.contains("output_grad_0"));
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QCOMPARE(firstOf(scope.find("input_grad_0")), 3.0);
        QCOMPARE(firstOf(scope.find("popped")), 6.0);
        QCOMPARE(firstOf(scope.find("had")), 1.0);
        QCOMPARE(firstOf(scope.find("has")), 0.0);
        QCOMPARE(scope.find("had")->tensor().dtype(), DataType::Bool);
    }

    void poppingAnEmptyStackIsAnError()
    {
        auto backward = parse(kBackward);
        QVERIFY(backward);
        Scope scope;
        auto stack = std::make_shared<TensorStack>();
        scope.set("middle_0", RuntimeValue(stack));
        scope.set("middle_1", RuntimeValue(stack));
        scope.set("output_grad_0", RuntimeValue(filled({ 2, 3 }, 1.0)));
        scope.set("w", RuntimeValue(filled({ 2, 3 }, 1.0)));
        Interpreter in({ { "backward", backward, {}, {} } }, m_backend, scope);
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        QVERIFY(QString::fromStdString(in.error()->toString()).contains("empty stack"));
        QCOMPARE(in.error()->position, at("0:1"));
    }

    void kwargMissingFromTheScope()
    {
        auto backward = parse(kBackward);
        QVERIFY(backward);
        Scope scope;
        scope.set("middle_1", RuntimeValue(std::make_shared<TensorStack>()));
        Interpreter in({ { "backward", backward, {}, {} } }, m_backend, scope);
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        const QString message = QString::fromStdString(in.error()->toString());
        QVERIFY2(message.contains("'middle_0' is not in the scope"), qPrintable(message));
    }

    void differentialMode()
    {
        auto f = make(kControlFlowProgram);
        QVERIFY(f);
        testbackend::TestBackend same;
        f->interpreter->setReferenceBackend(&same);
        QCOMPARE(f->interpreter->continueRun().reason, StopReason::Finished);
        for (const OpRecord &r : f->interpreter->records()) {
            QCOMPARE(r.compared, r.kind == OpRecord::Kind::Kernel);
            QVERIFY(!r.diverged);
        }
        testbackend::TestBackend wrong(true);
        f->interpreter->setReferenceBackend(&wrong);
        f->interpreter->restart();
        const StopInfo s = f->interpreter->continueRun();
        QCOMPARE(s.reason, StopReason::Divergence);
        const OpRecord &r = f->interpreter->records()[*s.record];
        QCOMPARE(r.op->name(), std::string_view("pd_op.scale"));
        QCOMPARE(r.position, at("0:4/0:1"));
        QVERIFY(r.diverged);
        QVERIFY(r.maxAbsDiff > 0.9e-3);
        QVERIFY(QString::fromStdString(s.message).contains("wrong scale"));
    }

    void stopRequestFromAnotherThread()
    {
        // A loop of ten million iterations: only the stop request ends it in time.
        QByteArray text(kControlFlowProgram);
        text.replace("shape:[1],value:3}", "shape:[1],value:10000000}");
        auto f = make(text.constData());
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        Recorder recorder;
        in.addObserver(&recorder);
        StopInfo result;
        std::thread worker([&] { result = in.continueRun(); });
        while (recorder.ops < 50)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        in.requestStop();
        worker.join();
        QCOMPARE(result.reason, StopReason::StopRequested);
        QCOMPARE(in.state(), Interpreter::State::Paused);
        QVERIFY(in.position());
        QVERIFY(in.frames().back().iteration < 10000000);
        // A later run is not stopped by the old request.
        QCOMPARE(in.step().reason, StopReason::Step);
    }

    void computedTypesAreChecked_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("position"); // where the run stops ("" = it finishes)
        QTest::addColumn<QString>("expected");
        const std::string intFull = full(1, "int64", "7,7", "tensor<2x3xf32>");
        QTest::newRow("dtype and dims") << QString::fromStdString(programOf({ intFull.c_str() })) << "0:1"
                                        << "result 0 (%1) is int64[7, 7], declared float32[2, 3]";
        const std::string wide = full(1, "float32", "3,2", "tensor<2x3xf32>");
        QTest::newRow("dims") << QString::fromStdString(programOf({ wide.c_str() })) << "0:1"
                              << "result 0 (%1) is float32[3, 2], declared float32[2, 3]";
        const std::string dynamic = full(1, "float32", "7,7", "tensor<-1x-1xf32>");
        QTest::newRow("dynamic dims") << QString::fromStdString(programOf({ dynamic.c_str() })) << ""
                                      << "";
        const std::string zeroD = full(1, "float32", "", "tensor<1xf32>");
        const std::string one = full(2, "float32", "1", "tensor<f32>");
        QTest::newRow("0-d and [1]") << QString::fromStdString(programOf({ zeroD.c_str(), one.c_str() }))
                                     << ""
                                     << "";
    }

    /// Issue 22: a kernel's result of another dtype or shape than declared stops the run there,
    /// with the value named; dynamic dims and Paddle's two scalar spellings pass.
    void computedTypesAreChecked()
    {
        QFETCH(QString, program);
        QFETCH(QString, position);
        QFETCH(QString, expected);
        auto f = make(program.toStdString().c_str());
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        const StopInfo stop = in.continueRun();
        if (position.isEmpty()) {
            QCOMPARE(stop.reason, StopReason::Finished);
            return;
        }
        QCOMPARE(stop.reason, StopReason::Error);
        QCOMPARE(in.error()->position, at(position.toLatin1().constData()));
        QVERIFY(!in.error()->missingKernel);
        QCOMPARE(QString::fromStdString(in.error()->message), expected);
        QVERIFY(!in.valueOf(in.error()->op->result(0))); // the wrong value is not kept
    }

    /// A oneDNN op with a fused reshape (operator_reshape_onednn_fuse_pass) is declared as Paddle's
    /// InferMeta types it, without the reshape: only its element count is judged.
    void fusedShapeChangesAreJudgedByCount()
    {
        std::unique_ptr<Backend> plain = createCpuPlainBackend();
        const std::string source = full(1, "float32", "2,3", "tensor<2x3xf32>");
        const auto program = [&source](const char *declared) {
            const std::string op = std::string("(%2) = \"onednn_op.fused_transpose\" (%1) {axis:[1,0],"
                                               "fused_reshape2_shape:[6],fused_squeeze2_axes:[],"
                                               "fused_unsqueeze2_axes:[],output_data_type:\"\",scale:1,"
                                               "shift:0} : (tensor<2x3xf32>) -> ")
                + declared;
            return programOf({ source.c_str(), op.c_str() });
        };
        auto same = makeFixture(*plain, program("tensor<3x2xf32>").c_str());
        QVERIFY(same);
        QCOMPARE(same->interpreter->continueRun().reason, StopReason::Finished);
        auto other = makeFixture(*plain, program("tensor<4x2xf32>").c_str());
        QVERIFY(other);
        QCOMPARE(other->interpreter->continueRun().reason, StopReason::Error);
        QCOMPARE(QString::fromStdString(other->interpreter->error()->message),
            QString("result 0 (%2) is float32[6], declared float32[4, 2]"));
    }

    void controlFlowValuesAreChecked_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("expected"); // the error's toString() contains it
        const std::string boolTrue = full(1, "bool", "", "tensor<b>");
        const std::string floatCond = full(1, "float32", "", "tensor<f32>", 0.5);
        const std::string twoBools = full(1, "bool", "2", "tensor<2xb>");
        const std::string wide = full(3, "float32", "7,7", "tensor<-1x-1xf32>");
        auto ifOn = [](const std::string &cond, const char *branchOp, const char *yielded) {
            const std::string line = "(%2) = \"pd_op.if\" (%1) {} -> tensor<2x3xf32> {";
            const std::string yield
                = std::string("    () = \"cf.yield\" (") + yielded + ") {} : (tensor<2x3xf32>) -> ";
            const std::string elseYield = "    () = \"cf.yield\" (%0) {} : (tensor<2x3xf32>) -> ";
            return QString::fromStdString(
                programOf({ cond.c_str(), line.c_str(), (std::string("    ") + branchOp).c_str(),
                    yield.c_str(), "} else {", elseYield.c_str(), "}" }));
        };
        QTest::newRow("float condition") << ifOn(floatCond, "", "%0")
                                         << "pd_op.if condition is float32[], expected a one-element bool "
                                            "tensor";
        QTest::newRow("two-element condition") << ifOn(twoBools, "", "%0")
                                               << "pd_op.if condition is bool[2], expected a one-element "
                                                  "bool tensor";
        QTest::newRow("branch value") << ifOn(boolTrue, wide.c_str(), "%3")
                                      << "cf.yield at 0:2/0:1: pd_op.if result 0 (%2) gets float32[7, 7], "
                                         "declared float32[2, 3] from region #0";
        // A loop whose body yields a variable of another shape: stopped when it is bound again.
        const std::string again = full(4, "bool", "1", "tensor<1xb>");
        const std::string loop = "(%2) = \"pd_op.while\" (cond=%1, inputs=%0) {";
        const std::string body = "    " + full(3, "float32", "7,7", "tensor<-1x-1xf32>");
        const std::string loopAgain = "    " + again;
        QTest::newRow("loop variable")
            << QString::fromStdString(
                   programOf({ boolTrue.c_str(), loop.c_str(), "^%arg_0", body.c_str(), loopAgain.c_str(),
                       "    () = \"cf.yield\" (%4, %3) {} : (tensor<1xb>, tensor<-1x-1xf32>) -> ", "}" }))
            << "loop variable 0 (%arg_0 (arg_0)) of pd_op.while gets float32[7, 7], "
               "declared float32[2, 3]";
        // An op without the operand it reads (the verifier refuses such programs; no crash here).
        QTest::newRow("missing operand")
            << QString::fromStdString(programOf({ "(%1) = \"pd_op.fetch\" () {col:0,name:\"out\"} : () -> "
                                                  "tensor<2x3xf32>" }))
            << "pd_op.fetch has 0 operand(s), operand 0 is needed";
    }

    /// if/while conditions must be one-element bool tensors; a branch's or loop body's values must
    /// fit the declared types of the if's results and the loop's variables.
    void controlFlowValuesAreChecked()
    {
        QFETCH(QString, program);
        QFETCH(QString, expected);
        auto f = make(program.toStdString().c_str());
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        const QString message = QString::fromStdString(in.error()->toString());
        QVERIFY2(message.contains(expected), qPrintable(message));
        QCOMPARE(in.continueRun().reason, StopReason::Error); // retrying fails the same way
    }
};

QTEST_GUILESS_MAIN(TestInterpreter)
#include "tst_interpreter.moc"
