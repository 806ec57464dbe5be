// PassLogOpener: a folder opens as per-pass dumps, any other path as a pass log, for the Passes
// tab and `pirscope-cli passlog` alike.

#include "core/io/paddlepasslog.h"
#include "core/io/passdumpfolder.h"
#include "core/session/passlogopener.h"

#include <QtTest>

using namespace ps;

namespace {

std::string fixture(const char *name)
{
    return std::string(PIRSCOPE_FIXTURES_DIR "/paddle_logs/") + name;
}

} // namespace

class TestPassLogOpener : public QObject
{
    Q_OBJECT

private slots:
    void folderOpensAsDumps()
    {
        DiagnosticList d;
        const auto index = PassLogOpener::index(fixture("perpass_dir"), d);
        QVERIFY2(index, d.toString().c_str());
        DiagnosticList direct;
        const auto expected = PassDumpFolder::index(fixture("perpass_dir"), direct);
        QCOMPARE(index->programs.size(), expected->programs.size());
        QCOMPARE(index->steps.size(), size_t(5));
        QCOMPARE(index->steps[1].pass, std::string("matmul_add_act_fuse_pass"));
    }

    void fileOpensAsLog()
    {
        DiagnosticList d;
        const auto index = PassLogOpener::index(fixture("conv_infer_cpu.log"), d);
        QVERIFY2(index, d.toString().c_str());
        DiagnosticList direct;
        const auto expected = PaddlePassLog::index(fixture("conv_infer_cpu.log"), direct);
        QCOMPARE(index->files.size(), size_t(1));
        QCOMPARE(index->steps.size(), expected->steps.size());
        QCOMPARE(index->programs.size(), expected->programs.size());
        QVERIFY(index->steps.size() > 1);
    }

    void missingFileIsNamed()
    {
        DiagnosticList d;
        QVERIFY(!PassLogOpener::index("/nonexistent/x.log", d));
        QVERIFY(d.hasErrors());
        QVERIFY(d.toString().find("/nonexistent/x.log") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestPassLogOpener)
#include "tst_passlogopener.moc"
