#include "core/io/memorybudget.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/allocator.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/tensorstack.h"
#include "interpretertestbackend.h"

#include <QtTest>
#include <atomic>
#include <cmath>
#include <thread>

using namespace ps;

namespace {

// 0 data, 1 full, 2 scale (x * -1), 3 log, 4 add, 5 shadow_output "out".
const char *const kLogProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:-1} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.log" (%2) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.add" (%3, %0) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%4) {output_name:"out"} : (tensor<2x3xf32>) -> 
}
)";

// 0 data, 1 mean, 2 full, 3 greater_than, 4 if (x*2 | x*-1), 5 full 0, 6 full 3, 7 less_than,
// 8 while (3 iterations: v*2, i+1), 9 shadow_output "y", 10 shadow_output "i".
const char *const kControlFlowProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.mean" (%0) {} : (tensor<2x3xf32>) -> tensor<f32>
    (%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[],value:0} : () -> tensor<f32>
    (%3) = "pd_op.greater_than" (%1, %2) {} : (tensor<f32>, tensor<f32>) -> tensor<b>
    (%4) = "pd_op.if" (%3) {} -> tensor<2x3xf32> {
        (%5) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:2} : () -> tensor<1xf32>
        (%6) = "pd_op.scale" (%0, %5) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%6) {} : (tensor<2x3xf32>) -> 
    } else {
        (%7) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:-1} : () -> tensor<1xf32>
        (%8) = "pd_op.scale" (%0, %7) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%8) {} : (tensor<2x3xf32>) -> 
    }
    (%9) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],value:0} : () -> tensor<1xi64>
    (%10) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],value:3} : () -> tensor<1xi64>
    (%11) = "pd_op.less_than" (%9, %10) {} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%12, %13) = "pd_op.while" (cond=%11, inputs=%4, %9) { 
    ^%arg_0 {stop_gradient:false}, %arg_1 {stop_gradient:true}
        (%14) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:2} : () -> tensor<1xf32>
        (%15) = "pd_op.scale" (%arg_0, %14) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        (%16) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:1} : () -> tensor<1xf32>
        (%17) = "pd_op.scale" (%arg_1, %16) {bias:1,bias_after_scale:true} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%18) = "pd_op.less_than" (%17, %10) {} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%18, %15, %17) {} : (tensor<1xb>, tensor<2x3xf32>, tensor<1xi64>) -> 
    }
    () = "builtin.shadow_output" (%12) {output_name:"y"} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%13) {output_name:"i"} : (tensor<1xi64>) -> 
}
)";

// Forward/backward pair communicating through the scope, with stacks as in a while grad.
const char *const kForward = R"({
    (%stack_0, %inlet_0, %outlet_0) = "cf.stack_create" () {} : () -> cf.stack, cf.inlet, cf.outlet
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2x3xf32>
    (%2) = "pd_op.multiply" (%0, %1) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "builtin.combine" (%0, %2) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> vec[tensor<2x3xf32>,tensor<2x3xf32>]
    (%4, %5) = "builtin.split" (%3) {} : (vec[tensor<2x3xf32>,tensor<2x3xf32>]) -> tensor<2x3xf32>, tensor<2x3xf32>
    () = "cf.tuple_push" (%inlet_0, %5) {} : (cf.inlet, tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%outlet_0) {output_name:"middle_0"} : (cf.outlet) -> 
    () = "builtin.shadow_output" (%stack_0) {output_name:"middle_1"} : (cf.stack) -> 
    () = "builtin.shadow_output" (%5) {output_name:"output_0"} : (tensor<2x3xf32>) -> 
}
)";

const char *const kBackward = R"({
    ^kw:
        %kwarg_output_grad_0 {}
        %kwarg_middle_0 {}
        %kwarg_middle_1 {}
        %kwarg_w {}
    (%0) = "cf.has_elements" (%kwarg_middle_1) {} : (cf.stack) -> tensor<1xb>
    (%1) = "cf.tuple_pop" (%kwarg_middle_0) {} : (cf.outlet) -> tensor<2x3xf32>
    (%2) = "pd_op.multiply" (%kwarg_output_grad_0, %kwarg_w) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "cf.has_elements" (%kwarg_middle_1) {} : (cf.stack) -> tensor<1xb>
    () = "builtin.shadow_output" (%2) {output_name:"input_grad_0"} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%1) {output_name:"popped"} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%0) {output_name:"had"} : (tensor<1xb>) -> 
    () = "builtin.shadow_output" (%3) {output_name:"has"} : (tensor<1xb>) -> 
}
)";

