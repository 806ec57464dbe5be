// OneDnnLayout (issue 24): a oneDNN convolution leaves its output in oneDNN's blocked layout when
// every reader is a convolution that takes it as it is, and everything else (plain kernels, the
// debugger's valueOf() at a pause, the scope's outputs) sees the plain NCHW values. Each run is
// checked against the plain kernels (cpu-plain), the oracle.

#include "core/runtime/cpu/cpubackend.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/interpreterobserver.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/scope.h"
#include "onednnkernelcase.h"
#include "onednnlayoutprogram.h"

#ifdef PIRSCOPE_HAVE_DNNL
#    include "core/runtime/onednn/onednnlayout.h"
#endif

#include <QtTest>
#include <memory>

using namespace ps;
using namespace onednncase;

namespace {

std::shared_ptr<const Program> chainProgram()
{
    return programFromText(onednnlayout::kChainProgram, "chain.txt");
}

/// Weights scaled by about 1/sqrt(fan-in), so every layer's values stay near 1 and a relative
/// tolerance means the same at each.
void fillScope(Scope &scope)
{
    scope.set("x", RuntimeValue(randomTensor({ 1, 16, 12, 12 }, 1)));
    scope.set("w1", RuntimeValue(scaledTensor({ 32, 16, 3, 3 }, 2, 0.15f)));
    scope.set("w2", RuntimeValue(scaledTensor({ 32, 32, 3, 3 }, 3, 0.1f)));
    scope.set("w3", RuntimeValue(scaledTensor({ 32, 32, 3, 3 }, 4, 0.1f)));
    scope.set("b3", RuntimeValue(randomTensor({ 32 }, 5)));
}

/// The op at `index` of the program's block.
[[maybe_unused]] const Operation &opAt(const Program &program, size_t index)
{
    return *program.block().ops()[index];
}

/// Reads every result of every op as the debugger's value table does, and notes any that is
/// not dense row-major.
class ValueReader : public InterpreterObserver
{
public:
    explicit ValueReader(Interpreter &in)
        : m_in(in)
    {
    }
    void opExecuted(const OpRecord &record) override
    {
        for (unsigned i = 0; i < record.op->numResults(); ++i)
            if (const RuntimeValue *v = m_in.valueOf(record.op->result(i)); v && v->isTensor()) {
                ++read;
                notPlain += v->tensor().hasLayout() ? 1 : 0;
            }
    }
    int read = 0;
    int notPlain = 0;

private:
    Interpreter &m_in;
};

} // namespace

class TestOneDnnLayout : public QObject
{
    Q_OBJECT

    std::unique_ptr<Backend> m_onednn = createCpuBackend();
    std::unique_ptr<Backend> m_plain = createCpuPlainBackend();

    /// The chain's output run on `backend` straight through; `executions`: the oneDNN
    /// primitives it ran.
    Tensor runChain(Backend &backend, Interpreter::Options options, uint64_t &executions)
    {
        const std::shared_ptr<const Program> program = chainProgram();
        if (!program)
            return {};
        Scope scope;
        fillScope(scope);
        Interpreter in({ { "program", program, {}, {} } }, backend, scope, options);
        const uint64_t before = oneDnnExecutions();
        const StopInfo stop = in.continueRun();
        executions = oneDnnExecutions() - before;
        if (stop.reason != StopReason::Finished)
            return {};
        const RuntimeValue *out = scope.find("out");
        return out && out->isTensor() ? out->tensor() : Tensor();
    }

private slots:
    // The convolutions between them run no reorder: fewer primitives than with the layout off
    // (a NaN check reads every output, so it turns the kept layouts off), the same values.
    void chainKeepsTheLayoutAndAgreesWithThePlainKernels()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        uint64_t plainExecutions = 0, kept = 0, notKept = 0;
        const Tensor want = runChain(*m_plain, {}, plainExecutions);
        QVERIFY(want.defined());
        QCOMPARE(plainExecutions, uint64_t(0));
        runChain(*m_onednn, {}, kept); // the first run makes the primitives
        const Tensor got = runChain(*m_onednn, {}, kept);
        QVERIFY(got.defined());
        QVERIFY(!got.hasLayout());
        QCOMPARE(got.shape(), (std::vector<int64_t> { 1, 1152 }));
        const QString mismatch = kernelcase::compareTensors(got, want, 1e-4, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));

        Interpreter::Options checked;
        checked.checkNanInf = true;
        const Tensor alsoGot = runChain(*m_onednn, checked, notKept);
        QVERIFY(alsoGot.defined());
        QCOMPARE(alsoGot.toDoubles(), got.toDoubles());
        // Kept: conv1's output is neither reordered out nor into conv2 and the fused convolution
        // (as input, as residual: a copy), conv2's neither out nor into the fused one.
        QVERIFY2(kept + 3 <= notKept, qPrintable(QStringLiteral("%1 vs %2").arg(kept).arg(notKept)));
