#include "core/io/memorybudget.h"
#include "core/io/pirtextreader.h"
#include "core/io/programloader.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/cpu/cpubackend.h"
#include "core/runtime/npyio.h"
#include "core/runtime/tensorcomparison.h"
#include "core/session/bundleprograms.h"
#include "core/transform/partialprogram.h"
#include "ui/debugger/breakpointsmodel.h"
#include "ui/debugger/debuggeractions.h"
#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debuggertoolbar.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/executedopsmodel.h"
#include "ui/debugger/framesmodel.h"
#include "ui/debugger/graphmarks.h"
#include "ui/debugger/opvaluesmodel.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/inspector/watchmodel.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFrame>
#include <QLabel>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace ps;

namespace {

using State = DebugSession::State;

constexpr int kLongTimeout = 60000;

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
const QString kIfBundle = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/control_flow_if");

// 0 full 2, 1 full -1, 2 scale (-2), 3 log (NaN), 4 add, 5 shadow_output.
const char *const kNanProgram = R"({
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2,3],value:2} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:-1} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.log" (%2) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.add" (%3, %0) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%4) {output_name:"out"} : (tensor<2x3xf32>) -> 
}
)";

// 0 full 1, 1 relu, 2 an op without any kernel, 3 add, 4 shadow_output.
const char *const kMissingKernelProgram = R"({
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2,2],value:1} : () -> tensor<2x2xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%2) = "pd_op.pirscope_no_such_kernel" (%1) {} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%3) = "pd_op.add" (%2, %1) {} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    () = "builtin.shadow_output" (%3) {output_name:"out"} : (tensor<2x2xf32>) -> 
}
)";

std::shared_ptr<const Program> parseText(const std::string &text)
{
    LoadResult r = PirTextReader::readString(text, "test");
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

std::shared_ptr<const Program> loadFile(const QString &path)
{
    LoadResult r = loadProgram(path.toStdString());
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

/// A `pd_op.while` of `iterations` 128x128 matmuls: a run long enough to stop, in constant memory
/// (each iteration overwrites the values of the last).
std::string longProgram(int iterations)
{
    return R"({
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[128,128],value:1} : () -> tensor<128x128xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[128,128],value:0.0078125} : () -> tensor<128x128xf32>
    (%2) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],value:0} : () -> tensor<1xi64>
    (%3) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],value:)"
        + std::to_string(iterations) + R"(} : () -> tensor<1xi64>
    (%4) = "pd_op.less_than" (%2, %3) {} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%5, %6) = "pd_op.while" (cond=%4, inputs=%0, %2) { 
    ^%arg_0 {stop_gradient:false}, %arg_1 {stop_gradient:true}
        (%7) = "pd_op.matmul" (%arg_0, %1) {transpose_x:false,transpose_y:false} : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
        (%8) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:1} : () -> tensor<1xf32>
        (%9) = "pd_op.scale" (%arg_1, %8) {bias:1,bias_after_scale:true} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%10) = "pd_op.less_than" (%9, %3) {} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%10, %7, %9) {} : (tensor<1xb>, tensor<128x128xf32>, tensor<1xi64>) -> 
    }
    () = "builtin.shadow_output" (%5) {output_name:"y"} : (tensor<128x128xf32>) -> 
}
)";
}

ProgramPosition at(const char *text)
{
    return ProgramPosition::parse(text).value();
}

QString opName(const Operation *op)
{
    return op ? QString::fromUtf8(op->name().data(), qsizetype(op->name().size())) : QString();
}

/// Waits until the session is idle in one of the non-running states.
bool waitIdle(DebugSession &s, int timeout = kLongTimeout)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (s.state() != State::Running)
            return true;
        QTest::qWait(5);
    }
    return false;
}

/// The control_flow_if bundle through our dy2static pipeline, as ProgramRunner runs it.
struct IfPipeline
{
    std::shared_ptr<const TraceBundle> bundle;
    std::shared_ptr<const PipelineResult> pipeline;
};

IfPipeline loadIfPipeline()
{
    IfPipeline p;
    DiagnosticList diagnostics;
    std::shared_ptr<TraceBundle> bundle = TraceBundle::open(kIfBundle.toStdString(), diagnostics);
    if (!bundle)
        return p;
    auto layer = BundlePrograms::makeLayer(*bundle, diagnostics);
    std::optional<RunnableProgram> train = BundlePrograms::paddleTrainProgram(*bundle, diagnostics);
    if (!layer || !train)
        return p;
    layer->useTrainProgram(std::move(*train));
    PipelineResult r = layer->snapshot(true);
    if (!r.ok())
        return p;
    p.bundle = bundle;
    p.pipeline = std::make_shared<const PipelineResult>(std::move(r));
    return p;
}