std::shared_ptr<const Program> parse(const char *text)
{
    LoadResult r = PirTextReader::readString(text, "test");
    if (!r.ok())
        qWarning() << r.diagnostics.items().front().toString().c_str();
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

Tensor filled(std::vector<int64_t> shape, double value)
{
    std::vector<double> v(size_t(numElementsOf(shape)), value);
    return Tensor::fromDoubles(shape, DataType::Float32, v);
}

ProgramPosition at(const char *text)
{
    return ProgramPosition::parse(text).value();
}

double firstOf(const RuntimeValue *v)
{
    return v && v->isTensor() ? v->tensor().valueAsDouble(0) : std::nan("");
}

/// `{ lines }` with x (float32[2, 3]) as %0; each line one op of the program's text.
std::string programOf(std::initializer_list<const char *> lines)
{
    std::string text
        = "{\n    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(cpu),shape:[2,3],"
          "stop_gradient:[false]} : () -> tensor<2x3xf32>\n";
    for (const char *line : lines)
        text += std::string("    ") + line + "\n";
    return text + "}\n";
}

/// An op line `(%N) = "pd_op.full" ...` making `dtype[shape]` and declaring `type`.
std::string full(int id, const char *dtype, const char *shape, const char *type, double value = 1)
{
    return "(%" + std::to_string(id) + ") = \"pd_op.full\" () {dtype:" + dtype + ",place:Place(cpu),shape:["
        + shape + "],value:" + std::to_string(value) + "} : () -> " + type;
}

/// x through relu while a condition that stays true: a loop that never ends.
std::string endlessLoop()
{
    return programOf({
        "(%1) = \"pd_op.full\" () {dtype:bool,place:Place(cpu),shape:[1],value:1} : () -> tensor<1xb>",
        "(%2) = \"pd_op.while\" (cond=%1, inputs=%0) {",
        "^%arg_0 {stop_gradient:false}",
        "    (%3) = \"pd_op.scale\" (%arg_0, %1) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, "
        "tensor<1xb>) -> tensor<2x3xf32>",
        "    (%4) = \"pd_op.full\" () {dtype:bool,place:Place(cpu),shape:[1],value:1} : () -> tensor<1xb>",
        "    () = \"cf.yield\" (%4, %3) {} : (tensor<1xb>, tensor<2x3xf32>) -> ",
        "}",
        "() = \"builtin.shadow_output\" (%2) {output_name:\"out\"} : (tensor<2x3xf32>) -> ",
    });
}

/// Counts events.
class Recorder : public InterpreterObserver
{
public:
    void opExecuted(const OpRecord &) override { ++ops; }
    void segmentFinished(size_t) override { ++segments; }
    void errorRaised(const OpError &) override { ++errors; }
    void stopped(const StopInfo &info) override { reasons.push_back(info.reason); }
    std::atomic<int> ops { 0 };
    int segments = 0;
    int errors = 0;
    std::vector<StopReason> reasons;
};

} // namespace

/// The Interpreter on hand-written programs with a test backend: stepping (over, into, out),
/// run to cursor, breakpoints (op, NaN/Inf, name), restart, two segments sharing a scope,
/// missing kernels, kernel errors, differential mode and stop requests.
class TestInterpreter : public QObject
{
    Q_OBJECT

    testbackend::TestBackend m_backend;

    struct Fixture
    {
        std::shared_ptr<const Program> program;
        Scope scope;
        std::unique_ptr<Interpreter> interpreter;
    };