#endif
    }

    // Paused between the two convolutions, the debugger reads conv1's output: plain NCHW values,
    // the oracle's; the run then goes on to the oracle's result.
    void aPauseBetweenConvolutionsSeesPlainValues()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const std::shared_ptr<const Program> program = chainProgram();
        QVERIFY(program);
        const Operation &conv1 = opAt(*program, 5);
        const Operation &conv2 = opAt(*program, 6);
        const Operation &fused = opAt(*program, 7);
        QCOMPARE(conv2.name(), std::string_view("pd_op.conv2d"));
        Scope plainScope, scope;
        fillScope(plainScope);
        fillScope(scope);
        Interpreter oracle({ { "program", program, {}, {} } }, *m_plain, plainScope);
        Interpreter in({ { "program", program, {}, {} } }, *m_onednn, scope);
        const ProgramPosition atConv2 = ProgramPosition::of(&conv2, 0);
        QCOMPARE(oracle.runToCursor(atConv2).reason, StopReason::Cursor);
        QCOMPARE(in.runToCursor(atConv2).reason, StopReason::Cursor);
        const RuntimeValue *seen = in.valueOf(conv1.result(0));
        QVERIFY(seen && seen->isTensor());
        QVERIFY(!seen->tensor().hasLayout());
        const QString mismatch = kernelcase::compareTensors(
            seen->tensor(), oracle.valueOf(conv1.result(0))->tensor(), 1e-4, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));

        // Step over conv2 and read the fused convolution's residual input again, then finish.
        QCOMPARE(in.step().reason, StopReason::Step);
        QCOMPARE(oracle.step().reason, StopReason::Step);
        const QString conv2Mismatch = kernelcase::compareTensors(
            in.valueOf(conv2.result(0))->tensor(), oracle.valueOf(conv2.result(0))->tensor(), 1e-4, 1e-4);
        QVERIFY2(conv2Mismatch.isEmpty(), qPrintable(conv2Mismatch));
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QCOMPARE(oracle.continueRun().reason, StopReason::Finished);
        const QString fusedMismatch = kernelcase::compareTensors(
            in.valueOf(fused.result(0))->tensor(), oracle.valueOf(fused.result(0))->tensor(), 1e-4, 1e-4);
        QVERIFY2(fusedMismatch.isEmpty(), qPrintable(fusedMismatch));
        const QString outMismatch = kernelcase::compareTensors(
            scope.find("out")->tensor(), plainScope.find("out")->tensor(), 1e-4, 1e-4);
        QVERIFY2(outMismatch.isEmpty(), qPrintable(outMismatch));

        // An observer reading every value as each op runs (the debugger's value table) sees
        // plain tensors only, and the run still ends at the oracle's output.
        in.restart();
        ValueReader reader(in);
        in.addObserver(&reader);
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        in.removeObserver(&reader);
        QVERIFY(reader.read >= 6);
        QCOMPARE(reader.notPlain, 0);
        const QString observedMismatch = kernelcase::compareTensors(
            scope.find("out")->tensor(), plainScope.find("out")->tensor(), 1e-4, 1e-4);
        QVERIFY2(observedMismatch.isEmpty(), qPrintable(observedMismatch));
#endif
    }

    // A convolution told it may keep its layout does; the tensor refuses to be read as plain
    // bytes, plain() gives the plain kernel's values, and a plain kernel handed it reads those.
    void aKeptLayoutIsReadAsPlainEverywhereElse()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const std::shared_ptr<const Program> program = chainProgram();
        QVERIFY(program);
        const Operation &conv1 = opAt(*program, 5);
        const std::vector<RuntimeValue> operands { RuntimeValue(randomTensor({ 1, 16, 12, 12 }, 1)),
            RuntimeValue(randomTensor({ 32, 16, 3, 3 }, 2)) };
        std::vector<const RuntimeValue *> pointers { &operands[0], &operands[1] };
        KernelContext context(conv1, pointers, *m_onednn);
        context.setMayKeepLayout(true);
        m_onednn->kernels().find("pd_op.conv2d")(context);
        const Tensor blocked = context.output(0).tensor();
        QVERIFY(blocked.hasLayout());
        QVERIFY(dynamic_cast<const OneDnnLayout *>(blocked.layout().get()));
        QVERIFY_THROWS_EXCEPTION(RuntimeError, std::as_const(blocked).rawData());

        std::string why;
        const std::optional<std::vector<RuntimeValue>> plainConv
            = KernelContext::runAlone(conv1, operands, *m_plain, why);
        QVERIFY2(plainConv, why.c_str());
        const Tensor plain = blocked.plain();
        QVERIFY(!plain.hasLayout());
        const QString mismatch = kernelcase::compareTensors(plain, (*plainConv)[0].tensor(), 1e-4, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QCOMPARE(blocked.cloneHost().toDoubles(), plain.toDoubles());
        QCOMPARE(blocked.toDoubles(), plain.toDoubles());

        // flatten (a plain kernel, which shares its input's storage) handed the blocked tensor.
        const Operation &flatten = opAt(*program, 10);
        const std::optional<std::vector<RuntimeValue>> flat
            = KernelContext::runAlone(flatten, { RuntimeValue(blocked) }, *m_onednn, why);
        QVERIFY2(flat, why.c_str());
        QVERIFY(!(*flat)[0].tensor().hasLayout());
        QCOMPARE((*flat)[0].tensor().toDoubles(), plain.toDoubles());
#endif
    }
};

QTEST_GUILESS_MAIN(TestOneDnnLayout)
#include "tst_onednnlayout.moc"
