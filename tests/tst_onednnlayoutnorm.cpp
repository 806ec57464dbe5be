// The blocked layout through batch_norm, the unary activations and add (issue 24): in a program as
// saved (no fusion passes) conv -> batch_norm_ -> relu -> conv -> add runs no reorder between
// them on the oneDNN device, and a reader that is not a oneDNN kernel still gets plain
// values. Checked against the plain kernels (cpu-plain), the oracle.

#include "core/runtime/cpu/cpubackend.h"
#include "core/runtime/scope.h"
#include "onednnnormprogram.h"
#include "onednnprimitivecounter.h"

#include <QtTest>
#include <cmath>
#include <memory>

using namespace ps;
using namespace onednncase;

namespace {

std::shared_ptr<const Program> normProgram(const char *text = onednnnorm::kNormProgram)
{
    return programFromText(text, "norm.txt");
}

Tensor mapped(const std::vector<int64_t> &shape, uint64_t seed, float scale, float offset)
{
    Tensor t = randomTensor(shape, seed);
    for (int64_t i = 0; i < t.numElements(); ++i)
        t.data<float>()[i] = std::abs(t.data<float>()[i]) * scale + offset;
    return t;
}

void fillScope(Scope &scope)
{
    scope.set("x", RuntimeValue(randomTensor({ 1, 16, 12, 12 }, 21)));
    scope.set("w1", RuntimeValue(mapped({ 32, 16, 3, 3 }, 22, 0.3f, -0.15f)));
    scope.set("w2", RuntimeValue(mapped({ 32, 32, 3, 3 }, 23, 0.2f, -0.1f)));
    scope.set("mean", RuntimeValue(randomTensor({ 32 }, 24)));
    scope.set("variance", RuntimeValue(mapped({ 32 }, 25, 1.0f, 0.5f)));
    scope.set("scale", RuntimeValue(randomTensor({ 32 }, 26)));
    scope.set("bias", RuntimeValue(randomTensor({ 32 }, 27)));
}

} // namespace

class TestOneDnnLayoutNorm : public QObject
{
    Q_OBJECT

    std::unique_ptr<Backend> m_onednn = createCpuBackend();
    std::unique_ptr<Backend> m_plain = createCpuPlainBackend();

    Tensor runOn(Backend &backend, bool read, std::map<std::string, uint64_t> *primitives = nullptr,
        std::map<const ValueImpl *, Tensor> *seen = nullptr, std::shared_ptr<const Program> program = nullptr,
        bool eager = false)
    {
        Interpreter::Options options;
        options.eagerDeletion = eager;
        return countedRun(
            backend, program ? program : normProgram(), fillScope, read, options, primitives, seen);
    }

private slots:
    // batch_norm_, relu and add each run their primitive alone (no reorder), the second
    // convolution reads relu's blocked output as it is, relu_ reorders the result out for
    // flatten; the output is the oracle's, with and without eager deletion.
    void normAndReluKeepTheLayout()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const Tensor want = runOn(*m_plain, false);
        QVERIFY(want.defined());
        runOn(*m_onednn, false); // makes the primitives
        for (bool eager : { false, true }) {
            std::map<std::string, uint64_t> primitives;
            const Tensor got = runOn(*m_onednn, false, &primitives, nullptr, nullptr, eager);
            QVERIFY(got.defined());
            const QString mismatch = kernelcase::compareTensors(got, want, 1e-4, 1e-4);
            QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
            QCOMPARE(primitives["pd_op.batch_norm_"], uint64_t(1));
            QCOMPARE(primitives["pd_op.relu"], uint64_t(1));
            QCOMPARE(primitives["pd_op.add"], uint64_t(1));
            // Each convolution: its weights' reorder (new parameters each run) and itself, the
            // first one x's reorder too; the second reads relu's output as it is.
            QCOMPARE(primitives["pd_op.conv2d"], uint64_t(3 + 2));
            QCOMPARE(primitives["pd_op.relu_"], uint64_t(2)); // made plain, then relu
        }
#endif
    }

    // A blocked value two kernels read as plain is made plain once, in the interpreter's value:
    // the second reader finds it plain (one primitive: its own), and both agree with the oracle.
    void aBlockedValueIsMadePlainOnce()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const std::shared_ptr<const Program> program = normProgram(onednnnorm::kTwoReadersProgram);
        QVERIFY(program);
        const Tensor want = runOn(*m_plain, false, nullptr, nullptr, program);
        QVERIFY(want.defined());
        runOn(*m_onednn, false, nullptr, nullptr, program); // makes the primitives
        std::map<std::string, uint64_t> primitives;
        const Tensor got = runOn(*m_onednn, false, &primitives, nullptr, program);
        const QString mismatch = kernelcase::compareTensors(got, want, 1e-4, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QCOMPARE(primitives["pd_op.conv2d"], uint64_t(3)); // x in, weights, conv: kept blocked
        QCOMPARE(primitives["pd_op.multiply"], uint64_t(2)); // made plain, then multiply
        QCOMPARE(primitives["pd_op.add"], uint64_t(1));
#endif
    }

    // Every value read as the debugger reads it is the oracle's.
    void everyValueReadAsPlainIsTheOracles()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const std::shared_ptr<const Program> program = normProgram();
        QVERIFY(program);
        std::map<const ValueImpl *, Tensor> want, got;
        runOn(*m_plain, true, nullptr, &want, program);
        runOn(*m_onednn, true, nullptr, &got, program);
        QVERIFY(want.size() >= 10);
        QCOMPARE(got.size(), want.size());
        for (const auto &[value, tensor] : want) {
            QVERIFY(got.count(value));
            QVERIFY(!got[value].hasLayout());
            const QString mismatch = kernelcase::compareTensors(got[value], tensor, 1e-4, 1e-4);
            QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        }
#endif
    }
};

QTEST_GUILESS_MAIN(TestOneDnnLayoutNorm)
#include "tst_onednnlayoutnorm.moc"