    std::unique_ptr<Fixture> make(const char *text, double x = 1.0, Interpreter::Options options = {})
    {
        auto f = std::make_unique<Fixture>();
        f->program = parse(text);
        if (!f->program)
            return nullptr;
        f->scope.set("x", RuntimeValue(filled({ 2, 3 }, x)));
        f->interpreter = std::make_unique<Interpreter>(
            std::vector<Interpreter::Segment> { { "program", f->program, {}, {} } }, m_backend, f->scope,
            options);
        return f;
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

    /// Issue 22: a pd_op.while whose condition stays true ends at the op limit, the op named.
    void opLimitEndsAnEndlessLoop()
    {
        Interpreter::Options options;
        options.maxOps = 100;
        const std::string text = endlessLoop();
        auto f = make(text.c_str(), 1.0, options);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        QCOMPARE(in.state(), Interpreter::State::Error);
        QVERIFY(in.error()->bounded);
        const QString message = QString::fromStdString(in.error()->toString());
        QVERIFY2(message.contains(QStringLiteral("stopped before op 101: the limit of 100 executed ops")),
            qPrintable(message));
        QCOMPARE(in.position()->depth(), size_t(1)); // inside the loop's body
        QVERIFY(in.frames().back().iteration > 10);
        // Bounded again after a restart, not before its first op; a failed op is no way past it.
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        in.restart();
        QCOMPARE(in.step().reason, StopReason::Step);
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        QVERIFY(in.error()->message.find("op 101") != std::string::npos);
        // The process-wide limit (--max-ops) applies where a run sets none.
        Interpreter::setDefaultMaxOps(40);
        auto g = make(text.c_str());
        const StopReason bounded = g->interpreter->continueRun().reason;
        Interpreter::setDefaultMaxOps(0);
        QCOMPARE(bounded, StopReason::Error);
        QVERIFY2(g->interpreter->error()->message.find("the limit of 40 executed ops") != std::string::npos,
            g->interpreter->error()->message.c_str());
        // A program that ends within the limit is not touched by it.
        options.maxOps = 1000;
        auto h = make(kControlFlowProgram, 1.0, options);
        QCOMPARE(h->interpreter->continueRun().reason, StopReason::Finished);
    }

    /// A background run nobody waits for (a closed window's numeric check) ends inside the loop.
    void cancelEndsARunInsideALoop()
    {
        auto asked = std::make_shared<std::atomic<int>>(0);
        Interpreter::Options options;
        options.canceled = [asked] { return ++*asked > 500; };
        const std::string text = endlessLoop();
        auto f = make(text.c_str(), 1.0, options);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        QVERIFY(in.error()->bounded);
        QCOMPARE(in.error()->message, std::string("canceled after 500 executed ops"));
        QCOMPARE(in.position()->depth(), size_t(1));
    }

    /// Records count against the host-memory budget: an endless loop stops when they pass it and
    /// gives the budget back when the interpreter goes.
    void recordsCountAgainstTheBudget()
    {
        const uint64_t before = MemoryBudget::inUse();
        MemoryBudget::setLimit(before + (uint64_t(256) << 10));
        {
            const std::string text = endlessLoop();
            auto f = make(text.c_str());
            QVERIFY(f);
            Interpreter &in = *f->interpreter;
            QCOMPARE(in.continueRun().reason, StopReason::Error);
            QVERIFY(in.error()->bounded);
            QVERIFY2(in.error()->message.find("recording the executed ops needs") != std::string::npos,
                in.error()->message.c_str());
            QVERIFY(in.records().size() > 100);
            QVERIFY(MemoryBudget::inUse() > before + (uint64_t(200) << 10));
            in.restart(); // gives the records' budget back
            QVERIFY(MemoryBudget::inUse() < before + (uint64_t(64) << 10));
            QCOMPARE(in.continueRun().reason, StopReason::Error);
        }
        MemoryBudget::setLimit(0);
        QCOMPARE(MemoryBudget::inUse(), before);
    }

    void recordLimitKeepsTheLatest()
    {
        Interpreter::Options options;
        options.recordLimit = 10;
        auto f = make(kControlFlowProgram, 1.0, options);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        std::string error;
        in.breakpoints().addNameRegex("^y$", error);
        const StopInfo s = in.continueRun();
        QCOMPARE(s.reason, StopReason::NameMatch);
        QVERIFY(in.records().size() <= 10);
        QCOMPARE(in.records().back().sequence, size_t(25)); // the while, after 25 records
        QCOMPARE(in.records()[*s.record].op->name(), std::string_view("pd_op.while"));
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

    /// Eager deletion: each value goes after its last read (a loop's values when the loop ends),
    /// a freeAfter variable at its last read instead of the segment's end (a no_need_buffer one
    /// keeps an unbacked meta), and the allocator's bytes follow: 24 bytes per 2x3 float value.
    void eagerDeletionFreesAfterTheLastRead()
    {
        auto program = parse(kLogProgram);
        QVERIFY(program);
        Scope scope;
        scope.set("x", RuntimeValue(filled({ 2, 3 }, -2.0)));
        Interpreter::Options options;
        options.eagerDeletion = true;
        Interpreter in(
            { { "program", program, { { "x", FreeReason::NoNeedBuffer } }, {} } }, m_backend, scope, options);
        QCOMPARE(in.startLiveBytes(), int64_t(24));
        QCOMPARE(in.runToCursor(at("0:4")).reason, StopReason::Cursor);
        const Operation *scale = in.opAt(at("0:2"));
        QVERIFY(!in.valueOf(scale->result(0))); // read by the log only
        QVERIFY(in.valueOf(in.opAt(at("0:3"))->result(0)));
        QVERIFY(!scope.isFreed("x")); // the add still reads it
        // data 24, full 4, scale 24 (with the full gone after it), log 24 (the scale gone after it).
        QCOMPARE(in.records()[1].liveBytes, int64_t(28));
        QCOMPARE(in.records()[2].liveBytes, int64_t(52));
        QCOMPARE(in.records()[3].liveBytes, int64_t(72));
        QCOMPARE(in.step().reason, StopReason::Step);
        QVERIFY(scope.isFreed("x"));
        const RuntimeValue *meta = scope.find("x");
        QVERIFY(meta && meta->isTensor());
        QCOMPARE(meta->tensor().shape(), std::vector<int64_t>({ 2, 3 }));
        QCOMPARE(&meta->tensor().storage()->allocator(), &unbackedAllocator());
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QCOMPARE(float(firstOf(scope.find("out"))), float(std::log(2.0) - 2.0)); // x read before it went
        // The output and x: what the scope held at the start counts to the end (see liveBytes()).
        QCOMPARE(in.liveBytes(), int64_t(48));
        QVERIFY(in.peakLiveBytes() >= int64_t(72));

        // Loops and branches: the values inside go when their op ends, the results are right.
        auto f = make(kControlFlowProgram, 1.0, options);
        QVERIFY(f);
        QCOMPARE(f->interpreter->continueRun().reason, StopReason::Finished);
        QCOMPARE(firstOf(f->scope.find("y")), 16.0);
        QCOMPARE(firstOf(f->scope.find("i")), 3.0);
        QVERIFY(!f->interpreter->valueOf(f->interpreter->opAt(at("0:4"))->result(0)));
    }

    void scopeFreesAndPoisons()
    {
        Scope scope;
        scope.set("a", RuntimeValue(filled({ 2 }, 1.0)));
        scope.set("b", RuntimeValue(filled({ 3 }, 1.0)));
        scope.set("c", RuntimeValue(filled({ 3 }, 1.0)));
        QCOMPARE(scope.bytes(), size_t(32));
        QVERIFY(scope.free("a", FreeReason::NotNeededLater));
        QVERIFY(!scope.contains("a"));
        QVERIFY(scope.isFreed("a"));
        QVERIFY(scope.free("b", FreeReason::NoNeedBuffer, FreedMeta::Poisoned));
        QVERIFY(scope.contains("b"));
        QCOMPARE(scope.find("b")->tensor().shape(), std::vector<int64_t>({ 3 }));
        QVERIFY(std::isnan(firstOf(scope.find("b"))));
        QVERIFY(scope.free("c", FreeReason::NoNeedBuffer, FreedMeta::Same));
        QCOMPARE(firstOf(scope.find("c")), 1.0);
        QCOMPARE(scope.freed().size(), size_t(3));
        QCOMPARE(scope.freedInfo("b")->description, std::string("float32[3]"));
        QVERIFY(!scope.free("zzz", FreeReason::Explicit));
        scope.set("a", RuntimeValue(filled({ 2 }, 1.0)));
        QVERIFY(!scope.isFreed("a"));
        QCOMPARE(scope.names(), std::vector<std::string>({ "a", "b", "c" }));
    }
};

QTEST_GUILESS_MAIN(TestInterpreter)
#include "tst_interpreter.moc"
