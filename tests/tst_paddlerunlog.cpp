#include "core/io/paddlerunlog.h"

#include <QtTest>
#include <cmath>
#include <fstream>

using namespace ps;

namespace {

std::shared_ptr<const PaddleRunLog> parse(const std::string &text)
{
    return PaddleRunLog::fromFiles("test.log", { MappedFile::fromString(text, "test.log") });
}

const char kMatmul[]
    = "[PRECISION] in [device=cpu, op=matmul, tensor=middle_0, dtype=fp32], numel=48, num_zero=2, "
      "max=2.14e+00, min=-1.95e+00, mean=1.30e-02";

void write(const QString &path, const std::string &text)
{
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class TestPaddleRunLog : public QObject
{
    Q_OBJECT

private slots:
    void readsRecordsAndSkipsOtherLines()
    {
        const std::string text
            = std::string("I1204 19:26:47.663074 28815 pir_interpreter.cc:1606] New Executor\n") + kMatmul
            + "\r\n"
            + "[PRECISION] [ERROR] in [device=gpu:0, op=divide, tensor=, dtype=fp16], numel=40, num_nan=1, "
              "num_inf=4, num_zero=0, max=inf, min=1.048930e+00, mean=-nan\n"
            + "W1204 warning line\n";
        auto log = parse(text);
        QCOMPARE(log->records.size(), size_t(2));
        QCOMPARE(log->lines, size_t(4));
        QCOMPARE(log->otherLines, size_t(2));
        QVERIFY(log->diagnostics.empty());
        const PaddleRunLogRecord &m = log->records[0];
        QCOMPARE(m.line, 2);
        QCOMPARE(m.device, std::string_view("cpu"));
        QCOMPARE(m.op, std::string_view("matmul"));
        QCOMPARE(m.tensor, std::string_view("middle_0"));
        QCOMPARE(m.dtype, std::string_view("fp32"));
        QCOMPARE(m.stats.numel, int64_t(48));
        QCOMPARE(m.stats.numZero, int64_t(2));
        QCOMPARE(m.stats.max, 2.14);
        QCOMPARE(m.stats.min, -1.95);
        QCOMPARE(m.stats.mean, 0.013);
        QVERIFY(!m.error);
        const PaddleRunLogRecord &d = log->records[1];
        QVERIFY(d.error);
        QCOMPARE(d.device, std::string_view("gpu:0"));
        QVERIFY(d.tensor.empty());
        QCOMPARE(d.stats.numNan, int64_t(1));
        QCOMPARE(d.stats.numInf, int64_t(4));
        QVERIFY(std::isinf(d.stats.max));
        QVERIFY(std::isnan(d.stats.mean));
        QCOMPARE(log->where(d), std::string("test.log:3"));
    }

    void internalVariableNames()
    {
        auto log = parse(
            "[PRECISION] in [device=cpu, op=add_, tensor=0x55695b6659901796412407662864882_inner_var_17, "
            "dtype=fp32], numel=24, num_zero=0, max=1, min=0, mean=0.5\n");
        QCOMPARE(log->records.size(), size_t(1));
        const PaddleRunLogRecord &r = log->records[0];
        QCOMPARE(r.innerPrefix(), std::string_view("0x55695b6659901796412407662864882"));
        QCOMPARE(r.innerIndex().value_or(-1), int64_t(17));
        auto named = parse(kMatmul);
        QVERIFY(named->records[0].innerPrefix().empty());
        QVERIFY(!named->records[0].innerIndex());
    }

    void cutOffRecordIsAnErrorAndTheRestIsRead()
    {
        const std::string text = std::string(kMatmul).substr(0, 120) + "\n" + kMatmul + "\n"
            + "[PRECISION] in [device=cpu, op=relu, tensor=x, dtype=fp32], numel=abc, max=1, min=0, mean=0\n";
        auto log = parse(text);
        QCOMPARE(log->records.size(), size_t(1));
        QCOMPARE(log->records[0].line, 2);
        QCOMPARE(log->diagnostics.size(), size_t(2));
        const Diagnostic &cut = log->diagnostics.items()[0];
        QCOMPARE(cut.location.line, 1);
        QVERIFY(cut.location.column > 0);
        QVERIFY2(cut.message.find("cut off") != std::string::npos, cut.message.c_str());
        const Diagnostic &bad = log->diagnostics.items()[1];
        QCOMPARE(bad.location.line, 3);
        QVERIFY2(bad.message.find("numel=abc") != std::string::npos, bad.message.c_str());
        QCOMPARE(bad.toString().rfind("test.log:3:", 0), size_t(0));
    }

    void folderOfWorkerFiles()
    {
        QTemporaryDir dir;
        write(dir.filePath("worker_cpu"), std::string(kMatmul) + "\n");
        write(dir.filePath("worker_gpu.0"), std::string(kMatmul) + "\n" + kMatmul);
        write(dir.filePath("notes.txt"), std::string(kMatmul) + "\n");
        DiagnosticList diagnostics;
        auto log = PaddleRunLog::open(dir.path().toStdString(), diagnostics);
        QVERIFY(log);
        QCOMPARE(log->files.size(), size_t(2));
        QCOMPARE(log->records.size(), size_t(3));
        QCOMPARE(log->records[2].file, uint32_t(1));
        QCOMPARE(log->records[2].line, 2);

        QTemporaryDir empty;
        DiagnosticList none;
        QVERIFY(!PaddleRunLog::open(empty.path().toStdString(), none));
        QVERIFY(none.hasErrors());
        QVERIFY(none.items()[0].message.find("worker_") != std::string::npos);
    }

    void notALogSaysSo()
    {
        QTemporaryDir dir;
        write(dir.filePath("program.txt"), "{\n    (%0) = \"pd_op.full\" () {} : () -> tensor<f32>\n}\n");
        DiagnosticList diagnostics;
        auto log = PaddleRunLog::open(dir.filePath("program.txt").toStdString(), diagnostics);
        QVERIFY(log && log->records.empty());
        QVERIFY(diagnostics.hasErrors());
        QVERIFY(diagnostics.items()[0].message.find("FLAGS_check_nan_inf_level=3") != std::string::npos);
        DiagnosticList missing;
        QVERIFY(!PaddleRunLog::open(dir.filePath("absent.log").toStdString(), missing));
        QVERIFY(missing.hasErrors());
    }

    void sniffsTheHead()
    {
        QVERIFY(PaddleRunLog::looksLikeRunLog(std::string("I1204 glog\n") + kMatmul));
        QVERIFY(!PaddleRunLog::looksLikeRunLog("{\"program\": {}}"));
        QVERIFY(!PaddleRunLog::looksLikeRunLog("[PRECISION] is a word"));
    }

    void realPaddleLog()
    {
        DiagnosticList diagnostics;
        auto log = PaddleRunLog::open(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce/paddle_run.log", diagnostics);
        QVERIFY(log);
        QVERIFY(diagnostics.empty());
        QVERIFY(log->diagnostics.empty());
        QCOMPARE(log->records.size(), size_t(25));
        QCOMPARE(log->records[12].op, std::string_view("full_like")); // the eager output gradient
        QCOMPARE(log->records[24].tensor, std::string_view("input_grad_0"));
    }
};

QTEST_GUILESS_MAIN(TestPaddleRunLog)
#include "tst_paddlerunlog.moc"