double maxAbsDiff(const Tensor &a, const Tensor &b)
{
    if (!a.defined() || !b.defined() || a.numElements() != b.numElements())
        return INFINITY;
    double m = 0;
    for (int64_t i = 0; i < a.numElements(); ++i)
        m = std::max(m, std::abs(a.valueAsDouble(i) - b.valueAsDouble(i)));
    return m;
}

} // namespace

/// DebugSession (interpreter on a worker thread) with its models, actions, toolbar, marks and
/// panel, offscreen: stepping the bundled example on the CPU, step into / out of an `if`,
/// breakpoints and run to cursor, the NaN/Inf breakpoint and its cause, a missing kernel stepped
/// past with provided outputs, stop and pause during a long run, restart, a forward + backward
/// pipeline compared with Paddle's tensors, and the device list without CUDA.
class TestDebugSession : public QObject
{
    Q_OBJECT

private slots:
    void stepsTheBundledExample()
    {
        auto program = loadFile(kExample);
        QVERIFY(program);
        DebugSession s;
        QSignalSpy states(&s, &DebugSession::stateChanged);
        QSignalSpy stops(&s, &DebugSession::stoppedAt);
        s.setProgram(program, kExample);
        QCOMPARE(s.sources().params, DebugSources::Kind::Pdiparams);
        QCOMPARE(s.state(), State::NotStarted);

        // F10 without a session: starts and stops at the first op.
        s.stepOver();
        QCOMPARE(s.state(), State::Running);
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Paused);
        QCOMPARE(s.position().value(), at("0:0"));
        QCOMPARE(s.records().size(), size_t(0));
        QCOMPARE(stops.count(), 1);
        // The first step runs through the 16 parameter loads to the data op (0:16).
        for (int i = 16; i <= 18; ++i) {
            s.stepOver();
            QVERIFY(waitIdle(s));
            QCOMPARE(s.position().value(), at(("0:" + std::to_string(i)).c_str()));
        }
        QCOMPARE(s.records().size(), size_t(18));
        QCOMPARE(stops.count(), 4);
        QCOMPARE(stops.last().at(1).toString(), QStringLiteral("step"));
        QVERIFY(s.backendName().startsWith(QStringLiteral("CPU")));

