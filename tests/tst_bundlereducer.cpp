#include "clirunner.h"
#include "core/runtime/npyio.h"

#include <QtTest>
#include <filesystem>

using namespace ps;

namespace {

QString bundle(const char *name)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + QLatin1String(name);
}

QJsonObject reduce(const QStringList &args)
{
    const CliResult r = runPirscopeCli(QStringList { "reduce" } + args + QStringList { "--json" });
    if (r.exitCode != 0)
        qWarning("exit %d: %s", r.exitCode, r.err.constData());
    return r.exitCode == 0 ? QJsonDocument::fromJson(r.out).object() : QJsonObject();
}

} // namespace

class TestBundleReducer : public QObject
{
    Q_OBJECT

private slots:
    /// Paddle's value of mlp_ce's second matmul altered: reduce finds it as the first divergence,
    /// writes the matmul alone on Paddle's two operand values, and the reduced bundle still differs.
    void reducesTheFirstDivergenceToOneOp()
    {
        QTemporaryDir dir;
        const std::filesystem::path copy = dir.filePath("mlp_ce").toStdString();
        std::filesystem::copy(bundle("mlp_ce").toStdString(), copy, std::filesystem::copy_options::recursive);
        const std::string file = (copy / "intermediates" / "0009_0.npy").string();
        std::string error;
        Tensor t = NpyIO::read(file, error);
        t.data<float>()[0] += 0.5f;
        QVERIFY2(NpyIO::write(file, t, error), error.c_str());

        const QString out = dir.filePath("reduced");
        const QJsonObject r = reduce({ QString::fromStdString(copy.string()), "--out", out });
        QCOMPARE(r.value("op").toString(), QString("train:9"));
        QCOMPARE(r.value("op_name").toString(), QString("pd_op.matmul"));
        QCOMPARE(r.value("ops").toInt(), 1);
        QCOMPARE(r.value("inputs").toInt(), 2);
        QCOMPARE(r.value("reproduces").toBool(), true);
        QVERIFY(QFile::exists(out + "/manifest.json") && QFile::exists(out + "/program.txt"));
        // The reduced bundle is a bundle of its own: verify finds the mismatch there too.
        const CliResult verify = runPirscopeCli({ "verify", out, "--numerics" });
        QCOMPARE(verify.exitCode, 1);
        QVERIFY2(verify.out.contains("MISMATCH"), verify.out.constData());
    }

    void anOpThatAgreesDoesNotReproduce()
    {
        QTemporaryDir dir;
        const QJsonObject r = reduce({ bundle("lenet"), "--out", dir.filePath("r"), "--op", "train:10" });
        QCOMPARE(r.value("reproduces").toBool(), false);
        QCOMPARE(r.value("outputs").toArray().first().toObject().value("ok").toBool(), true);
    }

    /// inplace_chain's scale_ reads values Paddle's intermediates leave out (a later inplace op
    /// overwrote them): their producers come along, back to values Paddle provides.
    void walksBackToValuesPaddleProvides()
    {
        QTemporaryDir dir;
        const QJsonObject r = reduce({ bundle("inplace_chain"), "--out", dir.filePath("r"), "--op", "16" });
        QCOMPARE(r.value("op_name").toString(), QString("pd_op.scale_"));
        QCOMPARE(r.value("ops").toInt(), 3);
        QCOMPARE(r.value("reproduces").toBool(), false);
    }

    void badRequests()
    {
        QTemporaryDir dir;
        CliResult r
            = runPirscopeCli({ "reduce", bundle("mlp_ce"), "--out", dir.filePath("a"), "--op", "fwd:3" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("train:N"), r.err.constData());
        r = runPirscopeCli({ "reduce", bundle("mlp_ce"), "--out", dir.filePath("b"), "--op", "999" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("past the program"), r.err.constData());
        r = runPirscopeCli({ "reduce", bundle("control_flow_if"), "--out", dir.filePath("c") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--write-intermediates"), r.err.constData());
        r = runPirscopeCli({ "reduce", bundle("mlp_ce") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("usage"));
        // Nothing diverges: nothing to reduce.
        r = runPirscopeCli({ "reduce", bundle("mlp_ce"), "--out", dir.filePath("d") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("nothing to reduce"));
    }
};

QTEST_GUILESS_MAIN(TestBundleReducer)
#include "tst_bundlereducer.moc"
