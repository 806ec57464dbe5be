#include "clirunner.h"
#include "core/io/paddlerunlog.h"
#include "core/io/pirtextreader.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/npyio.h"
#include "core/session/runlogcomparison.h"
#include "core/session/runlogmatcher.h"
#include "runlogtestfiles.h"

#include <QtTest>
#include <filesystem>

using namespace ps;

namespace {

const char *const kBundles[] = { "mlp_ce", "lenet", "conv_bn_relu", "transformer_encoder", "inplace_chain",
    "pruned_param", "nested_output", "embedding_mean", "nan_log" };

QString bundle(const char *name)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + QLatin1String(name);
}

QString logOf(const char *name)
{
    return bundle(name) + QStringLiteral("/paddle_run.log");
}

QJsonObject verifyJson(const QStringList &args, int expectedExit)
{
    const CliResult r = runPirscopeCli(QStringList { "verify" } + args + QStringList { "--json" });
    if (r.exitCode != expectedExit)
        qWarning("exit %d, stderr: %s", r.exitCode, r.err.constData());
    [&] { QCOMPARE(r.exitCode, expectedExit); }();
    return QJsonDocument::fromJson(r.out).object().value("paddle_log").toObject();
}

std::unique_ptr<Program> readProgram(const char *bundleName, const char *file)
{
    LoadResult r = PirTextReader::readFile((bundle(bundleName) + "/" + file).toStdString());
    return std::move(r.program);
}

} // namespace

class TestRunLogCheck : public QObject
{
    Q_OBJECT

private slots:
    /// The matcher alone on Paddle's own forward/backward programs of mlp_ce and its real log.
    void matchesEveryProgramRecordOfARealLog()
    {
        auto forward = readProgram("mlp_ce", "forward_program.txt");
        auto backward = readProgram("mlp_ce", "backward_program.txt");
        QVERIFY(forward && backward);
        DiagnosticList diagnostics;
        auto log = PaddleRunLog::open(logOf("mlp_ce").toStdString(), diagnostics);
        QVERIFY(log);
        RunLogMatcher matcher({ { "fwd", forward.get() }, { "bwd", backward.get() } });
        const RunLogMatcher::Result result = matcher.match(*log);
        QCOMPARE(result.matched, size_t(24));
        QCOMPARE(result.byPosition, size_t(0));
        QCOMPARE(result.unmatchedReasons.size(), size_t(1));
        QCOMPARE(result.unmatchedReasons.begin()->second.firstRecord, size_t(12)); // full_like, eager

        // Line 2: `add_ tensor=middle_0`: the inplace add overwrote middle_0 (%6); the record
        // shows the add's result %7.
        const RunLogMatch &inplace = result.matches[1];
        QCOMPARE(inplace.how, RunLogMatch::How::Name);
        QCOMPARE(matcher.opLabel(inplace), std::string("fwd:7"));
        QCOMPARE(inplace.op->name(), std::string_view("pd_op.add"));
        QCOMPARE(matcher.valueLabel(inplace), std::string("%7"));
        // Line 3: the same result under its own scope variable, inner_var_7.
        QCOMPARE(result.matches[2].how, RunLogMatch::How::InnerIndex);
        QCOMPARE(result.matches[2].value, inplace.value);
        // Line 17: add_grad's first result in the backward: 13 kwargs, then %0..%2 -> inner_var_15.
        QCOMPARE(result.matches[16].how, RunLogMatch::How::InnerIndex);
        QCOMPARE(matcher.opLabel(result.matches[16]), std::string("bwd:2"));
        QCOMPARE(matcher.valueLabel(result.matches[16]), std::string("%2"));
        // Line 16: param_grad_2, named by its shadow output.
        QCOMPARE(matcher.valueLabel(result.matches[15]), std::string("%3"));
    }

