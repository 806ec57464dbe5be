#include "clirunner.h"
#include "core/io/pirjsonwriter.h"
#include "core/io/programloader.h"
#include "core/ir/program.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString fixture(const QString &name)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/malformed/") + name;
}

/// The malformed programs of issue 22 that load but do not verify, and the verifier's error.
void addRefusedRows()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fetch without operand") << "fetch_without_operand.txt"
                                           << "op #2 (pd_op.fetch): has 0 operands, expected 1 (x)";
    QTest::newRow("slice without operand") << "slice_without_operand.txt"
                                           << "op #2 (pd_op.slice): has 0 operands, expected 1 (input)";
    QTest::newRow("split without operand")
        << "split_without_operand.txt"
        << "op #3 (pd_op.split): has 0 operands, expected 3 (x, sections, axis)";
    QTest::newRow("if without condition") << "if_without_condition.txt"
                                          << "op #2 (pd_op.if): has 0 operands, expected 1 (cond)";
    QTest::newRow("shadow_output without value")
        << "shadow_output_without_value.txt"
        << "op #2 (builtin.shadow_output): has 0 operands, expected 1 (x)";
    QTest::newRow("if yields another type")
        << "if_yields_wrong_type.txt"
        << "op #3 (pd_op.if): region #1 yields tensor<7x7xi64> (%5) for result #0 (%3), declared "
           "tensor<2x3xf32>";
    QTest::newRow("float if condition")
        << "if_float_condition.txt"
        << "op #3 (pd_op.if): the condition %2 is tensor<f32>, expected a one-element bool tensor";
    QTest::newRow("float while condition")
        << "while_float_condition.txt"
        << "op #2 (pd_op.while): region #0's yielded condition %4 is tensor<1xf32>, expected a "
           "one-element bool tensor";
}

/// Every command that runs, splits, passes, draws, names or diffs a program.
const QList<QStringList> kGatedCommands = {
    { "run" },
    { "verify" },
    { "verify", "--numerics" },
    { "split" },
    { "passes" },
    { "dot" },
    { "names" },
    { "inplace" },
    { "bench", "run" },
    { "bench", "open" },
};

/// A layer norm fused with its residual add, its mean and variance declared [1] as Paddle's
/// InferMeta declares them for an x of -1x-1x8 (it multiplies the dynamic dims); `dims` is x's.
QByteArray fusedLayerNorm(const QByteArray &dims, const QByteArray &shape)
{
    const QByteArray x = "tensor<" + dims + "xf32>";
    return "{\n"
           "    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(cpu),shape:["
        + shape + "],stop_gradient:[false]} : () -> " + x
        + "\n"
          "    (%1) = \"pd_op.data\" () {dtype:float32,name:\"r\",place:Place(cpu),shape:["
        + shape + "],stop_gradient:[false]} : () -> " + x
        + "\n"
          "    (%2) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[8],value:1} : () -> "
          "tensor<8xf32>\n"
          "    (%3) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[8],value:0} : () -> "
          "tensor<8xf32>\n"
          "    (%4, %5, %6, %7) = \"pd_op.fused_bias_residual_layernorm\" (%0, <<NULL VALUE>>, %1, %2, %3) "
          "{begin_norm_axis:2,epsilon:1e-05,quant_max_bound:0,quant_min_bound:0,quant_round_type:0,"
          "quant_scale:-1,residual_alpha:1} : ("
        + x + ", <<NULL TYPE>>, " + x + ", tensor<8xf32>, tensor<8xf32>) -> " + x + ", " + x
        + ", tensor<1xf32>, tensor<1xf32>\n"
          "    () = \"builtin.shadow_output\" (%4) {output_name:\"out\"} : ("
        + x + ") -> \n}\n";
}

/// batch_norm_ in inference, its reserve_space declared `declared` (Paddle 2.6: float32[-1]).
QByteArray batchNorm(const QByteArray &declared)
{
    const QByteArray x = "tensor<2x3x2x2xf32>";
    return "{\n"
           "    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(cpu),shape:[2,3,2,2],"
           "stop_gradient:[false]} : () -> "
        + x
        + "\n"
          "    (%1) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[3],value:0} : () -> "
          "tensor<3xf32>\n"
          "    (%2) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[3],value:1} : () -> "
          "tensor<3xf32>\n"
          "    (%3, %4, %5, %6, %7, %8) = \"pd_op.batch_norm_\" (%0, %1, %2, %2, %1) {data_format:\"NCHW\","
          "epsilon:1e-05,is_test:true,momentum:0.9,trainable_statistics:false,use_global_stats:false} : ("
        + x + ", tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> " + x
        + ", tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, " + declared
        + "\n"
          "    () = \"builtin.shadow_output\" (%3) {output_name:\"out\"} : ("
        + x + ") -> \n}\n";
}

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(text);
    return path;
}

} // namespace

