#include <QtTest>

namespace {

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliRun runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(PIRSCOPE_CLI_PATH), args);
    CliRun r;
    if (!p.waitForFinished(120000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString fixture(const QString &caseName, const QString &file)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/pipeline_passes/") + caseName + "/" + file;
}

QJsonObject entry(const QJsonArray &passes, const QString &name)
{
    for (const QJsonValue &p : passes)
        if (p.toObject()["pass"].toString() == name)
            return p.toObject();
    return {};
}

} // namespace

/// `pirscope-cli passes` with named pipelines, the numeric check per pass and Paddle's IR dump.
class TestPassesCli : public QObject
{
    Q_OBJECT

private slots:
    void pipelineWithNumerics()
    {
        const CliRun r
            = runCli({ "passes", fixture("fold_linear", "model.json"), "--pipeline", "inference-cpu",
                "--check-numerics", "--params", fixture("fold_linear", "model.pdiparams"), "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["numerics_baseline_error"].toString(), QString());
        // What the check held at most, and one run alone (both measured, never zero).
        QVERIFY(o["numerics_peak_bytes"].toDouble() > 0);
        QVERIFY(o["numerics_run_peak_bytes"].toDouble() > 0);
        const QJsonArray passes = o["passes"].toArray();
        QCOMPARE(passes.size(), 11); // on a CPU, without params_sync_among_devices_pass
        // Listed, marked, not run, not checked.
        const QJsonObject lowering = entry(passes, "pd_op_to_kernel_pass");
        QVERIFY(!lowering["implemented"].toBool());
        QVERIFY(!lowering["numerics"].toObject()["checked"].toBool());
        // A check that did not run is not "ok": null, and the reason.
        QVERIFY(lowering["numerics"].toObject()["ok"].isNull());
        QCOMPARE(
            lowering["numerics"].toObject()["skipped"].toString(), QString("not implemented in PIRScope"));
        // Folding changed the program; its numbers are the same within tolerance.
        const QJsonObject fold = entry(passes, "constant_folding_pass");
        QVERIFY(fold["changed"].toBool());
        QVERIFY(fold["added"].toInt() > 0);
        const QJsonObject n = fold["numerics"].toObject();
        QVERIFY(n["checked"].toBool());
        QVERIFY(n["ok"].toBool());
        for (const char *key : { "max_abs", "max_rel", "worst_value", "ok" })
            QVERIFY2(n.contains(key), key);
        QVERIFY(n["max_abs"].toDouble() <= 1e-6);
        QCOMPARE(n["outputs"].toArray().size(), 1);
        // The pass's own memory: what its check held and the larger of its two runs alone.
        QVERIFY(n["run_peak_bytes"].toDouble() > 0);
        QVERIFY(n["peak_bytes"].toDouble() >= n["run_peak_bytes"].toDouble());
        QVERIFY(n["peak_bytes"].toDouble() <= o["numerics_peak_bytes"].toDouble());
        // CSE merged the duplicated matmul + add.
        QVERIFY(entry(passes, "common_subexpression_elimination_pass")["removed"].toInt() >= 2);
        QVERIFY(entry(passes, "inplace_pass")["changed"].toBool());
        // Its result as inplace groups: each a chain of values sharing one buffer.
        const QJsonArray groups = entry(passes, "inplace_pass")["inplace_groups"].toArray();
        QVERIFY(!groups.isEmpty());
        QVERIFY(groups[0].toString().contains(' '));
        QVERIFY(entry(passes, "inplace_pass")["seconds"].isDouble());
    }

    void transformerBlockIsChecked()
    {
        // pd_op.unbind (q, k, v) has a CPU kernel: the program runs, so each pass is checked.
        const CliRun r
            = runCli({ "passes", fixture("transformer_block", "model.json"), "--pipeline", "inference-cpu",
                "--check-numerics", "--params", fixture("transformer_block", "model.pdiparams"), "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["numerics_baseline_error"].toString(), QString());
        const QJsonObject fold = entry(o["passes"].toArray(), "constant_folding_pass")["numerics"].toObject();
        QVERIFY(fold["checked"].toBool());
        QVERIFY(fold["ok"].toBool());
        QVERIFY(fold["values_compared"].toInt() > 0);
    }

    void textReportAndIrDump()
    {
        const CliRun r = runCli({ "passes", fixture("elementwise_chain", "model.json"), "--pipeline",
            "dy2static", "--print-ir", "--check-numerics" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("pd_op_to_kernel_pass: not run (not implemented in PIRScope)"));
        QVERIFY(r.out.contains("inplace_pass: "));
        QVERIFY(r.out.contains("numerics: max abs"));
        // Paddle's IRPrinting banners, before and after each pass that ran.
        QVERIFY(r.err.contains("IRPrinting on builtin.module before inplace_pass pass"));
        QVERIFY(r.err.contains("IRPrinting on builtin.module after inplace_pass pass"));
        QVERIFY(!r.err.contains("before pd_op_to_kernel_pass"));
    }

    void customOrderAndErrors()
    {
        const QString model = fixture("fold_linear", "model.json");
        CliRun r = runCli({ "passes", model, "--pipeline", "dy2static", "--enable", "fold,dce", "--disable",
            "cse", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonArray passes = QJsonDocument::fromJson(r.out).object()["passes"].toArray();
        QStringList order;
        for (const QJsonValue &p : passes)
            order << p.toObject()["pass"].toString();
        QCOMPARE(order,
            QStringList({ "pd_op_to_kernel_pass", "inplace_pass", "constant_folding_pass",
                "dead_code_elimination_pass" }));
        // Without --pipeline, --enable is the pipeline: exactly the passes asked for, in order
        // (dy2static's default CSE does not run first).
        r = runCli({ "passes", model, "--enable", "fold,dce", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        order.clear();
        for (const QJsonValue &p : QJsonDocument::fromJson(r.out).object()["passes"].toArray())
            order << p.toObject()["pass"].toString();
        QCOMPARE(order, QStringList({ "constant_folding_pass", "dead_code_elimination_pass" }));
        QCOMPARE(runCli({ "passes", model, "--pipeline", "inference-tpu" }).exitCode, 1);
        // --disable of a pass the pipeline does not hold says so, and what it holds.
        r = runCli({ "passes", model, "--enable", "fold", "--disable", "dce" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("pass dead_code_elimination_pass is not in this pipeline; the pipeline has: "
                                "constant_folding_pass (fold)"),
            r.err.constData());
        QVERIFY(!r.err.contains("unknown pass"));
        r = runCli({ "passes", model, "--pipeline", "inference-cpu", "--disable", "map_op" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("pass map_op_to_another_pass is not in this pipeline"), r.err.constData());
        r = runCli({ "passes", model, "--disable", "no_such_pass" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("unknown pass 'no_such_pass'"), r.err.constData());
        QCOMPARE(runCli({ "passes", model, "--place", "tpu" }).exitCode, 1);
        QCOMPARE(runCli({ "passes", model, "--enable", "no_such_pass" }).exitCode, 1);
        r = runCli({ "passes", "--list" });
        QVERIFY(r.out.contains("inference-gpu-fp16"));
        QVERIFY(r.out.contains("pd_op_to_kernel_pass*"));
    }

    void placeAsPaddle()
    {
        // tests/fixtures/passes/ppocr_like: Paddle 3.3.1 on a CPU left the program as it was to
        // map_op_to_another_pass (manifest.json: changed false); a GPU place maps its
        // depthwise_conv2d to conv2d. The inference-cpu list on a GPU
        // place holds params_sync_among_devices_pass again.
        const QString model = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/passes/ppocr_like/before.json");
        auto depthwise = [](const CliRun &r) {
            const QJsonObject map = entry(
                QJsonDocument::fromJson(r.out).object()["passes"].toArray(), "map_op_to_another_pass");
            return map["removed_ops"].toArray().size();
        };
        CliRun r = runCli({ "passes", model, "--enable", "map_op", "--place", "cpu", "--json", "--all" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(depthwise(r), 0);
        r = runCli({ "passes", model, "--enable", "map_op", "--place", "gpu", "--json", "--all" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(depthwise(r), 1);
        QVERIFY(r.out.contains("pd_op.depthwise_conv2d"));
        r = runCli({ "passes", model, "--pipeline", "inference-gpu", "--place", "cpu", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(depthwise(r), 0);
        QVERIFY(!r.out.contains("params_sync_among_devices_pass"));
        r = runCli({ "passes", model, "--pipeline", "inference-cpu", "--place", "gpu", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("params_sync_among_devices_pass"));
    }

    void traceBundleFolder()
    {
        // A bundle folder (or its manifest.json) opens as run/split/verify open it: the passes
        // run on its program with the manifest's output kept, checked on its own .npy files.
        const QString lenet = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/lenet");
        for (const QString &path : { lenet, lenet + "/manifest.json" }) {
            const CliRun r
                = runCli({ "passes", path, "--pipeline", "inference-gpu", "--check-numerics", "--json" });
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(o["numerics_baseline_error"].toString(), QString());
            const QJsonArray passes = o["passes"].toArray();
            QVERIFY(!passes.isEmpty());
            bool checked = false;
            for (const QJsonValue &p : passes) {
                const QJsonObject n = p.toObject()["numerics"].toObject();
                if (!n["checked"].toBool() || n.contains("skipped"))
                    continue;
                checked = true;
                QVERIFY2(n["ok"].toBool(), qPrintable(p.toObject()["pass"].toString()));
                QCOMPARE(n["outputs"].toArray().size(), 1);
                QCOMPARE(n["outputs"].toArray()[0].toObject()["name"].toString(), QString("output_0"));
            }
            QVERIFY(checked);
            // DCE keeps what the layer returns.
            const QJsonObject dce = entry(passes, "dead_code_elimination_pass");
            QVERIFY(dce["ops_after"].toInt() > 10);
        }
        // A folder that is neither says what `passes` accepts.
        QTemporaryDir empty;
        const CliRun r = runCli({ "passes", empty.path() });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains("neither a program file") && r.err.contains("trace bundle"), r.err.constData());
    }

    void numericsJsonReportsOrderSensitivity()
    {
        const CliRun r
            = runCli({ "passes", fixture("fold_linear", "model.json"), "--pipeline", "inference-cpu",
                "--check-numerics", "--params", fixture("fold_linear", "model.pdiparams"), "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject n = entry(
            QJsonDocument::fromJson(r.out).object()["passes"].toArray(), "constant_folding_pass")["numerics"]
                                  .toObject();
        const QJsonObject o = n["order_sensitive"].toObject();
        for (const char *key : { "values", "mismatches", "max_abs", "max_rel", "worst_value", "selections",
                 "selection_input_max_abs", "selection_input_max_rel" })
            QVERIFY2(o.contains(key), key);
        QCOMPARE(o["values"].toInt(), 0);
        QVERIFY(n["beyond_tolerance"].isArray());
        QVERIFY(n["beyond_tolerance"].toArray().isEmpty());
        QVERIFY(n["outputs"].toArray()[0].toObject().contains("order_sensitive"));
    }

    void shapeForDynamicInputs()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("dynamic.txt");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%2) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%3) = "pd_op.add" (%1, %2) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
    () = "builtin.shadow_output" (%3) {output_name:"y"} : (tensor<-1x4xf32>) ->
}
)");
        f.close();
        CliRun r
            = runCli({ "passes", path, "--enable", "cse", "--check-numerics", "--shape", "x=3x4", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["numerics_baseline_error"].toString(), QString());
        QCOMPARE(o["numerics_input_shapes"].toObject()["x"].toArray(), QJsonArray({ 3, 4 }));
        const QJsonObject cse = entry(o["passes"].toArray(), "common_subexpression_elimination_pass");
        QVERIFY(cse["changed"].toBool());
        QVERIFY(cse["numerics"].toObject()["ok"].toBool());
        // Without --shape the dynamic dim is 1; a shape that does not fit is refused.
        r = runCli({ "passes", path, "--enable", "cse", "--check-numerics", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QJsonDocument::fromJson(r.out).object()["numerics_input_shapes"].toObject().isEmpty());
        r = runCli({ "passes", path, "--check-numerics", "--shape", "x=3x5" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--shape"), r.err.constData());
        QCOMPARE(runCli({ "passes", path, "--check-numerics", "--shape", "z=3x4" }).exitCode, 1);
    }

    void passLogAsTimeline()
    {
        // A FLAGS_print_ir log from Paddle 3.3.1: `passes LOG` is `passlog LOG`, step by step.
        const QString log = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle_logs/conv_infer_cpu.log");
        CliRun r = runCli({ "passes", log, "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray steps = o["steps"].toArray();
        QVERIFY(steps.size() > 5);
        QStringList names;
        for (const QJsonValue &s : steps)
            names << s.toObject()["pass"].toString();
        QVERIFY2(names.contains("constant_folding_pass"), qPrintable(names.join(' ')));
        QVERIFY(names.contains("pd_op_to_kernel_pass"));
        QCOMPARE(runCli({ "passlog", log, "--json" }).out, r.out);
        // One step's diff, and a clear error for a step that does not exist.
        r = runCli({ "passes", log, "--step", "1", "--print", "after" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("pd_op."));
        r = runCli({ "passes", log, "--step", "100000" });
        QVERIFY(r.exitCode != 0);
        QVERIFY(!r.err.isEmpty());
        // Strict numbers: "-1" is no step 2^64 - 1 and "1.5" no step 1.
        for (const char *bad : { "-1", "1.5", " 2", "0x3" }) {
            r = runCli({ "passlog", log, "--step", bad });
            QVERIFY(r.exitCode != 0);
            QVERIFY2(r.err.contains("--step takes a step number"), r.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestPassesCli)
#include "tst_passescli.moc"
