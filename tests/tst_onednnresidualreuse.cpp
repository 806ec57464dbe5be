// A fused convolution writes into its residual's buffer when nothing reads the residual later
// (issue 24; Paddle's oneDNN kernel does the same): only under eager deletion, and never when
// anyone else holds the residual's storage (an observer's or a debugger watch's copy), so what
// they hold is not overwritten. Each run is checked against the plain kernels (cpu-plain).

#include "core/runtime/cpu/cpubackend.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/interpreterobserver.h"
#include "core/runtime/scope.h"
#include "onednnkernelcase.h"
#include "onednnlayoutprogram.h"

#include <QtTest>
#include <memory>

using namespace ps;
using namespace onednncase;

namespace {

/// tst_onednnlayout's chain; `pointwise`: the fused convolution is 1x1, which oneDNN runs on NCHW
/// as it is, so its result is written NCHW and a residual made plain fits its buffer.
std::shared_ptr<const Program> chainProgram(bool pointwise)
{
    std::string text = onednnlayout::kChainProgram;
    if (pointwise) {
        const auto replaceInLine
            = [&text](const std::string &marker, const std::string &from, const std::string &to) {
                  const size_t line = text.find(marker);
                  const size_t at = text.find(from, line);
                  if (line != std::string::npos && at != std::string::npos && at < text.find('\n', line))
                      text.replace(at, from.size(), to);
              };
        replaceInLine("parameter_name:\"w3\"", "32x32x3x3", "32x32x1x1");
        replaceInLine("onednn_op.fused_conv2d", "paddings:[1,1]", "paddings:[0,0]");
        replaceInLine("onednn_op.fused_conv2d", "32x32x3x3", "32x32x1x1");
    }
    return programFromText(text, "chain.txt");
}

void fillScope(Scope &scope, bool pointwise)
{
    scope.set("x", RuntimeValue(randomTensor({ 1, 16, 12, 12 }, 1)));
    scope.set("w1", RuntimeValue(scaledTensor({ 32, 16, 3, 3 }, 2, 0.15f)));
    scope.set("w2", RuntimeValue(scaledTensor({ 32, 32, 3, 3 }, 3, 0.1f)));
    scope.set("w3", RuntimeValue(scaledTensor({ 32, 32, pointwise ? 1 : 3, pointwise ? 1 : 3 }, 4, 0.1f)));
    scope.set("b3", RuntimeValue(randomTensor({ 32 }, 5)));
}

/// Reads the residual (conv1's result) as the debugger does when it is made (valueOf(): its plain
/// tensor from then on) and notes its storage and the fused convolution's result's by address;
/// `hold` keeps the residual's tensor as a watch would, and a copy of its values then. Counts
/// the oneDNN primitives the fused convolution ran.
class ResidualWatch : public InterpreterObserver
{
public:
    ResidualWatch(Interpreter &in, const Operation &conv1, const Operation &fused, bool read, bool hold)
        : m_in(in)
        , m_conv1(conv1)
        , m_fused(fused)
        , m_read(read)
        , m_hold(hold)
    {
    }
    void opExecuted(const OpRecord &record) override
    {
        if (record.op == &m_conv1 && m_read) {
            const Tensor &t = m_in.valueOf(m_conv1.result(0))->tensor();
            residualStorage = t.storage().get();
            if (m_hold) {
                held = t;
                valuesThen = t.plain().cloneHost();
            }
        } else if (record.op == &m_fused) {
            fusedStorage = m_in.valueOf(m_fused.result(0))->tensor().storage().get();
            fusedPrimitives = oneDnnExecutions() - m_before;
        }
        m_before = oneDnnExecutions();
    }
    uint64_t fusedPrimitives = 0;
    const Storage *residualStorage = nullptr;
    const Storage *fusedStorage = nullptr;
    Tensor held;
    Tensor valuesThen;

private:
    uint64_t m_before = oneDnnExecutions();
    Interpreter &m_in;
    const Operation &m_conv1;
    const Operation &m_fused;
    bool m_read;
    bool m_hold;
};

struct Run
{
    Tensor out;
    bool reused = false;
    uint64_t fusedPrimitives = 0;
    Tensor held, valuesThen;
};

} // namespace

class TestOneDnnResidualReuse : public QObject
{
    Q_OBJECT

    std::unique_ptr<Backend> m_onednn = createCpuBackend();
    std::unique_ptr<Backend> m_plain = createCpuPlainBackend();