    void unknownNamesAndOpsStayUnmatched()
    {
        auto forward = readProgram("mlp_ce", "forward_program.txt");
        QVERIFY(forward);
        auto log = PaddleRunLog::fromFiles("hand.log",
            { MappedFile::fromString(
                "[PRECISION] in [device=cpu, op=conv2d, tensor=middle_0, dtype=fp32], numel=24, num_zero=0, "
                "max=1, "
                "min=0, mean=0.5\n"
                "[PRECISION] in [device=cpu, op=matmul, tensor=no_such_name, dtype=fp32], numel=7, "
                "num_zero=0, "
                "max=1, min=0, mean=0.5\n"
                "[PRECISION] in [device=cpu, op=matmul, tensor=0xabc_inner_var_99, dtype=fp32], numel=24, "
                "num_zero=0, max=1, min=0, mean=0.5\n",
                "hand.log") });
        RunLogMatcher matcher({ { "fwd", forward.get() } });
        const RunLogMatcher::Result result = matcher.match(*log);
        // conv2d: no such op; matmul with an unknown name and 7 elements: no matmul has 7; the
        // third (scope index out of range) falls back to the first matmul with 24 elements.
        QCOMPARE(result.matches[0].how, RunLogMatch::How::None);
        QCOMPARE(result.matches[1].how, RunLogMatch::How::None);
        QCOMPARE(result.matches[2].how, RunLogMatch::How::Position);
        QCOMPARE(matcher.opLabel(result.matches[2]), std::string("fwd:6"));
        QVERIFY(result.unmatchedReasons.count("no `conv2d` op in the programs"));
        QCOMPARE(result.unmatchedReasons.size(), size_t(2));
    }

    void statisticsCompareAgainstTheTensorsScale()
    {
        const RunLogComparison::Tolerance tolerance;
        RunLogStats paddle { 100, 0, 0, 0, 2.0, -2.0, 1e-9 };
        RunLogStats other = paddle;
        other.mean = -3e-9; // a mean that cancels is exact only to the elements' scale
        QVERIFY(RunLogComparison::difference(paddle, other, tolerance).error < 1);
        other.mean = 0.01;
        const RunLogDifference d = RunLogComparison::difference(paddle, other, tolerance);
        QCOMPARE(d.stat, std::string("mean"));
        QVERIFY(d.error > 1);
        other = paddle;
        other.numNan = 1;
        QCOMPARE(RunLogComparison::difference(paddle, other, tolerance).stat, std::string("num_nan"));
        other = paddle;
        other.numZero = 40; // zero counts are not compared
        QCOMPARE(RunLogComparison::difference(paddle, other, tolerance).error, 0.0);
    }

    void everyFixtureLogAgreesWithPirscope()
    {
        for (const char *name : kBundles) {
            const QJsonObject log = verifyJson({ bundle(name), "--paddle-log", logOf(name) }, 0);
            QVERIFY2(log.value("first_divergent").isNull(), name);
            const int records = log.value("records").toInt();
            int eager = 0;
            for (const QJsonValue &u : log.value("unmatched").toArray()) {
                QVERIFY2(u.toObject().value("reason").toString().startsWith("no tensor name"), name);
                eager += u.toObject().value("count").toInt();
            }
            QCOMPARE(log.value("matched").toInt(), records - eager);
            QCOMPARE(log.value("compared").toInt(), records - eager);
        }
    }

    /// A real run that hits NaN (log of negative numbers): Paddle's [ERROR] records match
    /// PIRScope's NaN counts, and the report names where NaN first appears.
    void nanRunAgreesAndNamesTheFirstNan()
    {
        const QJsonObject log = verifyJson({ bundle("nan_log"), "--paddle-log", logOf("nan_log") }, 0);
        const QJsonObject nan = log.value("first_nan_inf").toObject();
        QCOMPARE(nan.value("line").toInt(), 4);
        QCOMPARE(nan.value("kernel").toString(), QString("log"));
        QCOMPARE(nan.value("num_nan").toInt(), 4);
        QVERIFY(nan.value("op").toString().startsWith("fwd:"));
        QVERIFY(verifyJson({ bundle("mlp_ce"), "--paddle-log", logOf("mlp_ce") }, 0)
                    .value("first_nan_inf")
                    .isNull());
        // One NaN fewer in Paddle's record: a count that differs is a divergence.
        QTemporaryDir dir;
        QByteArray text = readAll(logOf("nan_log"));
        text.replace("num_nan=4,", "num_nan=3,");
        const QString altered = writeFile(dir, "nan.log", text);
        const QJsonObject first = verifyJson({ bundle("nan_log"), "--paddle-log", altered }, 1)
                                      .value("first_divergent")
                                      .toObject();
        QCOMPARE(first.value("line").toInt(), 4);
        QCOMPARE(first.value("stat").toString(), QString("num_nan"));
    }