/// Issue 22, check before running: malformed programs (ops without operands, an if without its
/// condition, yields of another type, float conditions) are refused by every pirscope-cli command
/// that runs, splits, passes or draws them, with the op named and exit status 1, never a signal;
/// print and info still show them. What only a run can see (a kernel's result or a branch's
/// value of another dtype or shape than declared) stops the run with the op and value named.
class TestMalformedPrograms : public QObject
{
    Q_OBJECT

private slots:
    void everyCommandRefuses_data() { addRefusedRows(); }

    void everyCommandRefuses()
    {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        const QString path = fixture(file);
        for (QStringList args : kGatedCommands) {
            args << path;
            const CliResult r = runPirscopeCli(args, 60000);
            const QString err = QString::fromUtf8(r.err);
            const QString what = args.join(' ') + " -> " + QString::number(r.exitCode) + "\n" + err;
            QVERIFY2(r.exitCode == 1, qPrintable(what));
            QVERIFY2(err.contains(path + ": error: " + expected), qPrintable(what));
            QVERIFY2(err.contains("it is not run, split, passed or drawn"), qPrintable(what));
        }
        // compare says 2 for "cannot compare".
        const CliResult compared = runPirscopeCli({ "compare", path, path }, 60000);
        QCOMPARE(compared.exitCode, 2);
        QVERIFY2(QString::fromUtf8(compared.err).contains(expected), compared.err.constData());
    }

    void printAndInfoShowThem_data() { addRefusedRows(); }

    void printAndInfoShowThem()
    {
        QFETCH(QString, file);
        for (const char *command : { "print", "info" }) {
            const CliResult r = runPirscopeCli({ command, fixture(file) }, 60000);
            QVERIFY2(r.exitCode == 0, qPrintable(QString(command) + ": " + QString::fromUtf8(r.err)));
            QVERIFY(!r.out.isEmpty());
        }
    }

    /// The same refusal for PIR JSON: the shadow_output without its value written by the writer.
    // A binary file under a program's name is called binary, where its first non-text byte is;
    // a text file named .json that is no program says it is not JSON either.
    void binaryIsNotReadAsText()
    {
        std::string bytes(44, 'x');
        bytes.replace(0, 4, "PK\x03\x04", 4);
        const ps::LoadResult binary = ps::loadProgramFromString(bytes, "model.json");
        QVERIFY(!binary.program);
        QCOMPARE(binary.diagnostics.size(), size_t(1));
        QCOMPARE(QString::fromStdString(binary.diagnostics[0].toString()),
            QStringLiteral("model.json:1:3: error: binary data (byte 0x03), not a PIR program: PIR "
                           "JSON starts with '{\"', PIR text with an op line"));

        const ps::LoadResult prose = ps::loadProgramFromString("\n  hello world\nmore", "notes.json");
        QVERIFY(prose.diagnostics.hasErrors());
        QCOMPARE(QString::fromStdString(prose.diagnostics.items().back().toString()),
            QStringLiteral("notes.json:2:3: note: named .json but not JSON: it starts with 'hello "
                           "world', not '{\"'"));

        // Tabs, form feeds and a BOM are text.
        const ps::LoadResult text = ps::loadProgramFromString(
            "\xEF\xBB\xBF{\n\t(%0) = \"pd_op.full\" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)"
            "Place(cpu),shape:(pd_op.IntArray)[1],value:(Float)1,stop_gradient:[true]} : () -> "
            "builtin.tensor<1xf32>\n\f}\n",
            "p.txt");
        QVERIFY2(!text.diagnostics.hasErrors(), text.diagnostics.toString().c_str());
    }