    struct How
    {
        bool eager = true;
        bool pointwise = true; ///< chainProgram's
        bool read = true; ///< ResidualWatch's
        bool hold = false;
        bool compare = false; ///< the compare mode against cpu-plain
    };

    Run run(Backend &backend, How how)
    {
        Run r;
        const std::shared_ptr<const Program> program = chainProgram(how.pointwise);
        if (!program)
            return r;
        Scope scope;
        fillScope(scope, how.pointwise);
        Interpreter::Options options;
        options.eagerDeletion = how.eager;
        Interpreter in({ { "program", program, {}, {} } }, backend, scope, options);
        if (how.compare)
            in.setReferenceBackend(m_plain.get());
        ResidualWatch watch(in, *program->block().ops()[5], *program->block().ops()[7], how.read, how.hold);
        in.addObserver(&watch);
        const StopInfo stop = in.continueRun();
        in.removeObserver(&watch);
        if (stop.reason != StopReason::Finished)
            return r;
        r.reused = watch.residualStorage && watch.residualStorage == watch.fusedStorage;
        r.fusedPrimitives = watch.fusedPrimitives;
        r.held = watch.held;
        r.valuesThen = watch.valuesThen;
        if (const RuntimeValue *out = scope.find("out"); out && out->isTensor())
            r.out = out->tensor();
        return r;
    }

    static QString mismatchOf(const Tensor &got, const Tensor &want)
    {
        if (!got.defined() || !want.defined())
            return QStringLiteral("no output");
        return kernelcase::compareTensors(got, want, 1e-4, 1e-4);
    }

private slots:
    // Under eager deletion the fused convolution's result is its dying residual's buffer, and
    // the output is the oracle's.
    void aDyingResidualIsTheResultsBuffer()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const Run want = run(*m_plain, {});
        const Run got = run(*m_onednn, {});
        QVERIFY(got.reused);
        QVERIFY(!want.reused); // the plain kernel allocates its result
        const QString mismatch = mismatchOf(got.out, want.out);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
#endif
    }

    // In the blocked layout (the residual and the result both kept for convolutions and the
    // pool, as in ResNet) the residual is not copied into the result first: one primitive less.
    void aBlockedResidualIsNotCopied()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        How blocked;
        blocked.pointwise = false;
        blocked.read = false;
        const Run want = run(*m_plain, blocked);
        run(*m_onednn, blocked); // makes the primitives
        const Run got = run(*m_onednn, blocked);
        blocked.eager = false;
        const Run copied = run(*m_onednn, blocked);
        QCOMPARE(got.fusedPrimitives + 1, copied.fusedPrimitives);
        QVERIFY2(mismatchOf(got.out, want.out).isEmpty(), qPrintable(mismatchOf(got.out, want.out)));
        QVERIFY2(mismatchOf(copied.out, want.out).isEmpty(), qPrintable(mismatchOf(copied.out, want.out)));
#endif
    }

    // An observer holding the residual (as a debugger watch or the numeric check's recorder
    // may) keeps the values it saw: the fused convolution writes a buffer of its own.
    void aHeldResidualIsNotOverwritten()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        How held;
        held.hold = true;
        const Run want = run(*m_plain, held);
        const Run got = run(*m_onednn, held);
        QVERIFY(!got.reused);
        QVERIFY(got.held.defined());
        QCOMPARE(got.held.plain().toDoubles(), got.valuesThen.toDoubles());
        const QString mismatch = mismatchOf(got.out, want.out);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
#endif
    }

    // Without eager deletion (the debugger keeps every value to show it) and in the compare
    // mode the residual keeps its buffer.
    void keptValuesAreNotOverwritten()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        How keep;
        keep.eager = false;
        const Run want = run(*m_plain, keep);
        const Run kept = run(*m_onednn, keep);
        QVERIFY(!kept.reused);
        const QString mismatch = mismatchOf(kept.out, want.out);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        How compare;
        compare.compare = true;
        const Run compared = run(*m_onednn, compare);
        QVERIFY(!compared.reused);
        const QString comparedMismatch = mismatchOf(compared.out, want.out);
        QVERIFY2(comparedMismatch.isEmpty(), qPrintable(comparedMismatch));
#endif
    }
};

QTEST_GUILESS_MAIN(TestOneDnnResidualReuse)
#include "tst_onednnresidualreuse.moc"
