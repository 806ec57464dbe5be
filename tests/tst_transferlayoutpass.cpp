// TransferLayoutPass against Paddle 3.3.1's transfer_layout_pass on the golden programs of
// tests/fixtures/layout_pass (tools/make_layout_pass_fixtures.py): the fusion fixtures' programs
// with every pd_op.fused_conv2d_add_act marked __force_backend__:"gpu" (what makes Paddle's CPU
// build move them to NHWC), the same unmarked, small conv -> op -> conv programs, and the real
// samples.

#include "core/analysis/programdiff.h"
#include "core/io/pirtextreader.h"
#include "core/runtime/backend.h"
#include "core/runtime/parameterstore.h"
#include "core/session/passnumericscheck.h"
#include "core/transform/passmanager.h"
#include "core/transform/passpipeline.h"
#include "core/transform/passregistry.h"
#include "core/transform/transferlayoutpass.h"
#include "passgolden.h"

#include <QtTest>

using namespace ps;

namespace {

const QString kDir = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/layout_pass");
const QString kRoot = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/../..");

QJsonObject layoutManifest()
{
    QFile f(kDir + "/manifest.json");
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

void mark(Program &program)
{
    for (Operation *op : program.block().ops())
        if (op->name() == "pd_op.fused_conv2d_add_act")
            op->setAttribute("__force_backend__", Attribute::string("gpu"));
}

/// The text form does not spell layouts: every tensor type back to NCHW, to compare with it.
void forgetLayouts(Program &program)
{
    program.block().walk([](Operation *op) {
        for (Value v : op->results())
            if (v.type().kind() == Type::Kind::DenseTensor && v.type().layout() != "NCHW")
                v.setType(Type::denseTensor(
                    v.type().dtype(), v.type().dims(), "NCHW", v.type().lod(), v.type().offset()));
    });
}

void expectEqual(const Program &mine, const Program &paddle)
{
    const ProgramDifference d = ProgramDiff::compare(mine, paddle);
    QVERIFY2(d.equal, d.toString("pirscope", "paddle").c_str());
}

QString sourceOf(const QString &caseName, const QString &extension)
{
    QString source = layoutManifest()["cases"].toObject()[caseName].toObject()["source"].toString();
    source.chop(int(strlen(".json")));
    return kRoot + "/" + source + extension;
}

/// A float16 fused convolution with `channels` in and out on 6x6, fetched.
std::unique_ptr<Program> halfConv(int channels, const char *dtype = "f16")
{
    const QString c = QString::number(channels);
    const QString t = QString(dtype);
    const QString text = QStringLiteral(
        "{\n"
        "    (%0) = \"builtin.parameter\" () {parameter_name:\"w\",persistable:[true],stop_gradient:[false]} "
        ": () -> "
        "tensor<C_xC_x3x3xT_>\n"
        "    (%1) = \"pd_op.data\" () {dtype:float16,name:\"x\",place:Place(undefined:0),shape:[1,C_,6,6],"
        "stop_gradient:[false]} : () -> tensor<1xC_x6x6xT_>\n"
        "    (%2, %3) = \"pd_op.fused_conv2d_add_act\" (%1, %0, <<NULL VALUE>>, <<NULL VALUE>>) "
        "{activation:\"relu\",data_format:\"NCHW\",dilations:[1,1],exhaustive_search:false,fuse_alpha:0,"
        "groups:1,padding_algorithm:\"EXPLICIT\",paddings:[1,1],split_channels:[],stop_gradient:[false,false]"
        ","
        "strides:[1,1],workspace_size_MB:32} : (tensor<1xC_x6x6xT_>, tensor<C_xC_x3x3xT_>, <<NULL TYPE>>, "
        "<<NULL TYPE>>) -> tensor<1xC_x6x6xT_>, vec[]\n"
        "    (%4) = \"pd_op.fetch\" (%2) {col:0,name:\"out\",persistable:[true],stop_gradient:[false]} : "
        "(tensor<1xC_x6x6xT_>) -> tensor<1xC_x6x6xT_>\n"
        "}\n")
                             .replace("C_", c)
                             .replace("T_", t);
    LoadResult result = PirTextReader::readString(text.toStdString(), "halfConv");
    if (!result.ok())
        qWarning().noquote() << QString::fromStdString(result.diagnostics.toString());
    return result.ok() ? std::move(result.program) : nullptr;
}

} // namespace

class TestTransferLayoutPass : public QObject
{
    Q_OBJECT

private slots:
    void registered()
    {
        QVERIFY(PassRegistry::isImplemented("transfer_layout_pass"));
        QVERIFY(PassRegistry::isImplemented("layout"));
        std::unique_ptr<Pass> p = PassRegistry::create("transfer_layout_pass", {});
        QVERIFY(p && p->implemented());
        std::string error;
        std::optional<PassManager> pm = PassPipeline::build("inference-gpu-fp16", {}, error);
        QVERIFY2(pm, error.c_str());
    }

