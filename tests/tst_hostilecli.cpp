#include "core/runtime/npyio.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <functional>
#include <sys/stat.h>
#include <vector>

namespace {

struct CliRun
{
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString err;
    QString out;
    qint64 ms = 0;
};

CliRun runCli(const QStringList &args)
{
    QProcess p;
    QElapsedTimer timer;
    timer.start();
    p.start(QStringLiteral(PIRSCOPE_CLI_PATH), args);
    CliRun r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.ms = timer.elapsed();
    r.exitCode = p.exitCode();
    r.status = p.exitStatus();
    r.err = QString::fromUtf8(p.readAllStandardError());
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    return r;
}

QString write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(bytes);
    return path;
}

QString fullProgram(const QString &dir, const QString &shape, const QString &type)
{
    return write(dir + "/full.txt",
        ("{\n    (%0) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[" + shape
            + "],value:1.5} : () -> tensor<" + type
            + "xf32>\n"
              "    (%1) = \"pd_op.relu\" (%0) {} : (tensor<"
            + type + "xf32>) -> tensor<" + type
            + "xf32>\n"
              "    () = \"builtin.shadow_output\" (%1) {output_name:\"out\"} : (tensor<"
            + type + "xf32>) -> \n}\n")
            .toUtf8());
}

/// A copy of a fixture bundle whose manifest.json `edit` changes.
QString bundleCopy(const QString &dir, const std::function<void(QJsonObject &)> &edit)
{
    const QString from = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/pruned_param");
    const QString to = dir + "/bundle";
    QProcess::execute(QStringLiteral("cp"), { QStringLiteral("-r"), from, to });
    QFile f(to + "/manifest.json");
    f.open(QIODevice::ReadOnly);
    QJsonObject manifest = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    edit(manifest);
    write(to + "/manifest.json", QJsonDocument(manifest).toJson());
    return to;
}

} // namespace

/// Issue 9 end to end: every hostile input class gives `error: ...` naming the file, field or op,
/// exit status 1 (never a signal, never a hang), within seconds, with memory bounded.
class TestHostileCli : public QObject
{
    Q_OBJECT

private:
    void expectError(const QStringList &args, const QString &expected, int exitCode = 1)
    {
        const CliRun r = runCli(args);
        QCOMPARE(r.status, QProcess::NormalExit);
        QVERIFY2(r.exitCode == exitCode, qPrintable(QString::number(r.exitCode) + ": " + r.err));
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        qDebug("%s: %lld ms", qPrintable(args.join(' ').left(80)), r.ms);
    }

private slots:
    void compareSeesBlockArgumentAttributes()
    {
        QTemporaryDir dir;
        auto loop = [](const char *stopGradient) {
            return QByteArray("{\n"
                              "    (%0) = \"pd_op.full\" () {dtype:int64,place:Place(cpu),shape:[1],value:0} "
                              ": () -> "
                              "tensor<1xi64>\n"
                              "    (%1) = \"pd_op.full\" () {dtype:int64,place:Place(cpu),shape:[1],value:3} "
                              ": () -> "
                              "tensor<1xi64>\n"
                              "    (%2) = \"pd_op.less_than\" (%0, %1) {} : (tensor<1xi64>, tensor<1xi64>) "
                              "-> tensor<1xb>\n"
                              "    (%3) = \"pd_op.while\" (cond=%2, inputs=%0) {\n"
                              "    ^%arg_0 {stop_gradient:")
                + stopGradient
                + "}\n"
                  "        (%4) = \"pd_op.less_than\" (%arg_0, %1) {} : (tensor<1xi64>, tensor<1xi64>) -> "
                  "tensor<1xb>\n"
                  "        () = \"cf.yield\" (%4, %arg_0) {} : (tensor<1xb>, tensor<1xi64>) -> \n"
                  "    }\n"
                  "}\n";
        };
        const QString a = write(dir.path() + "/a.txt", loop("true"));
        const QString b = write(dir.path() + "/b.txt", loop("false"));
        QCOMPARE(runCli({ QStringLiteral("compare"), a, a }).exitCode, 0);
        const CliRun r = runCli({ QStringLiteral("compare"), a, b });
        QCOMPARE(r.exitCode, 1);
    }