    void alteredForwardRecordIsCaughtThere()
    {
        QTemporaryDir dir;
        const QString altered
            = writeFile(dir, "fwd.log", alterRecord(readAll(logOf("mlp_ce")), 6, "mean", 3));
        const QJsonObject log = verifyJson({ bundle("mlp_ce"), "--paddle-log", altered }, 1);
        const QJsonObject first = log.value("first_divergent").toObject();
        QCOMPARE(first.value("line").toInt(), 6);
        QCOMPARE(first.value("op").toString(), QString("fwd:9"));
        QCOMPARE(first.value("op_name").toString(), QString("pd_op.matmul"));
        QCOMPARE(first.value("value").toString(), QString("%9"));
        QCOMPARE(first.value("stat").toString(), QString("mean"));
        QCOMPARE(log.value("divergent").toInt(), 1);
        QCOMPARE(log.value("worst").toArray().first().toObject().value("line").toInt(), 6);
    }

    void alteredBackwardRecordIsCaughtThere()
    {
        QTemporaryDir dir;
        const QString altered
            = writeFile(dir, "bwd.log", alterRecord(readAll(logOf("conv_bn_relu")), 17, "max", 1.5));
        const QJsonObject first = verifyJson({ bundle("conv_bn_relu"), "--paddle-log", altered }, 1)
                                      .value("first_divergent")
                                      .toObject();
        QCOMPARE(first.value("line").toInt(), 17);
        QVERIFY(first.value("op").toString().startsWith("bwd:"));
        QCOMPARE(first.value("op_name").toString(), QString("pd_op.batch_norm_grad"));
        QCOMPARE(first.value("stat").toString(), QString("max"));
    }

    /// A parameter changed in the bundle: PIRScope's run differs from Paddle's log first at the
    /// op that reads it (mlp_ce's second matmul reads linear_1.w_0, line 6).
    void alteredParameterDivergesAtItsConsumer()
    {
        QTemporaryDir dir;
        const std::filesystem::path copy = dir.filePath("mlp_ce").toStdString();
        std::filesystem::copy(bundle("mlp_ce").toStdString(), copy, std::filesystem::copy_options::recursive);
        const std::string param = (copy / "params" / "linear_1.w_0.npy").string();
        std::string error;
        Tensor w = NpyIO::read(param, error);
        QVERIFY2(w.defined(), error.c_str());
        w.data<float>()[0] += 1.0f;
        QVERIFY2(NpyIO::write(param, w, error), error.c_str());
        const QJsonObject first
            = verifyJson({ QString::fromStdString(copy.string()), "--paddle-log", logOf("mlp_ce") }, 1)
                  .value("first_divergent")
                  .toObject();
        QCOMPARE(first.value("line").toInt(), 6);
        QCOMPARE(first.value("op").toString(), QString("fwd:9"));
    }

