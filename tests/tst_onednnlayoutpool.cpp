// The blocked layout through transposes and pool2d (issue 24): transfer_layout_pass leaves
// ResNet's max pool in NHWC between two transposes; on the oneDNN device a transpose of a blocked
// tensor relabels its axes (no bytes move) and pool2d reads and writes the blocked layout, so
// conv -> transpose -> pool -> transpose -> conv runs no reorder. Checked against the plain
// kernels (cpu-plain), the oracle, straight through and as a debugger reads each value.

#include "core/runtime/cpu/cpubackend.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/interpreterobserver.h"
#include "core/runtime/scope.h"
#include "onednnkernelcase.h"
#include "onednnpoolprogram.h"
#include "onednnprimitivecounter.h"

#include <QtTest>
#include <memory>

using namespace ps;
using namespace onednncase;

namespace {

std::shared_ptr<const Program> poolProgram(const char *text = onednnpool::kPoolProgram)
{
    return programFromText(text, "pool.txt");
}

void fillScope(Scope &scope)
{
    scope.set("x", RuntimeValue(randomTensor({ 1, 16, 12, 12 }, 11)));
    scope.set("w1", RuntimeValue(scaledTensor({ 32, 16, 3, 3 }, 12, 0.15f)));
    scope.set("w2", RuntimeValue(scaledTensor({ 32, 32, 3, 3 }, 13, 0.1f)));
}

} // namespace

class TestOneDnnLayoutPool : public QObject
{
    Q_OBJECT

    std::unique_ptr<Backend> m_onednn = createCpuBackend();
    std::unique_ptr<Backend> m_plain = createCpuPlainBackend();

    Tensor runOn(Backend &backend, bool read, std::map<std::string, uint64_t> *primitives = nullptr,
        std::map<const ValueImpl *, Tensor> *seen = nullptr, std::shared_ptr<const Program> program = nullptr)
    {
        return countedRun(backend, program ? program : poolProgram(), fillScope, read, {}, primitives, seen);
    }

private slots:
    // Straight through: the transposes run no primitive, the max pool one (no reorder around
    // it), and the output is the oracle's.
    void transposesRelabelAndThePoolRunsBlocked()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const Tensor want = runOn(*m_plain, false);
        QVERIFY(want.defined());
        runOn(*m_onednn, false); // makes the primitives
        std::map<std::string, uint64_t> primitives;
        const Tensor got = runOn(*m_onednn, false, &primitives);
        QVERIFY(got.defined());
        QVERIFY(!got.hasLayout());
        const QString mismatch = kernelcase::compareTensors(got, want, 1e-4, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QCOMPARE(primitives["pd_op.transpose"], uint64_t(0));
        // The max pool (blocked in, blocked out) and the global average pool (blocked in, its
        // 1x1 output the same bytes as NCHW: no reorder out).
        QCOMPARE(primitives["pd_op.pool2d"], uint64_t(2));
        // The second convolution reads the pool's output as it is: its weights' reorder (a new
        // scope each run: new parameters) and the convolution; the first one reorders x too.
        QCOMPARE(primitives["pd_op.conv2d"], uint64_t(3 + 2));
#endif
    }

    // Every value read as the debugger reads it (each one made plain as it is produced, so no
    // layout is kept past it) is the oracle's, the transposed and pooled NHWC ones included.
    void everyValueReadAsPlainIsTheOracles()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const std::shared_ptr<const Program> program = poolProgram();
        QVERIFY(program);
        std::map<const ValueImpl *, Tensor> want, got;
        runOn(*m_plain, true, nullptr, &want, program);
        runOn(*m_onednn, true, nullptr, &got, program);
        QVERIFY(want.size() >= 8);
        QCOMPARE(got.size(), want.size());
        for (const auto &[value, tensor] : want) {
            QVERIFY(got.count(value));
            QVERIFY(!got[value].hasLayout());
            const QString mismatch = kernelcase::compareTensors(got[value], tensor, 1e-4, 1e-4);
            QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        }
#endif
    }

    // relu_ on a relabelled transpose writes a buffer of its own: the convolution's output it
    // shares stays intact for the add after it (the oracle's relu(c) + c).
    void anInplaceOpOnARelabelledTensorLeavesItsInput()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const std::shared_ptr<const Program> program = poolProgram(onednnpool::kAliasProgram);
        QVERIFY(program);
        const Tensor want = runOn(*m_plain, false, nullptr, nullptr, program);
        QVERIFY(want.defined());
        std::map<std::string, uint64_t> primitives;
        const Tensor got = runOn(*m_onednn, false, &primitives, nullptr, program);
        const QString mismatch = kernelcase::compareTensors(got, want, 1e-4, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QCOMPARE(primitives["pd_op.transpose"], uint64_t(0));
        QCOMPARE(primitives["pd_op.relu_"], uint64_t(1));
#endif
    }

    // A kept blocked tensor the transpose relabels is still read right by a plain reader: the
    // NHWC result made plain (its reorder reads the relabelled layout) is the oracle's.
    void aRelabelledTensorMadePlainIsTheOracles()
    {
#ifndef PIRSCOPE_HAVE_DNNL
        QSKIP("built without oneDNN");
#else
        const std::shared_ptr<const Program> program = poolProgram();
        QVERIFY(program);
        const Operation &conv1 = *program->block().ops()[3];
        const Operation &toNhwc = *program->block().ops()[4];
        QCOMPARE(toNhwc.name(), std::string_view("pd_op.transpose"));
        const std::vector<RuntimeValue> operands { RuntimeValue(randomTensor({ 1, 16, 12, 12 }, 11)),
            RuntimeValue(scaledTensor({ 32, 16, 3, 3 }, 12, 0.15f)) };
        KernelContext conv(conv1, { &operands[0], &operands[1] }, *m_onednn);
        conv.setMayKeepLayout(true);
        m_onednn->kernels().find("pd_op.conv2d")(conv);
        const RuntimeValue blocked = conv.output(0);
        QVERIFY(blocked.tensor().hasLayout());
        KernelContext transpose(toNhwc, { &blocked }, *m_onednn);
        transpose.setMayKeepLayout(true);
        const uint64_t before = oneDnnExecutions();
        m_onednn->kernels().find("pd_op.transpose")(transpose);
        QCOMPARE(oneDnnExecutions(), before);
        const Tensor relabelled = transpose.output(0).tensor();
        QVERIFY(relabelled.hasLayout());
        QCOMPARE(relabelled.shape(), (std::vector<int64_t> { 1, 12, 12, 32 }));
        QCOMPARE(relabelled.storage(), blocked.tensor().storage());

        std::string why;
        const RuntimeValue plainConv = (*KernelContext::runAlone(conv1, operands, *m_plain, why))[0];
        const std::optional<std::vector<RuntimeValue>> plainTransposed
            = KernelContext::runAlone(toNhwc, { plainConv }, *m_plain, why);
        QVERIFY2(plainTransposed, why.c_str());
        const QString mismatch
            = kernelcase::compareTensors(relabelled.plain(), (*plainTransposed)[0].tensor(), 1e-4, 1e-4);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
#endif
    }
};

QTEST_GUILESS_MAIN(TestOneDnnLayoutPool)
#include "tst_onednnlayoutpool.moc"