    void shapeOverflowIsAnErrorNotACrash()
    {
        QTemporaryDir dir;
        const QString program = fullProgram(dir.path(), "4611686018427387904,4", "4611686018427387904x4");
        expectError({ "run", program }, "pd_op.full at 0:0");
        expectError({ "run", program }, "has more than 2^63 elements");
    }

    void oversizedAllocationNamesOpAndLimit()
    {
        QTemporaryDir dir;
        const QString program = fullProgram(dir.path(), "1000000,1000000", "1000000x1000000");
        // Refused before anything is allocated: the memory model's predicted peak does not fit.
        expectError(
            { "run", program, "--max-memory", "1G" }, "pd_op.full at 0:0: needs 4.0 TB, limit 1.0 GB");
        expectError({ "run", program, "--max-memory", "1G" }, "refused before anything is allocated");
        expectError({ "run", program }, "needs 4.0 TB, limit");
        expectError({ "run", program, "--max-memory", "lots" }, "--max-memory: expected a size");
    }

    void notRegularFiles()
    {
        QTemporaryDir dir;
        expectError({ "info", "/dev/zero" }, "/dev/zero: error: is a character device");
        // Said once, then the closing line.
        const CliRun zero = runCli({ QStringLiteral("info"), QStringLiteral("/dev/zero") });
        QCOMPARE(zero.err.count(QLatin1String("is a character device")), 1);
        QVERIFY2(zero.err.endsWith(QLatin1String("error: cannot load /dev/zero\n")), qPrintable(zero.err));
        const QString fifo = dir.path() + "/pipe.json";
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        expectError({ "info", fifo }, "is a FIFO");
        QVERIFY(QDir(dir.path()).mkdir("folder"));
        expectError({ "info", dir.path() + "/folder" }, "is a directory without a manifest.json");
        const QString loop = dir.path() + "/loop.json";
        QVERIFY(QFile::link(loop, loop));
        expectError({ "info", loop }, "is a symlink loop");
        // A bundle input that is a symlink to /dev/zero.
        const QString bundle = bundleCopy(dir.path(), [](QJsonObject &) {});
        QFile::remove(bundle + "/inputs/_jst.0.x.0.npy");
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), bundle + "/inputs/_jst.0.x.0.npy"));
        expectError({ "run", bundle },
            "at inputs[0].file: error: 'inputs/_jst.0.x.0.npy' (-> /dev/zero) leads out of "
            "the bundle through a symlink");
    }

    void strictNumericOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString program = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
        QTest::newRow("seed -1") << QStringList { "run", program, "--seed", "-1" }
                                 << "--seed: expected a non-negative integer, got '-1'";
        QTest::newRow("seed 12abc") << QStringList { "run", program, "--seed", "12abc" } << "got '12abc'";
        QTest::newRow("runs 0") << QStringList { "bench", "run", program, "--runs", "0" }
                                << "--runs: '0' is out of range";
        QTest::newRow("rtol nan") << QStringList { "verify", program, "--rtol", "nan" }
                                  << "--rtol: expected a finite number, got 'nan'";
        QTest::newRow("atol -1") << QStringList { "verify", program, "--atol", "-1" }
                                 << "--atol: '-1' is out of range";
        QTest::newRow("break overflow")
            << QStringList { "run", program, "--break", "0:99999999999999999999999" }
            << "--break: '0:99999999999999999999999' is not a valid position";
        QTest::newRow("ops") << QStringList { "bench", "pipeline", "--ops", "1e3" }
                             << "--ops: expected an integer of at least 1";
        QTest::newRow("device index")
            << QStringList { "run", program, "--device", "cuda:x" } << "the CUDA device index";
        QTest::newRow("mb huge") << QStringList { "bench", "passlog", "--mb", "99999999" }
                                 << "--mb: '99999999' is out of range (1 to 4000)";
        QTest::newRow("mb -1") << QStringList { "bench", "passlog", "--mb", "-1" }
                               << "--mb: expected an integer of at least 1, got '-1'";
        QTest::newRow("mb 1.5") << QStringList { "bench", "passlog", "--mb", "1.5" }
                                << "--mb: expected an integer of at least 1, got '1.5'";
        QTest::newRow("passlog ops -1") << QStringList { "bench", "passlog", "--ops", "-1" }
                                        << "--ops: expected an integer of at least 1, got '-1'";
        QTest::newRow("passlog ops 2^64") << QStringList { "bench", "passlog", "--ops",
            "18446744073709551616" } << "--ops: '18446744073709551616' is out of range";
        QTest::newRow("pipeline ops -1") << QStringList { "bench", "pipeline", "--ops", "-1" }
                                         << "--ops: expected an integer of at least 1, got '-1'";
        QTest::newRow("records -1") << QStringList { "bench", "runlog", "--records", "-1" }
                                    << "--records: expected a non-negative integer, got '-1'";
        QTest::newRow("records 1.5") << QStringList { "bench", "runlog", "--records", "1.5" }
                                     << "--records: expected a non-negative integer, got '1.5'";
        QTest::newRow("max-memory -1")
            << QStringList { "run", program, "--max-memory", "-1" } << "--max-memory: ";
        QTest::newRow("seed 1.5") << QStringList { "run", program, "--seed", "1.5" }
                                  << "--seed: expected a non-negative integer, got '1.5'";
        QTest::newRow("runs huge") << QStringList { "bench", "run", program, "--runs",
            "99999999999999999999" }
                                   << "--runs: '99999999999999999999' is out of range";
    }
    void strictNumericOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        expectError(args, expected);
    }

    /// Issue 22: a loop that never ends is bounded by --max-ops in every command that runs it,
    /// and by the memory budget for what a run records.
    void endlessLoopIsBounded()
    {
        const QString program = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/bounded/endless_while.txt");
        const QString limit
            = QStringLiteral("pd_op.full at 0:2/0:1 (results %4): stopped before op 1001: the limit of 1000 "
                             "executed ops");
        expectError({ "run", program, "--max-ops", "1000" }, "error: " + limit);
        expectError({ "run", program, "--max-ops=1000", "--json" }, limit);
        const CliRun verify = runCli({ "verify", program, "--numerics", "--max-ops", "1000" });
        QCOMPARE(verify.exitCode, 1);
        QVERIFY2(verify.out.contains("error: " + limit), qPrintable(verify.out));
        QVERIFY2(verify.out.contains("numerics: FAILED"), qPrintable(verify.out));
        expectError({ "passes", program, "--enable", "cse", "--check-numerics", "--max-ops", "1000" },
            "error: --check-numerics: " + limit);
        expectError(
            { "passes", program, "--enable", "cse", "--check-numerics", "--max-ops", "1000", "--json" },
            "error: --check-numerics: " + limit);
        // Without a limit the records a run keeps stop it at the budget.
        expectError({ "run", program, "--max-memory", "4M" }, "recording the executed ops needs");
        expectError({ "run", program, "--max-memory", "4M" }, "limit 4.0 MB");
        // Only the commands that run a program take it, and strictly.
        expectError(
            { "info", program, "--max-ops", "5" }, "--max-ops bounds the commands that run a program");
        expectError({ "run", program, "--max-ops", "0" }, "--max-ops: '0' is out of range");
        expectError(
            { "run", program, "--max-ops", "-1" }, "--max-ops: expected an integer of at least 1, got '-1'");
        expectError({ "run", program, "--max-ops", "1e3" },
            "--max-ops: expected an integer of at least 1, got '1e3'");
        expectError({ "run", program, "--max-ops" }, "option --max-ops needs a value");
    }

    void breakpointsUseRe2AndWarn()
    {
        const QString program = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
        const CliRun none = runCli({ "run", program, "--break", "no_such_name" });
        QCOMPARE(none.exitCode, 0);
        QVERIFY2(none.err.contains("warning: --break 'no_such_name': no result name of any op matches it"),
            qPrintable(none.err));
        const CliRun pathological = runCli({ "run", program, "--break", "(a+)+$" });
        QCOMPARE(pathological.status, QProcess::NormalExit);
        QVERIFY2(pathological.exitCode == 0 || pathological.exitCode == 2, qPrintable(pathological.err));
        qDebug("--break (a+)+$: %lld ms", pathological.ms);
    }

    void manifestRangesAndFilesAreChecked()
    {
        QTemporaryDir dir;
        const QString overlap = bundleCopy(dir.path(), [](QJsonObject &m) {
            m["backward_range"] = QJsonArray { 5, 17 };
        });
        expectError({ "verify", overlap },
            "at backward_range: error: [5, 17] starts before forward_range [0, 11] ends");
        QDir(overlap).removeRecursively();
        const QString past = bundleCopy(dir.path(), [](QJsonObject &m) {
            m["backward_range"] = QJsonArray { 14, 170 };
        });
        expectError({ "verify", past }, "runs past the end of train_program.txt");
        QDir(past).removeRecursively();
        const QString shape = bundleCopy(dir.path(), [](QJsonObject &m) {
            QJsonArray inputs = m["inputs"].toArray();
            QJsonObject first = inputs[0].toObject();
            first["shape"] = QJsonArray { 4, 3 };
            inputs[0] = first;
            m["inputs"] = inputs;
        });
        expectError({ "verify", shape },
            "at inputs[0].shape: error: [4, 3], but inputs/_jst.0.x.0.npy holds float32[2, 3]");
        QDir(shape).removeRecursively();
        const QString badNumber = bundleCopy(dir.path(), [](QJsonObject &m) {
            m["forward_range"] = QJsonArray { 0, -11 };
        });
        expectError({ "verify", badNumber }, "at forward_range[1]: error: expected a non-negative integer");
        QDir(badNumber).removeRecursively();
        // A number JSON cannot hold: the error has a line and column, not just "not valid JSON".
        const QString huge = bundleCopy(dir.path(), [](QJsonObject &) {});
        QFile f(huge + "/manifest.json");
        f.open(QIODevice::ReadOnly);
        QByteArray text = f.readAll();
        f.close();
        text.replace("\"seed\": 2024", "\"seed\": 1e999");
        write(huge + "/manifest.json", text);
        expectError({ "verify", huge }, "manifest.json:");
        expectError({ "verify", huge }, "not valid JSON");
    }

    /// Issue 22: `bench passlog` leaves no log behind, after a run or when it is interrupted.
    void benchPassLogRemovesItsLog()
    {
        QTemporaryDir tmp;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        p.setProcessEnvironment(env);
        p.start(
            QStringLiteral(PIRSCOPE_CLI_PATH), { "bench", "passlog", "--mb", "1", "--ops", "50", "--json" });
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(QJsonDocument::fromJson(p.readAllStandardOutput()).object()["bytes"].toDouble() >= 1e6,
            "a log of at least 1 MB");
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
        // Interrupted while it writes a big log (SIGTERM, then Ctrl+C): the handler removes it.
        for (const int signal : { SIGTERM, SIGINT }) {
            p.start(QStringLiteral(PIRSCOPE_CLI_PATH), { "bench", "passlog", "--mb", "400", "--ops", "50" });
            QVERIFY(p.waitForStarted());
            QElapsedTimer timer;
            timer.start();
            while (QDir(tmp.path()).entryList(QDir::Files).isEmpty() && timer.elapsed() < 20000)
                QTest::qWait(20);
            QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 1);
            QCOMPARE(::kill(pid_t(p.processId()), signal), 0);
            QVERIFY(p.waitForFinished(20000));
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);
            QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
        }
        // An error (an unreadable LOG given) creates nothing.
        expectError({ "bench", "passlog", tmp.path() + "/missing.log" }, "missing.log");
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    /// Issue 22: a symlink or a FIFO planted in the --dump folder is replaced, never written
    /// through or opened; planted folders are refused; concurrent runs leave whole files.
    void dumpIsWrittenSafely()
    {
        QTemporaryDir dir;
        const QString program = fullProgram(dir.path(), "2,3", "2x3");
        const QString dump = dir.path() + "/dump";
        QVERIFY(QDir().mkpath(dump + "/outputs"));
        const QString victim = write(dir.path() + "/victim.txt", "precious\n");
        const QString target = dump + "/outputs/out.npy";
        QVERIFY(QFile::link(victim, target));
        CliRun r = runCli({ "run", program, "--dump", dump });
        QCOMPARE(r.status, QProcess::NormalExit);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile v(victim);
        QVERIFY(v.open(QIODevice::ReadOnly));
        QCOMPARE(v.readAll(), QByteArray("precious\n"));
        QVERIFY(!QFileInfo(target).isSymLink());
        std::string error;
        ps::Tensor out = ps::NpyIO::read(target.toStdString(), error);
        QVERIFY2(out.defined(), error.c_str());
        QCOMPARE(out.toDoubles(), std::vector<double>(6, 1.5));

        QVERIFY(QFile::remove(target));
        QVERIFY(::mkfifo(target.toLocal8Bit().constData(), 0600) == 0);
        r = runCli({ "run", program, "--dump", dump });
        QCOMPARE(r.status, QProcess::NormalExit); // runCli gives up after 60 s: a blocked run fails here
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFileInfo(target).isFile());
        QVERIFY(ps::NpyIO::read(target.toStdString(), error).defined());
        QCOMPARE(QDir(dump + "/outputs").entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            QStringList { "out.npy" });

        // Two runs into one folder at once: each file is one run's whole file.
        QList<QProcess *> runs;
        for (int i = 0; i < 4; ++i) {
            runs << new QProcess(this);
            runs.back()->start(QStringLiteral(PIRSCOPE_CLI_PATH), { "run", program, "--dump", dump });
        }
        for (QProcess *p : runs) {
            QVERIFY(p->waitForFinished(60000));
            QCOMPARE(p->exitCode(), 0);
            delete p;
        }
        out = ps::NpyIO::read(target.toStdString(), error);
        QVERIFY2(out.defined(), error.c_str());
        QCOMPARE(out.toDoubles(), std::vector<double>(6, 1.5));
        QCOMPARE(QDir(dump + "/outputs").entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            QStringList { "out.npy" });

        // A planted folder link and a --dump that is a file are refused.
        const QString elsewhere = dir.path() + "/elsewhere";
        QVERIFY(QDir().mkpath(elsewhere));
        QVERIFY(QDir(dump + "/outputs").removeRecursively());
        QVERIFY(QFile::link(elsewhere, dump + "/outputs"));
        expectError(
            { "run", program, "--dump", dump }, "outputs is not a directory (a symlink; not followed)");
        QCOMPARE(QDir(elsewhere).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
        expectError({ "run", program, "--dump", victim }, "--dump " + victim + ": not a directory");
    }

    /// Issue 22: a manifest may name only files inside its bundle.
    void manifestPathsStayInsideTheBundle()
    {
        QTemporaryDir dir;
        const QString outside = dir.path() + "/outside.npy";
        QVERIFY(QFile::copy(
            QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/pruned_param/output_grads/0.npy"), outside));
        const QString climbs = bundleCopy(dir.path(), [](QJsonObject &m) {
            QJsonArray outputs = m["outputs"].toArray();
            QJsonObject first = outputs[0].toObject();
            first["file"] = "../outside.npy";
            outputs[0] = first;
            m["outputs"] = outputs;
        });
        expectError(
            { "verify", climbs }, "at outputs[0].file: error: '../outside.npy' climbs out of the bundle");
        QDir(climbs).removeRecursively();
        const QString absolute = bundleCopy(dir.path(), [&](QJsonObject &m) {
            QJsonObject backward = m["backward"].toObject();
            backward["output_grads"] = QJsonObject { { "0", outside } };
            m["backward"] = backward;
        });
        expectError({ "run", absolute, "--mode", "train" },
            "at backward.output_grads.0: error: '" + outside + "' is an absolute path");
        QDir(absolute).removeRecursively();
        const QString gradient = bundleCopy(dir.path(), [](QJsonObject &m) {
            QJsonArray inputs = m["inputs"].toArray();
            QJsonObject first = inputs[0].toObject();
            first["grad_file"] = "grads/../../outside.npy";
            inputs[0] = first;
            m["inputs"] = inputs;
        });
        expectError(
            { "verify", gradient }, "at inputs[0].grad_file: error: 'grads/../../outside.npy' climbs out");
        QDir(gradient).removeRecursively();
        const QString named = bundleCopy(dir.path(), [](QJsonObject &m) {
            QJsonObject files = m["files"].toObject();
            files["paddle_run_log"] = "/etc/passwd";
            m["files"] = files;
            QJsonObject intermediates = m["intermediates"].toObject();
            QJsonArray values = intermediates["values"].toArray();
            QJsonObject first = values[0].toObject();
            first["file"] = "../outside.npy";
            values[0] = first;
            intermediates["values"] = values;
            m["intermediates"] = intermediates;
        });
        expectError({ "verify", named }, "at files.paddle_run_log: error: '/etc/passwd' is an absolute path");
        expectError(
            { "verify", named }, "at intermediates.values[0].file: error: '../outside.npy' climbs out");
        QDir(named).removeRecursively();
        // A symlink inside the bundle to a file outside it.
        const QString linked = bundleCopy(dir.path(), [](QJsonObject &) {});
        QVERIFY(QFile::remove(linked + "/output_grads/0.npy"));
        QVERIFY(QFile::link(outside, linked + "/output_grads/0.npy"));
        expectError({ "run", linked, "--mode", "train" },
            "at backward.output_grads.0: error: 'output_grads/0.npy' (-> "
                + QFileInfo(outside).canonicalFilePath() + ") leads out of the bundle through a symlink");
        // A link inside the bundle to a file inside it is fine.
        QVERIFY(QFile::remove(linked + "/output_grads/0.npy"));
        QVERIFY(QFile::link(linked + "/outputs/0.npy", linked + "/output_grads/0.npy"));
        const CliRun fine = runCli({ "verify", linked });
        QVERIFY2(!fine.err.contains("leads out of the bundle"), qPrintable(fine.err));
    }

    /// Issue 22: --inputs and --params tell a .npy by its content, whatever its name.
    void inputsFileKindByContent()
    {
        QTemporaryDir dir;
        const QString program = fullProgram(dir.path(), "2,3", "2x3");
        std::string error;
        const QString npy = dir.path() + "/x.npy";
        QVERIFY(ps::NpyIO::write(npy.toStdString(),
            ps::Tensor::fromDoubles({ 2, 3 }, ps::DataType::Float32, std::vector<double>(6, 2.0)), error));
        expectError(
            { "run", program, "--inputs", npy }, "--inputs: '" + npy + "' is a .npy file (by its content)");
        const QString renamed = dir.path() + "/weights.pdiparams";
        QVERIFY(QFile::copy(npy, renamed));
        expectError({ "run", program, "--params", renamed }, "--params: '" + renamed + "' is a .npy file");
    }

    void provideWithLyingNpy()
    {
        QTemporaryDir dir;
        const QString program = fullProgram(dir.path(), "2,3", "2x3");
        std::string h = "{'descr': '<f4', 'fortran_order': False, 'shape': (1100000000, 1), }";
        h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
        h += '\n';
        QByteArray npy("\x93NUMPY\x01\x00", 8);
        npy += char(h.size() & 0xff);
        npy += char(h.size() >> 8);
        npy += QByteArray::fromStdString(h);
        npy += QByteArray(64, '\0');
        const QString file = write(dir.path() + "/lie.npy", npy);
        expectError({ "run", program, "--provide", "0:0=" + file }, "the file is truncated");
    }
};

QTEST_GUILESS_MAIN(TestHostileCli)
#include "tst_hostilecli.moc"