    /// The float64 referee: Paddle's altered statistic is far from the double result, PIRScope's
    /// float32 is near it, in the forward (matmul) and in the backward (batch_norm_grad).
    void refereeSaysWhichSideIsCloser()
    {
        QTemporaryDir dir;
        const QString fwd = writeFile(dir, "fwd.log", alterRecord(readAll(logOf("mlp_ce")), 6, "mean", 3));
        QJsonObject referee = verifyJson({ bundle("mlp_ce"), "--paddle-log", fwd, "--referee", "f64" }, 1)
                                  .value("referee")
                                  .toObject();
        QCOMPARE(referee.value("closer").toString(), QString("pirscope"));
        QCOMPARE(referee.value("stat").toString(), QString("mean"));
        QVERIFY(referee.value("pirscope_error").toDouble() < 0.01);
        QVERIFY(referee.value("paddle_error").toDouble() > 100);

        const QString bwd
            = writeFile(dir, "bwd.log", alterRecord(readAll(logOf("conv_bn_relu")), 17, "max", 1.5));
        referee = verifyJson({ bundle("conv_bn_relu"), "--paddle-log", bwd, "--referee", "f64" }, 1)
                      .value("referee")
                      .toObject();
        QCOMPARE(referee.value("closer").toString(), QString("pirscope"));
        QCOMPARE(referee.value("dtype").toString(), QString("float64"));

        // Nothing diverges: no referee verdict.
        QVERIFY(verifyJson({ bundle("mlp_ce"), "--paddle-log", logOf("mlp_ce"), "--referee", "f64" }, 0)
                    .value("referee")
                    .isNull());
        CliResult r = runPirscopeCli({ "verify", bundle("mlp_ce"), "--paddle-log", fwd, "--referee", "f32" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("--referee f32"));
        r = runPirscopeCli(
            { "verify", bundle("mlp_ce"), "--paddle-log", fwd, "--referee", "f64", "--against", fwd });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("does not go with --against"));
    }

    void logAgainstLog()
    {
        QVERIFY(
            verifyJson({ bundle("lenet"), "--paddle-log", logOf("lenet"), "--against", logOf("lenet") }, 0)
                .value("first_divergent")
                .isNull());
        QTemporaryDir dir;
        const QString altered = writeFile(dir, "b.log", alterRecord(readAll(logOf("lenet")), 30, "min", 2));
        const QJsonObject log
            = verifyJson({ bundle("lenet"), "--paddle-log", logOf("lenet"), "--against", altered }, 1);
        const QJsonObject first = log.value("first_divergent").toObject();
        QCOMPARE(first.value("line").toInt(), 30);
        QCOMPARE(first.value("against_line").toInt(), 30);
        QVERIFY(first.contains("against"));
        QCOMPARE(log.value("against").toString(), altered);
    }

    void aTruncatedLogStillCompares()
    {
        QByteArray text = readAll(logOf("mlp_ce"));
        text.chop(text.size() - text.lastIndexOf("max=") - 3);
        QTemporaryDir dir;
        const QString cut = writeFile(dir, "cut.log", text);
        const CliResult r = runPirscopeCli({ "verify", bundle("mlp_ce"), "--paddle-log", cut });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("cut.log:25:"), r.err.constData());
        QVERIFY2(r.out.contains("unreadable: 1"), r.out.constData());
        QVERIFY2(r.out.contains("23 matched"), r.out.constData());
    }

    void aLogOfAnotherProgramIsNotPassedOff()
    {
        const QJsonObject log
            = verifyJson({ bundle("mlp_ce"), "--paddle-log", logOf("transformer_encoder") }, 1);
        QVERIFY(log.value("matched").toInt() < log.value("records").toInt() / 2);
        QCOMPARE(log.value("first_divergent").toObject().value("stat").toString(), QString("numel"));
    }

    /// `bench runlog` (a synthetic log of one record per op result) matches every record.
    void benchMatchesItsSyntheticLog()
    {
        const CliResult r = runPirscopeCli({ "bench", "runlog", "--records", "2000", "--json" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject bench = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(bench.value("records").toInt(), 2000);
        QCOMPARE(bench.value("matched").toInt(), 2000);
        QVERIFY(bench.value("index_seconds").toDouble() > 0);
        QCOMPARE(runPirscopeCli({ "bench", "runlog", "--records", "-5" }).exitCode, 1);
    }

    void badArguments()
    {
        CliResult r = runPirscopeCli({ "verify", bundle("mlp_ce"), "--against", logOf("mlp_ce") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("--against needs --paddle-log"));
        r = runPirscopeCli({ "verify", bundle("mlp_ce"), "--paddle-log", "/nonexistent/run.log" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("/nonexistent/run.log"), r.err.constData());
        r = runPirscopeCli({ "verify", bundle("mlp_ce"), "--paddle-log", bundle("mlp_ce") + "/program.txt" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no [PRECISION] records"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRunLogCheck)
#include "tst_runlogcheck.moc"
