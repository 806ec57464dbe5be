// The oneDNN fusion passes' programs run: for each pass that changed a program of
// tests/fixtures/onednn_passes, Paddle 3.3.1's program after it (its IR-debug dump, fused ops as
// Paddle types them) runs on the CPU devices with the same inputs and parameters as the program
// before it, output by output (rtol 1e-4, atol 1e-5: folding a batch norm into a conv reorders
// float math). The fused ops' kernels are checked this way against the unfused ops they replace,
// on Paddle's own rewrites, and so are the onednn_op.X of onednn_placement_pass (run by pd_op.X's
// kernels) against the pd_op.X; that PIRScope's passes make the same programs is
// tst_onednnpassfixtures.
// The one exception, matmul_reshape_add_fuse_pass, changes an output's shape in Paddle itself.

#include "core/io/pirtextreader.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/programrunner.h"
#include "core/runtime/tensorcomparison.h"
#include "core/runtime/tensorsource.h"
#include "onednnpassfixture.h"

#include <QtTest>
#include <memory>

using namespace ps;

namespace {

using onednnfixture::kDir;
using onednnfixture::passesOf;
using onednnfixture::programAfter;

struct Outputs
{
    std::vector<ProgramRunner::NamedTensor> tensors;
    QString error;
};

Outputs run(const QString &path, const QString &params, Backend &backend)
{
    LoadResult loaded = PirTextReader::readFile(path.toStdString());
    if (!loaded.ok())
        return { {}, QString::fromStdString(loaded.diagnostics.toString()) };
    ProgramRunner runner(std::shared_ptr<const Program>(std::move(loaded.program)), backend);
    ProgramRunner::Options options;
    options.inputs = TensorSource::random(5);
    options.params = TensorSource::pdiparams(params.toStdString());
    std::string error;
    if (!runner.prepare(options, error))
        return { {}, QString::fromStdString(error) };
    const StopInfo stop = runner.run();
    if (stop.reason != StopReason::Finished)
        return { {}, QString::fromStdString(stop.message) };
    return { runner.outputs(), {} };
}

} // namespace

class TestOneDnnPassNumerics : public QObject
{
    Q_OBJECT

    std::unique_ptr<Backend> m_cpu = createCpuBackend();
    std::unique_ptr<Backend> m_plain = createCpuPlainBackend();

private slots:
    void fusedProgramsComputeTheSame_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<int>("index");
        QTest::addColumn<bool>("plain");
        const QStringList cases = QDir(kDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY2(!cases.isEmpty(), "no fixtures in tests/fixtures/onednn_passes");
        for (const QString &c : cases) {
            const QJsonArray passes = passesOf(c);
            for (int i = 0; i < passes.size(); ++i) {
                if (passes[i].toArray()[1].toString() != "changed")
                    continue;
                const QString pass = passes[i].toArray()[0].toString();
                for (bool plain : { false, true })
                    QTest::newRow(qPrintable(
                        QString("%1/%2.%3 %4").arg(c).arg(i).arg(pass, plain ? "cpu-plain" : "cpu")))
                        << c << i << plain;
            }
        }
    }

    void fusedProgramsComputeTheSame()
    {
        QFETCH(QString, caseName);
        QFETCH(int, index);
        QFETCH(bool, plain);
        Backend &backend = plain ? *m_plain : *m_cpu;
        const QString params = kDir + "/" + caseName + "/model.pdiparams";
        const Outputs before = run(programAfter(caseName, index - 1), params, backend);
        const Outputs after = run(programAfter(caseName, index), params, backend);
        if (caseName == "matmul_reshape_add")
            QEXPECT_FAIL("",
                "Paddle 3.3.1's matmul_reshape_add_fuse_pass replaces the reshape back to [2, 4, 16] "
                "and the bias add by an fc whose result is the matmul's [8, 16]: what read the add "
                "(the fetch) gets another shape than declared, from that pass on",
                Abort);
        QVERIFY2(before.error.isEmpty() && after.error.isEmpty(),
            qPrintable("before: " + before.error + "; after: " + after.error));
        QCOMPARE(after.tensors.size(), before.tensors.size());
        for (size_t i = 0; i < after.tensors.size(); ++i) {
            const Tensor &got = after.tensors[i].tensor;
            const Tensor &want = before.tensors[i].tensor;
            QCOMPARE(got.shape(), want.shape());
            const TensorComparison c = TensorComparison::compare(got, want, 1e-4, 1e-5);
            QVERIFY2(c.ok(), qPrintable(QString::fromStdString(before.tensors[i].name + ": " + c.summary())));
        }
    }
};

QTEST_GUILESS_MAIN(TestOneDnnPassNumerics)
#include "tst_onednnpassnumerics.moc"