        QSignalSpy executed(&s, &DebugSession::opExecuted);
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Finished);
        QCOMPARE(s.records().size(), size_t(program->numOps()));
        QCOMPARE(executed.count(), int(program->numOps()) - 18);
        QVERIFY(!s.position());

        // The parameters came from lenet_bn.pdiparams: the CLI prints max 0.108447 for the same
        // run (random input, seed 0); random parameters give another distribution.
        const Operation *softmax = nullptr;
        for (const Operation *op : program->block().ops())
            if (op->name() == "pd_op.softmax")
                softmax = op;
        QVERIFY(softmax);
        const Tensor out = s.hostValue(softmax->result(0));
        QVERIFY(out.defined());
        QCOMPARE(out.numElements(), int64_t(10));
        double sum = 0, max = 0;
        for (double v : out.toDoubles()) {
            sum += v;
            max = std::max(max, v);
        }
        QVERIFY(std::abs(sum - 1.0) < 1e-5);
        QVERIFY2(std::abs(max - 0.108447) < 1e-5, qPrintable(QString::number(max)));
        // States seen: Running, Paused, ..., Finished.
        QCOMPARE(states.first().at(0).value<State>(), State::Running);
        QCOMPARE(states.last().at(0).value<State>(), State::Finished);
    }

    void stepIntoAndOutOfAnIf()
    {
        auto program = loadFile(kIfBundle + "/program.json");
        QVERIFY(program);
        DebugSession s;
        FramesModel frames(&s);
        QAbstractItemModelTester framesTester(&frames);
        s.setProgram(program, kIfBundle + "/program.json");
        QCOMPARE(s.sources().params, DebugSources::Kind::Random);
        s.runToCursor(at("0:9"));
        QVERIFY(waitIdle(s));
        QCOMPARE(s.lastStop().reason, StopReason::Cursor);
        QCOMPARE(opName(s.currentOp()), QStringLiteral("pd_op.if"));
        QCOMPARE(frames.rowCount(), 1);

        s.stepInto();
        QVERIFY(waitIdle(s));
        const ProgramPosition inside = s.position().value();
        QCOMPARE(inside.path.size(), size_t(3));
        QCOMPARE(inside.path[0], size_t(9));
        QCOMPARE(inside.path[2], size_t(0));
        const QString first
            = inside.path[1] == 0 ? QStringLiteral("pd_op.relu") : QStringLiteral("pd_op.tanh");
        QCOMPARE(opName(s.currentOp()), first);
        QCOMPARE(s.frames().size(), size_t(2));
        QCOMPARE(frames.rowCount(), 2);
        QVERIFY(frames.index(0, FramesModel::FrameColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("pd_op.if")));
        QCOMPARE(frames.index(0, FramesModel::PositionColumn).data().toString(),
            QString::fromStdString(inside.toString()));
        QVERIFY(frames.index(1, FramesModel::FrameColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("top block")));

        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.position()->path.back(), size_t(1));
        s.stepOut();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.position().value(), at("0:10"));
        QCOMPARE(frames.rowCount(), 1);

        // Stepping over the if runs it whole.
        s.restart();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.position().value(), at("0:0"));
        QCOMPARE(s.records().size(), size_t(0));
        s.runToCursor(at("0:9"));
        QVERIFY(waitIdle(s));
        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.position().value(), at("0:10"));
        QCOMPARE(s.records().back().kind, OpRecord::Kind::ControlFlow);
        QCOMPARE(opName(s.records().back().op), QStringLiteral("pd_op.if"));
    }

    void breakpointsAndRunToCursor()
    {
        auto program = loadFile(kExample);
        DebugSession s;
        BreakpointsModel breakpoints(&s);
        ExecutedOpsModel executed(&s);
        QAbstractItemModelTester bpTester(&breakpoints);
        QAbstractItemModelTester executedTester(&executed);
        s.setProgram(program, kExample);
        QVERIFY(s.toggleBreakpoint(at("0:20")));
        QVERIFY(s.toggleBreakpointAt(program->block().op(30)));
        QCOMPARE(breakpoints.rowCount(), 2);
        QCOMPARE(breakpoints.index(0, 0).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QVERIFY(breakpoints.index(0, 0).data().toString().endsWith(QStringLiteral("at 0:20")));

        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.lastStop().reason, StopReason::Breakpoint);
        QCOMPARE(s.position().value(), at("0:20"));
        QCOMPARE(s.records().size(), size_t(20));
        QCOMPARE(breakpoints.index(0, BreakpointsModel::HitsColumn).data().toInt(), 1);
        QCOMPARE(executed.rowCount(), 21);
        QCOMPARE(executed.currentRow(), 20);
        QCOMPARE(executed.marks(20), QStringLiteral("● ▶"));
        QCOMPARE(
            executed.index(20, ExecutedOpsModel::SequenceColumn).data().toString(), QStringLiteral("next"));
        QVERIFY(executed.index(3, ExecutedOpsModel::WallColumn).data().toString().toDouble() >= 0);

        // Unchecking the second breakpoint lets the run go to the end.
        QVERIFY(breakpoints.setData(breakpoints.index(1, 0), Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(!s.breakpoints()[1].enabled);
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Finished);
        QCOMPARE(executed.rowCount(), int(program->numOps()));
        QCOMPARE(executed.currentRow(), -1);

        // Run to cursor from a fresh start; the breakpoint before it stops first.
        s.restart();
        QVERIFY(waitIdle(s));
        s.runToCursor(at("0:25"));
        QVERIFY(waitIdle(s));
        QCOMPARE(s.lastStop().reason, StopReason::Breakpoint);
        s.runToCursor(at("0:25"));
        QVERIFY(waitIdle(s));
        QCOMPARE(s.lastStop().reason, StopReason::Cursor);
        QCOMPARE(s.position().value(), at("0:25"));
        QVERIFY(!s.toggleBreakpoint(at("0:20")));
        QCOMPARE(breakpoints.rowCount(), 1);
        QCOMPARE(s.breakpointAt(at("0:20")), -1);
        QCOMPARE(s.toggleBreakpoint(at("0:999")), false);

        // A new target keeps the breakpoints on its own ops (and the NaN/name ones).
        s.setBreakOnNanInf(true);
        s.setProgram(program, kExample);
        QCOMPARE(s.state(), State::Running); // the session is ending
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::NotStarted);
        QCOMPARE(breakpoints.rowCount(), 2);
        s.continueRun(); // the remaining op breakpoint is disabled
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Finished);
        const auto nanProgram = parseText(kNanProgram);
        s.setProgram(nanProgram);
        QCOMPARE(breakpoints.rowCount(), 1);
        QCOMPARE(s.breakpoints().front().kind, DebugBreakpoint::Kind::NanInf);
        // F5 right after the switch (the old session still ending) starts the new one.
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.lastStop().reason, StopReason::NanInf);
        QCOMPARE(s.records().size(), size_t(4));
    }

    void nanBreakpointShowsTheCause()
    {
        auto program = parseText(kNanProgram);
        QVERIFY(program);
        DebugSession s;
        DebuggerActions actions(&s);
        DebuggerPanel panel(&s);
        s.setProgram(program);
        actions.breakOnNanInfAction()->setChecked(true);
        QVERIFY(s.breakOnNanInf());
        QCOMPARE(s.breakpoints().size(), size_t(1));
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.lastStop().reason, StopReason::NanInf);
        QCOMPARE(opName(s.records().back().op), QStringLiteral("pd_op.log"));
        QVERIFY(s.records().back().hasNanInf);
        QCOMPARE(s.position().value(), at("0:4"));
        QVERIFY2(s.causeText().contains(QStringLiteral("pd_op.log itself, from finite operands")),
            qPrintable(s.causeText()));
        QVERIFY2(s.causeText().contains(QStringLiteral("[-2, -2]")), qPrintable(s.causeText()));
        QVERIFY(s.causeText().contains(QStringLiteral("6 NaN")));
        QVERIFY(!panel.errorBox()->isHidden());
        QVERIFY(panel.errorLabel()->text().contains(QStringLiteral("Cause")));
        // The panel follows the stop: the log's result is in the inspector.
        QCOMPARE(panel.inspectedValue(), program->block().op(3)->result(0));
        QVERIFY(std::isnan(panel.inspector()->tensor().valueAsDouble(0)));

        // The next op reads the NaN: its cause is the operand.
        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.lastStop().reason, StopReason::NanInf);
        QVERIFY2(s.causeText().contains(QStringLiteral("operand 0 %3 already holds 6 NaN")),
            qPrintable(s.causeText()));

        actions.breakOnNanInfAction()->setChecked(false);
        QVERIFY(!s.breakOnNanInf());
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Finished);
        QVERIFY(panel.errorBox()->isHidden());
    }

    void missingKernelAndProvidedOutputs()
    {
        auto program = parseText(kMissingKernelProgram);
        QVERIFY(program);
        DebugSession s;
        DebuggerPanel panel(&s);
        QSignalSpy errors(&s, &DebugSession::error);
        s.setProgram(program);
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Error);
        QVERIFY(s.currentError() && s.currentError()->missingKernel);
        QCOMPARE(errors.count(), 1);
        const QString message = errors.first().first().toString();
        QVERIFY2(
            message.contains(QStringLiteral("pd_op.pirscope_no_such_kernel at 0:2")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("float32[2, 2]")), qPrintable(message));
        QVERIFY(!panel.errorBox()->isHidden());
        QVERIFY(!panel.provideButton()->isHidden());

        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("out.npy"));
        std::vector<double> threes(4, 3.0);
        std::string error;
        QVERIFY(NpyIO::write(
            file.toStdString(), Tensor::fromDoubles({ 2, 2 }, DataType::Float32, threes), error));
        QVERIFY(s.provideOutputs({ file }));
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Paused);
        QCOMPARE(s.position().value(), at("0:3"));
        QCOMPARE(s.records().back().kind, OpRecord::Kind::Provided);
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Finished);
        QCOMPARE(s.hostValue(program->block().op(3)->result(0)).valueAsDouble(0), 4.0);
    }

    /// Issue 22: the executed ops the session keeps count against the host-memory budget; a
    /// loop that would keep more is paused with the budget's error (it grew 180 MB/s), and the
    /// budget comes back when the session stops.
    void keptRecordsHonourTheBudget()
    {
        auto program = parseText(longProgram(100000000));
        QVERIFY(program);
        const uint64_t before = MemoryBudget::inUse();
        {
            DebugSession s;
            s.setProgram(program);
            s.stepOver();
            QVERIFY(waitIdle(s));
            MemoryBudget::setLimit(MemoryBudget::inUse() + (uint64_t(2) << 20));
            QSignalSpy errors(&s, &DebugSession::error);
            s.continueRun();
            QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), kLongTimeout);
            QVERIFY(waitIdle(s));
            MemoryBudget::setLimit(0);
            const QString message = errors.first().first().toString();
            QVERIFY2(message.contains(QStringLiteral("(the host-memory budget)")), qPrintable(message));
            QVERIFY(s.state() == State::Paused || s.state() == State::Error);
            QVERIFY(s.records().size() > 100);
            QVERIFY(s.records().size() < 20000); // 2 MB of records of about 280 bytes each
            s.stop();
            QTRY_COMPARE_WITH_TIMEOUT(s.state(), State::NotStarted, 10000);
        }
        QCOMPARE(MemoryBudget::inUse(), before);
    }

    void stopAndPauseDuringALongRun()
    {
        const int iterations = 1000000;
        auto program = parseText(longProgram(iterations));
        QVERIFY(program);
        DebugSession s;
        ExecutedOpsModel executed(&s);
        QAbstractItemModelTester tester(&executed);
        QSignalSpy ops(&s, &DebugSession::opExecuted);
        s.setProgram(program);

        QElapsedTimer call;
        call.start();
        s.continueRun();
        QVERIFY2(call.elapsed() < 100, "continueRun must not run on the UI thread");
        // The UI thread keeps turning while the worker runs.
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(5);
        QTRY_VERIFY_WITH_TIMEOUT(ops.count() > 20, kLongTimeout);
        QCOMPARE(s.state(), State::Running);
        QVERIFY(ticks > 0);

        s.pause();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Paused);
        QCOMPARE(s.lastStop().reason, StopReason::StopRequested);
        const size_t pausedAt = s.records().size();
        QVERIFY(pausedAt > 20);
        QVERIFY(s.position() && s.opAt(*s.position()));
        QCOMPARE(s.frames().size(), size_t(2)); // inside the loop body

        s.continueRun();
        QTRY_VERIFY_WITH_TIMEOUT(s.records().size() > pausedAt + 10, kLongTimeout);
        QElapsedTimer stopping;
        stopping.start();
        s.stop();
        QTRY_COMPARE_WITH_TIMEOUT(s.state(), State::NotStarted, 10000);
        QVERIFY2(stopping.elapsed() < 5000, "Stop takes effect at the next op");
        QVERIFY(ops.count() < 5 * iterations);
        QCOMPARE(s.records().size(), size_t(0));
        QCOMPARE(executed.rowCount(), 0);
        QVERIFY(!s.position());

        // A new session starts from scratch.
        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.position().value(), at("0:0"));

        // Destroying a session that runs stops it and joins its worker.
        QElapsedTimer destroying;
        {
            DebugSession running;
            running.setProgram(program);
            running.continueRun();
            QTRY_VERIFY_WITH_TIMEOUT(running.records().size() > 5, kLongTimeout);
            destroying.start();
        }
        QVERIFY(destroying.elapsed() < 5000);
    }

    void pipelineAgainstPaddle()
    {
        IfPipeline p = loadIfPipeline();
        QVERIFY(p.pipeline);
        DebugSession s;
        DebuggerPanel panel(&s);
        s.setPipeline(p.pipeline, p.bundle);
        QCOMPARE(s.segmentPrograms().size(), size_t(2));
        QCOMPARE(s.segmentName(1), QStringLiteral("backward"));
        QCOMPARE(s.sources().inputs, DebugSources::Kind::Bundle);
        QCOMPARE(s.sources().params, DebugSources::Kind::Bundle);
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Finished);
        QVERIFY(std::any_of(s.records().begin(), s.records().end(),
            [](const OpRecord &r) { return r.position.segment == 1; }));

        // Every backward value with a Paddle gradient matches it.
        int compared = 0;
        p.pipeline->backward->block().walk([&](Operation *op) {
            if (op->name() != "builtin.shadow_output")
                return;
            const Value v = op->operand(0);
            const QString file = s.referenceFile(v);
            if (file.isEmpty())
                return;
            std::string error;
            const Tensor expected = NpyIO::read(file.toStdString(), error);
            QVERIFY(maxAbsDiff(s.hostValue(v), expected) < 1e-4);
            ++compared;
        });
        QCOMPARE(compared, 3); // x, b and w gradients

        // The forward output through the panel's "Compare with Paddle".
        Value output;
        p.pipeline->forward->block().walk([&](Operation *op) {
            if (op->name() == "builtin.shadow_output" && op->stringAttribute("output_name") == "output_0")
                output = op->operand(0);
        });
        QVERIFY(output);
        QVERIFY(panel.inspectValue(output));
        QVERIFY(panel.compareReferenceButton()->isEnabled());
        QVERIFY(panel.compareWithReference());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.inspector()->comparePending(), 10000);
        QVERIFY(panel.inspector()->comparison().allClose());
        QVERIFY(panel.compareCpuButton()->isHidden()); // on the CPU
        // The CPU recomputation of an op equals what the session computed (CPU vs CPU here).
        const Tensor cpu = s.cpuValue(output);
        QCOMPARE(maxAbsDiff(cpu, s.hostValue(output)), 0.0);
    }

    void watchesFollowTheRun()
    {
        IfPipeline p = loadIfPipeline();
        QVERIFY(p.pipeline);
        DebugSession s;
        DebuggerPanel panel(&s);
        s.setPipeline(p.pipeline, p.bundle);
        WatchModel *watches = panel.watchModel();
        watches->addWatch(QStringLiteral("linear_0.w_0"));
        watches->addWatch(QStringLiteral("%3"));
        watches->addWatch(QStringLiteral("no_such_name"));
        watches->addWatch(QStringLiteral("%99999"));
        s.setWatches(watches->names());
        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(watches->state(QStringLiteral("linear_0.w_0")), WatchModel::State::Live);
        QCOMPARE(watches->state(QStringLiteral("%3")), WatchModel::State::NotComputed);
        s.runToCursor(at("0:5")); // the forward program starts with two cf.stack_create
        QVERIFY(waitIdle(s));
        QCOMPARE(watches->state(QStringLiteral("%3")), WatchModel::State::NotComputed);
        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(watches->state(QStringLiteral("%3")), WatchModel::State::Live);
        // Mistyped names and ids say so; "not computed yet" is for known values only.
        QCOMPARE(watches->state(QStringLiteral("no_such_name")), WatchModel::State::Unknown);
        QCOMPARE(watches->state(QStringLiteral("%99999")), WatchModel::State::Unknown);
        QCOMPARE(watches->index(watches->rowOf(QStringLiteral("%99999")), WatchModel::StateColumn)
                     .data()
                     .toString(),
            QStringLiteral("unknown name"));
        const int row = watches->rowOf(QStringLiteral("linear_0.w_0"));
        QCOMPARE(watches->index(row, WatchModel::ShapeColumn).data().toString(), QStringLiteral("[3, 3]"));

        // Enter on a watch row opens its value in the inspector and selects it, like the Values.
        panel.resize(1000, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.tabs()->setCurrentIndex(3);
        auto *view = panel.findChild<QTableView *>(QStringLiteral("watchesView"));
        QVERIFY(view);
        std::vector<Value> activated;
        connect(&panel, &DebuggerPanel::valueActivated, this,
            [&activated](Value value, const Operation *) { activated.push_back(value); });
        view->setFocus();
        view->setCurrentIndex(watches->index(row, 0));
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(activated.size(), size_t(1));
        const Value weight = panel.inspectedValue();
        QVERIFY(weight);
        QCOMPARE(activated[0], weight);
        QCOMPARE(panel.inspector()->tensor().shape(), (std::vector<int64_t> { 3, 3 }));
        QCOMPARE(s.valueLabel(weight), panel.inspector()->name());
        // A double click on the %3 row opens %3.
        const int idRow = watches->rowOf(QStringLiteral("%3"));
        const QRect rect = view->visualRect(watches->index(idRow, WatchModel::NameColumn));
        QVERIFY(!rect.isEmpty());
        // A mouse's press, release, double click, release (QTest::mouseDClick's extra press
        // resets the view's pressed index here).
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        QMouseEvent doubleClick(QEvent::MouseButtonDblClick, QPointF(rect.center()),
            view->viewport()->mapToGlobal(QPointF(rect.center())), Qt::LeftButton, Qt::LeftButton,
            Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &doubleClick);
        QCOMPARE(activated.size(), size_t(2));
        QVERIFY(panel.inspectedValue() && panel.inspectedValue() != weight);
        QVERIFY(panel.inspector()->name().startsWith(QStringLiteral("%3")));
        QVERIFY(panel.inspector()->tensor().defined());
        // An unknown name opens nothing.
        QVERIFY(!panel.inspectWatch(QStringLiteral("no_such_name")));
        QCOMPARE(activated.size(), size_t(2));
    }

    void modelsUnderTheTester()
    {
        auto program = loadFile(kIfBundle + "/program.json");
        DebugSession s;
        ExecutedOpsModel executed(&s);
        FramesModel frames(&s);
        BreakpointsModel breakpoints(&s);
        OpValuesModel values(&s);
        QAbstractItemModelTester t1(&executed);
        QAbstractItemModelTester t2(&frames);
        QAbstractItemModelTester t3(&breakpoints);
        QAbstractItemModelTester t4(&values);
        s.setProgram(program, {});
        values.setOp(program->block().op(3));
        QCOMPARE(values.rowCount(), 3);
        QCOMPARE(
            values.index(0, OpValuesModel::RuntimeColumn).data().toString(), QStringLiteral("not started"));
        s.toggleBreakpoint(at("0:3"));
        s.setBreakOnNanInf(true);
        QString error;
        QCOMPARE(s.addNameBreakpoint(QStringLiteral("("), &error), -1);
        QVERIFY(!error.isEmpty());
        QVERIFY(s.addNameBreakpoint(QStringLiteral("^output_0$")) > 0);
        QCOMPARE(breakpoints.rowCount(), 3);
        s.continueRun();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.position().value(), at("0:3"));
        QCOMPARE(
            values.index(0, OpValuesModel::RuntimeColumn).data().toString(), QStringLiteral("float32[2, 3]"));
        QCOMPARE(
            values.index(2, OpValuesModel::RuntimeColumn).data().toString(), QStringLiteral("not computed"));
        s.stepInto();
        QVERIFY(waitIdle(s));
        QCOMPARE(
            values.index(2, OpValuesModel::RuntimeColumn).data().toString(), QStringLiteral("float32[2, 3]"));
        s.runToCursor(at("0:9"));
        QVERIFY(waitIdle(s));
        s.stepInto();
        QVERIFY(waitIdle(s));
        QCOMPARE(frames.rowCount(), 2);
        s.continueRun();
        QVERIFY(waitIdle(s));
        s.removeBreakpoint(breakpoints.idAt(0));
        s.restart();
        QVERIFY(waitIdle(s));
        QCOMPARE(executed.rowCount(), 1);
        s.stop();
        QVERIFY(waitIdle(s));
        QCOMPARE(executed.rowCount(), 0);
        QCOMPARE(frames.rowCount(), 0);
        s.clearTarget();
        QCOMPARE(values.rowCount(), 0);
    }

    void actionsAndMarksFollowTheState()
    {
        auto program = loadFile(kExample);
        DebugSession s;
        DebuggerActions actions(&s);
        GraphMarks marks(&s);
        QCOMPARE(actions.continueAction()->shortcut(), QKeySequence(Qt::Key_F5));
        QCOMPARE(actions.stepOverAction()->shortcut(), QKeySequence(Qt::Key_F10));
        QCOMPARE(actions.stepIntoAction()->shortcut(), QKeySequence(Qt::Key_F11));
        QCOMPARE(actions.stepOutAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F11));
        QCOMPARE(actions.stopAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F5));
        QCOMPARE(actions.restartAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5));
        QCOMPARE(actions.runToCursorAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F10));
        QCOMPARE(actions.toggleBreakpointAction()->shortcut(), QKeySequence(Qt::Key_F9));
        QVERIFY(!actions.continueAction()->isEnabled()); // no target
        s.setProgram(program, kExample);
        QVERIFY(actions.continueAction()->isEnabled());
        QVERIFY(!actions.stopAction()->isEnabled());
        QVERIFY(!actions.stepOutAction()->isEnabled());

        // F9 and Ctrl+F10 act on the op the host says is selected.
        const Operation *selected = nullptr;
        actions.setCursorProvider([&selected] { return selected; });
        QSignalSpy messages(&actions, &DebuggerActions::message);
        QVERIFY(!actions.toggleBreakpoint());
        QCOMPARE(messages.count(), 1);
        selected = program->block().op(12);
        actions.toggleBreakpointAction()->trigger();
        QCOMPARE(s.breakpointAt(at("0:12")), s.breakpoints().front().id);
        selected = program->block().op(15);
        actions.runToCursorAction()->trigger();
        QCOMPARE(s.state(), State::Running);
        QVERIFY(actions.pauseAction()->isEnabled());
        QVERIFY(!actions.continueAction()->isEnabled());
        QVERIFY(waitIdle(s));
        QCOMPARE(s.position().value(), at("0:12")); // the breakpoint comes first
        QVERIFY(actions.stepOutAction()->isEnabled());
        QVERIFY(actions.stopAction()->isEnabled());
        marks.recompute();
        const NodeMarks current = marks.marksOf(program->block().op(12));
        QVERIFY(current.current && current.breakpoint && !current.breakpointDisabled);
        QVERIFY(current.milliseconds < 0);
        const NodeMarks done = marks.marksOf(program->block().op(5));
        QVERIFY(!done.current && done.milliseconds >= 0 && done.deviceMilliseconds >= 0);
        actions.runToCursorAction()->trigger();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.position().value(), at("0:15"));
        marks.recompute();
        QVERIFY(marks.marksOf(program->block().op(15)).current);
        QVERIFY(!marks.marksOf(program->block().op(12)).current);
        QVERIFY(marks.marksOf(program->block().op(12)).milliseconds >= 0);
        actions.stopAction()->trigger();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::NotStarted);
        marks.recompute();
        QCOMPARE(marks.marks().size(), size_t(1)); // the breakpoint only
    }

    void deviceListWithoutCuda()
    {
        DebugSession s;
        DebuggerActions actions(&s);
        DebuggerToolBar toolbar(&s, &actions);
        QTRY_VERIFY_WITH_TIMEOUT(s.devices().size() >= 2 || s.devices().front().label != "CPU", 30000);
        if (s.devices().size() >= 2 && s.devices()[1].available)
            QSKIP("a CUDA device is available here");
#ifdef PIRSCOPE_HAVE_CUDA_SIM
        size_t expected = 3; // CPU, CUDA (unavailable), cuda-sim
#else
        size_t expected = 2;
#endif
        // The plain kernels, beside oneDNN's: the reference a user can run on.
        if (CpuBackend::hasOneDnn()) {
            ++expected;
            QVERIFY(s.devices().back().device.isPlainCpu());
            QVERIFY(s.devices().back().available);
        }
        QCOMPARE(s.devices().size(), expected);
        QVERIFY(s.devices().front().available);
        QVERIFY(s.devices().front().label.rfind("CPU", 0) == 0);
        const DeviceOption &cuda = s.devices()[1];
        QVERIFY(!cuda.available);
        QVERIFY(!cuda.reason.empty());
        QVERIFY(cuda.device.isCuda());
        QVERIFY(!s.setDeviceIndex(1));
        QCOMPARE(s.deviceIndex(), 0);

        QComboBox *combo = toolbar.deviceCombo();
        QCOMPARE(combo->count(), int(expected));
        QCOMPARE(combo->currentIndex(), 0);
        auto *model = qobject_cast<QStandardItemModel *>(combo->model());
        QVERIFY(model);
        QVERIFY(!(model->item(1)->flags() & Qt::ItemIsEnabled));
        QCOMPARE(model->item(1)->toolTip(), QString::fromStdString(cuda.reason));
        QCOMPARE(combo->itemData(1, Qt::ToolTipRole).toString(), QString::fromStdString(cuda.reason));
        QVERIFY(model->item(0)->flags() & Qt::ItemIsEnabled);
#ifdef PIRSCOPE_HAVE_CUDA_SIM
        // cuda-sim runs the CUDA backend on the host: selectable without a GPU.
        QVERIFY(s.devices()[2].available);
        QVERIFY(s.devices()[2].device.isSimulated());
        // Users read what it is; the command line's spelling is in the tooltip.
        QVERIFY(s.devices()[2].label.find("cuda-sim") == std::string::npos);
        QVERIFY(model->item(2)->toolTip().contains(QStringLiteral("--device cuda-sim")));
        QVERIFY(model->item(2)->flags() & Qt::ItemIsEnabled);
        QVERIFY(s.setDeviceIndex(2));
        QCOMPARE(s.deviceIndex(), 2);
#endif
    }
};

QTEST_MAIN(TestDebugSession)
#include "tst_debugsession.moc"