    void jsonProgramIsRefused()
    {
        ps::LoadResult loaded = ps::loadProgram(fixture("shadow_output_without_value.txt").toStdString());
        QVERIFY(loaded.ok());
        QTemporaryDir dir;
        const QString json = dir.filePath("shadow.json");
        QFile out(json);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(ps::PirJsonWriter::write(*loaded.program)));
        out.close();
        for (const char *command : { "run", "verify", "split" }) {
            const CliResult r = runPirscopeCli({ command, json }, 60000);
            QVERIFY2(r.exitCode == 1, r.err.constData());
            QVERIFY2(r.err.contains("op #2 (builtin.shadow_output): has 0 operands"), r.err.constData());
        }
    }

    /// A trace bundle whose origin program (run, passes) or Paddle train program (split, run in
    /// training) does not verify.
    void bundleProgramsAreVerified()
    {
        QTemporaryDir dir;
        const QString bundle = dir.filePath("bundle");
        QCOMPARE(QProcess::execute(
                     "cp", { "-r", QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/control_flow_if"), bundle }),
            0);
        auto dropCondition = [&](const QString &name) {
            QFile f(bundle + "/" + name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QByteArray text = f.readAll();
            f.close();
            QVERIFY(text.contains("\"pd_op.if\" (%8)"));
            text.replace("\"pd_op.if\" (%8)", "\"pd_op.if\" ()");
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        };
        dropCondition("train_program.txt");
        for (const char *command : { "split", "run" }) {
            const CliResult r = runPirscopeCli({ command, bundle }, 60000);
            QVERIFY2(r.exitCode == 1, r.err.constData());
            QVERIFY2(r.err.contains("train_program.txt: error: op #11 (pd_op.if): has 0 operands"),
                r.err.constData());
        }
        QVERIFY(QFile::remove(bundle + "/program.json"));
        dropCondition("program.txt");
        for (const char *command : { "run", "passes", "verify" }) {
            const CliResult r = runPirscopeCli({ command, bundle }, 60000);
            QVERIFY2(r.exitCode == 1, r.err.constData());
            QVERIFY2(
                r.err.contains("program.txt: error: op #9 (pd_op.if): has 0 operands"), r.err.constData());
        }
    }

    /// Where Paddle's own declared types are loose the run goes on: an optional output the CPU
    /// does not allocate (reserve_space), auxiliary dims InferMeta computed from dynamic dims. The
    /// same dims behind static operands are judged.
    void runAcceptsPaddlesLooseTypes()
    {
        QTemporaryDir dir;
        for (const QByteArray &declared : { QByteArray("tensor<-1xf32>"), QByteArray("tensor<-1xu8>") }) {
            const CliResult r = runPirscopeCli({ "run", write(dir, "bn.txt", batchNorm(declared)) }, 60000);
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        const QString dynamic = write(dir, "dynamic.txt", fusedLayerNorm("-1x-1x8", "-1,-1,8"));
        CliResult r = runPirscopeCli({ "run", dynamic, "--shape", "x=2x4x8", "--shape", "r=2x4x8" }, 60000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runPirscopeCli({ "run", write(dir, "static.txt", fusedLayerNorm("2x4x8", "2,4,8")) }, 60000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("pd_op.fused_bias_residual_layernorm at 0:4 (results %4 (out), %5, %6, %7): "
                                "result 2 (%6) is float32[8], declared float32[1]"),
            r.err.constData());
    }

    void runChecksComputedTypes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        // pd_op.full declares float32[2, 3] but its attributes make int64[7, 7].
        QTest::newRow("kernel result") << "full_computes_wrong_type.txt"
                                       << "pd_op.full at 0:3/1:0 (results %5): result 0 (%5) is int64[7, 7], "
                                          "declared float32[2, 3]";
        // The branch's value is dynamic (-1x-1) in the IR, so it verifies; the if's result is not.
        QTest::newRow("yielded value") << "if_yields_wrong_shape_at_run.txt"
                                       << "pd_op.if result 0 (%3 (out)) gets float32[7, 7], declared "
                                          "float32[2, 3] from region #1";
    }

    void runChecksComputedTypes()
    {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        const QString path = fixture(file);
        const CliResult verified = runPirscopeCli({ "verify", path }, 60000);
        QVERIFY2(verified.exitCode == 0, verified.err.constData()); // the IR itself is fine
        for (const QStringList &args :
            QList<QStringList> { { "run", path }, { "verify", "--numerics", path } }) {
            const CliResult r = runPirscopeCli(args, 60000);
            const QString all = QString::fromUtf8(r.out + r.err);
            QVERIFY2(r.exitCode == 1, qPrintable(args.join(' ') + ": " + all));
            QVERIFY2(all.contains(expected), qPrintable(all));
        }
    }
};

QTEST_GUILESS_MAIN(TestMalformedPrograms)
#include "tst_malformedprograms.moc"