    void matchesPaddle_data()
    {
        QTest::addColumn<QString>("caseName");
        const QStringList cases = layoutManifest()["cases"].toObject().keys();
        QVERIFY2(!cases.isEmpty(), "no tests/fixtures/layout_pass/manifest.json");
        for (const QString &c : cases)
            QTest::newRow(qPrintable(c)) << c;
    }

    /// Marked: the text result (attributes, shapes) and the JSON result (layouts) equal Paddle's.
    void matchesPaddle()
    {
        QFETCH(QString, caseName);
        const QJsonObject record = layoutManifest()["cases"].toObject()[caseName].toObject();

        auto fromText = passgolden::load(sourceOf(caseName, ".txt"));
        auto expectedText = passgolden::load(kDir + "/" + caseName + ".after.txt");
        QVERIFY(fromText && expectedText);
        mark(*fromText);
        TransferLayoutPass pass;
        QVERIFY(pass.run(*fromText) > 0);
        QCOMPARE(passgolden::describeCounts(passgolden::topLevelCounts(*fromText)),
            passgolden::describeCounts(passgolden::manifestCounts(record["ops_after"].toObject())));
        forgetLayouts(*fromText);
        expectEqual(*fromText, *expectedText);

        auto fromJson = passgolden::load(sourceOf(caseName, ".json"));
        auto expectedJson = passgolden::load(kDir + "/" + caseName + ".after.json");
        QVERIFY(fromJson && expectedJson);
        mark(*fromJson);
        TransferLayoutPass().run(*fromJson);
        passgolden::keepSerializedAttributes(*fromJson);
        expectEqual(*fromJson, *expectedJson);
        qInfo("%s: %zu ops to NHWC, %zu transposes, equal to Paddle's", qPrintable(caseName),
            pass.switchedOps(), pass.insertedTransposes());
    }

    /// Unmarked float32 (read from JSON, as Paddle's run was): unchanged, except where a pool2d
    /// prefers NHWC on its own.
    void unmarkedMatchesPaddle_data() { matchesPaddle_data(); }
    void unmarkedMatchesPaddle()
    {
        QFETCH(QString, caseName);
        const bool changed
            = layoutManifest()["cases"].toObject()[caseName].toObject()["unmarked_changed"].toBool();
        auto program = passgolden::load(sourceOf(caseName, ".json"));
        auto expected = passgolden::load(
            changed ? kDir + "/" + caseName + ".unmarked.after.json" : sourceOf(caseName, ".json"));
        QVERIFY(program && expected);
        QCOMPARE(TransferLayoutPass().run(*program) > 0, changed);
        passgolden::keepSerializedAttributes(*program);
        expectEqual(*program, *expected);
    }

    void samples_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char *s : passgolden::kSamples)
            QTest::newRow(s) << QString(s);
    }

    void samples()
    {
        QFETCH(QString, sample);
        const QString path = passgolden::samplePath(sample);
        if (path.isEmpty())
            QSKIP("sample not found under ../shared/samples/json");
        const QJsonObject record = layoutManifest()["samples"].toObject()[sample].toObject();
        QVERIFY(!record.isEmpty());
        auto program = passgolden::load(path);
        QVERIFY(program);
        QCOMPARE(TransferLayoutPass().run(*program) > 0, record["changed"].toBool());
        QCOMPARE(passgolden::describeCounts(passgolden::topLevelCounts(*program)),
            passgolden::describeCounts(passgolden::manifestCounts(record["ops"].toObject())));
        QCOMPARE(passgolden::structureHash(*program), record["structure"].toString());
    }

    /// The program after the pass computes what the program before did, on the CPU oracle: the
    /// NHWC fused convolutions (filter [out, kh, kw, in]) and pool2d, the transposes, and every
    /// value that moved to NHWC compared with its NCHW self.
    void numericsUnchanged_data() { matchesPaddle_data(); }
    void numericsUnchanged()
    {
        QFETCH(QString, caseName);
        auto program = passgolden::load(sourceOf(caseName, ".txt"));
        QVERIFY(program);
        mark(*program);
        std::unique_ptr<Backend> cpu = createCpuBackend();
        auto store = std::make_shared<ParameterStore>();
        std::string error;
        QVERIFY2(store->load(*program, TensorSource::random(3), error), error.c_str());
        PassNumericsCheck::Options options;
        options.inputs = TensorSource::random(5);
        options.dynamicDim = 8;
        auto check = std::make_shared<PassNumericsCheck>(*cpu, store, options);
        PassManager pm;
        pm.addPass(std::make_unique<TransferLayoutPass>());
        pm.addInstrumentation(check);
        pm.run(*program);
        QVERIFY2(check->baselineError().empty(), check->baselineError().c_str());
        QCOMPARE(check->results().size(), size_t(1));
        const PassNumerics &n = check->results()[0];
        QVERIFY2(n.checked && n.skipped.empty(), n.skipped.c_str());
        QVERIFY2(n.ok,
            qPrintable(
                QString("worst %1: max abs %2").arg(QString::fromStdString(n.worstValue)).arg(n.maxAbs)));
        QVERIFY(n.valuesCompared > n.outputs.size()); // the between_ programs fetch nothing
        qInfo("%s: %zu values compared, max abs %g, max rel %g", qPrintable(caseName), n.valuesCompared,
            n.maxAbs, n.maxRel);
    }

    /// Ops missing the operands or results their rules name (a damaged file) are taken as they
    /// are, without reading past their ends.
    void opsWithoutOperands()
    {
        const char *text = "{\n"
                           "    (%0) = \"pd_op.reshape\" () {stop_gradient:[true]} : () -> tensor<1x8x1x1xf32>\n"
                           "    () = \"pd_op.group_norm\" () {data_format:\"NCHW\",groups:2} : () -> \n"
                           "    (%1) = \"pd_op.pool2d\" () {data_format:\"NCHW\",pooling_type:\"max\"} : () -> "
                           "tensor<1x8x1x1xf32>\n"
                           "}\n";
        LoadResult r = PirTextReader::readString(text, "damaged");
        QVERIFY2(r.ok(), r.diagnostics.toString().c_str());
        QCOMPARE(TransferLayoutPass().run(*r.program), size_t(0));
    }

    /// Float16 (from Paddle's PreferLayoutImpl<FusedConv2dAddActOp>, which the CPU build cannot
    /// run): aligned channels go NHWC with four transposes; 12 channels or float32 stay.
    void float16AlignedChannels()
    {
        auto program = halfConv(8);
        QVERIFY(program);
        TransferLayoutPass pass;
        QCOMPARE(pass.run(*program), size_t(4));
        QCOMPARE(pass.switchedOps(), size_t(1));
        QCOMPARE(pass.insertedTransposes(), size_t(3));
        QCOMPARE(passgolden::countOf(*program, "pd_op.transpose"), 3);
        const Operation *conv = nullptr;
        for (const Operation *op : program->block().ops())
            if (op->name() == "pd_op.fused_conv2d_add_act")
                conv = op;
        QVERIFY(conv);
        QCOMPARE(conv->stringAttribute("data_format"), std::string("NHWC"));
        QCOMPARE(conv->result(0).type().dims(), (std::vector<int64_t> { 1, 6, 6, 8 }));
        QCOMPARE(conv->result(0).type().layout(), std::string("NHWC"));
        QCOMPARE(conv->operand(0).definingOp()->name(), std::string_view("pd_op.transpose"));

        auto unaligned = halfConv(12);
        QVERIFY(unaligned);
        QCOMPARE(TransferLayoutPass().run(*unaligned), size_t(0));
        auto single = halfConv(8, "f32");
        QVERIFY(single);
        QCOMPARE(TransferLayoutPass().run(*single), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestTransferLayoutPass)
#include "tst_transferlayoutpass.moc"
