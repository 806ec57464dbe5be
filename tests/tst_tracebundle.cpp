#include "core/io/pirtextreader.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/bundleprograms.h"
#include "core/transform/nestsequence.h"
#include "core/transform/partialprogram.h"
#include "core/transform/programroles.h"

#include <QDir>
#include <QtTest>

using namespace ps;

namespace {

const char *const kModels[] = { "mlp_ce", "lenet", "conv_bn_relu", "transformer_encoder", "inplace_chain",
    "pruned_param", "nested_output", "control_flow", "control_flow_if", "embedding_mean" };

QString bundleDir(const QString &model)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + model;
}

std::unique_ptr<Program> readText(const char *text)
{
    LoadResult r = PirTextReader::readString(text, "test.txt");
    return r.ok() ? std::move(r.program) : nullptr;
}

QString names(const std::vector<Value> &values)
{
    QStringList out;
    for (const Value &v : values)
        out << (v && v.definingOp() ? QString::fromUtf8(v.definingOp()->name().data())
                                    : QStringLiteral("null"));
    return out.join(QLatin1Char(','));
}

/// x (no gradient) and a trainable w → matmul → relu → fetch.
const char kTrainable[] = R"({
    (%0) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4x3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%2) = "pd_op.matmul" (%1, %0) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.relu" (%2) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"out",persistable:[true]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
)";

/// The same with every value stop_gradient and no fetch: nothing to differentiate.
const char kFrozen[] = R"({
    (%0) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[true],trainable:[false]} : () -> tensor<4x3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
    (%2) = "pd_op.matmul" (%1, %0) {stop_gradient:[true],transpose_x:false,transpose_y:false} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.relu" (%2) {stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
)";

} // namespace

/// ps::TraceBundle (manifest, origin program, roles, layer, Paddle's train program) on the golden
/// bundles and on broken manifests, and ps::ProgramRoles on plain programs.
class TestTraceBundle : public QObject
{
    Q_OBJECT

private slots:
    void opensBundles_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("byManifest");
        for (const char *m : kModels) {
            QTest::addRow("%s/folder", m) << QString::fromLatin1(m) << false;
            QTest::addRow("%s/manifest", m) << QString::fromLatin1(m) << true;
        }
    }

    /// Every golden bundle opens by its folder and by its manifest, its files exist, its
    /// origin program loads from program.json, the manifest's roles resolve and the layer runs.
    void opensBundles()
    {
        QFETCH(QString, model);
        QFETCH(bool, byManifest);
        const QString dir = bundleDir(model);
        if (!QFileInfo::exists(dir + "/manifest.json"))
            QSKIP("golden bundle missing");
        const QString path = byManifest ? dir + "/manifest.json" : dir;
        QVERIFY(TraceBundle::isBundlePath(path.toStdString()));
        DiagnosticList d;
        std::unique_ptr<TraceBundle> b = TraceBundle::open(path.toStdString(), d);
        QVERIFY2(b, d.toString().c_str());
        QVERIFY(d.empty());
        QCOMPARE(QString::fromStdString(b->name()), model);
        QCOMPARE(b->paddleVersion(), std::string("3.3.1"));
        QVERIFY(b->flavour() == PipelineFlavour::Newest);
        QVERIFY(b->training());
        QCOMPARE(b->fakeValueName(), std::string("Fake_var"));
        QVERIFY(QFileInfo(QString::fromStdString(b->dir())) == QFileInfo(dir));
        QVERIFY(!b->inputs().empty());
        QVERIFY(!b->outputs().empty());
        QVERIFY(b->trainNames().has_value());
        QCOMPARE(b->trainNames()->out.size(), b->outputs().size());
        QVERIFY(b->forwardRange() && b->backwardRange());
        for (const TraceBundle::Tensor &t : b->inputs())
            QVERIFY2(QFileInfo::exists(QString::fromStdString(b->filePath(t.file))), t.file.c_str());
        for (const TraceBundle::Tensor &t : b->parameters()) {
            QVERIFY(QFileInfo::exists(QString::fromStdString(b->filePath(t.file))));
            if (!t.gradFile.empty())
                QVERIFY(QFileInfo::exists(QString::fromStdString(b->filePath(t.gradFile))));
        }
        for (const TraceBundle::Output &o : b->outputs())
            QVERIFY(QFileInfo::exists(QString::fromStdString(b->filePath(o.file))));
        QVERIFY(!b->outputGradFiles().empty());
        QCOMPARE(b->files().at("program_json"), std::string("program.json"));

        LoadResult origin = b->loadOrigin();
        QVERIFY2(origin.ok(), origin.diagnostics.toString().c_str());
        QVERIFY(origin.format == LoadResult::Format::PirJson);
        std::optional<ProgramRoles> roles
            = BundlePrograms::roles(*b, *origin.program, b->filePath("program.json"), d);
        QVERIFY2(roles, d.toString().c_str());
        QCOMPARE(roles->inputValues().size(), b->inputs().size());
        QCOMPARE(NestSequence(roles->outputs).size(), b->outputs().size());
        QCOMPARE(roles->parameters.size(), b->trainNames()->param.size());
        for (size_t i = 0; i < b->outputs().size(); ++i)
            QCOMPARE(std::string(NestSequence(roles->outputs).varList()[i].definingOp()->name()),
                b->outputs()[i].opName);

        std::unique_ptr<PartialProgramLayer> layer = BundlePrograms::makeLayer(*b, d);
        QVERIFY2(layer, d.toString().c_str());
        const PipelineResult r = layer->snapshot(true);
        QVERIFY2(r.ok(), r.diagnostics.empty() ? "" : r.diagnostics.front().c_str());
        QVERIFY(r.backward->numOps() > 0);

        std::optional<RunnableProgram> train = BundlePrograms::paddleTrainProgram(*b, d);
        QVERIFY2(train, d.toString().c_str());
        QCOMPARE(train->forwardRange(), *b->forwardRange());
        QCOMPARE(train->names().x, b->trainNames()->x);
        for (const Value &v : train->outValues())
            QVERIFY(!v.isNull());
    }

    /// nested_output's structure: a dict with a list, a tuple holding a dict with a constant,
    /// and the input itself; the repeated tensor appears once in the NestSequence.
    void nestedOutputStructure()
    {
        const QString dir = bundleDir("nested_output");
        if (!QFileInfo::exists(dir + "/manifest.json"))
            QSKIP("golden bundle missing");
        DiagnosticList d;
        auto b = TraceBundle::open(dir.toStdString(), d);
        QVERIFY(b);
        const TraceBundle::OutputNode &root = b->outputStructure();
        QVERIFY(root.kind == TraceBundle::OutputNode::Kind::Dict);
        QCOMPARE(root.keys, std::vector<std::string>({ "hidden", "extra", "input" }));
        const TraceBundle::OutputNode &extra = root.items[1];
        QVERIFY(extra.kind == TraceBundle::OutputNode::Kind::Tuple);
        QCOMPARE(extra.items[1].items[1].constant, std::string("3"));
        QVERIFY(root.items[0].items[1].duplicate);
        LoadResult origin = b->loadOrigin(TraceBundle::ProgramSource::Text);
        QVERIFY(origin.ok());
        auto roles = BundlePrograms::roles(*b, *origin.program, b->filePath("program.txt"), d);
        QVERIFY(roles);
        const NestSequence outputs(roles->outputs);
        QCOMPARE(outputs.size(), size_t(4));
        QCOMPARE(outputs.flatten().size(), size_t(6));
        QCOMPARE(outputs.duplicates().size(), size_t(1));
    }

    void brokenManifest_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("where");
        QTest::addRow("not json") << QByteArray("{\"inputs\": [") << QStringLiteral("not valid JSON");
        QTest::addRow("not an object") << QByteArray("[1, 2]") << QStringLiteral("expected an object");
        QTest::addRow("inputs missing")
            << QByteArray("{\"outputs\": []}") << QStringLiteral("at inputs: error: missing");
        QTest::addRow("inputs not a list") << QByteArray("{\"inputs\": 3, \"outputs\": []}")
                                           << QStringLiteral("at inputs: error: expected an array");
        QTest::addRow("input without name") << QByteArray("{\"inputs\": [{\"shape\": [2]}], \"outputs\": []}")
                                            << QStringLiteral("at inputs[0].name: error: missing");
        QTest::addRow("shape of strings")
            << QByteArray("{\"inputs\": [{\"name\": \"x\", \"shape\": [2, \"a\"]}], \"outputs\": []}")
            << QStringLiteral("at inputs[0].shape[1]: error: expected an integer");
        QTest::addRow("op index") << QByteArray(
            "{\"inputs\": [], \"outputs\": [{\"defined_by\": {\"op_index\": \"x\", \"result_index\": 0}}]}")
                                  << QStringLiteral("at outputs[0].defined_by.op_index: error: expected a "
                                                    "non-negative integer");
        QTest::addRow("structure index")
            << QByteArray(
                   "{\"inputs\": [], \"outputs\": [], \"output_structure\": {\"kind\": \"list\", \"items\": "
                   "[{\"kind\": \"tensor\", \"index\": 4}]}}")
            << QStringLiteral("at output_structure.items[0].index: error: output 4 does not exist");
        QTest::addRow("structure kind")
            << QByteArray("{\"inputs\": [], \"outputs\": [], \"output_structure\": {\"kind\": \"set\"}}")
            << QStringLiteral("at output_structure.kind: error: unknown kind 'set'");
        QTest::addRow("train names") << QByteArray(
            "{\"inputs\": [], \"outputs\": [], \"train_names\": {\"x\": [\"a\", 1]}}")
                                     << QStringLiteral("at train_names.x[1]: error: expected a string");
        QTest::addRow("range") << QByteArray("{\"inputs\": [], \"outputs\": [], \"forward_range\": [3, 1]}")
                               << QStringLiteral("at forward_range: error: the range ends before it begins");
        QTest::addRow("flavour") << QByteArray(
            "{\"inputs\": [], \"outputs\": [], \"pipeline_flavour\": \"2.6\"}")
                                 << QStringLiteral("at pipeline_flavour: error: unknown flavour '2.6'");
    }

    /// A malformed manifest is refused with an error naming the file and the JSON path.
    void brokenManifest()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, where);
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("manifest.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
        f.close();
        DiagnosticList d;
        QVERIFY(!TraceBundle::open(dir.path().toStdString(), d));
        QVERIFY(d.hasErrors());
        const QString message = QString::fromStdString(d.firstError()->toString());
        QVERIFY2(message.startsWith(f.fileName()), qPrintable(message));
        QVERIFY2(message.contains(where), qPrintable(message));
    }

    void folderWithoutManifest()
    {
        QTemporaryDir dir;
        QVERIFY(!TraceBundle::isBundlePath(dir.path().toStdString()));
        DiagnosticList d;
        QVERIFY(!TraceBundle::open(dir.path().toStdString(), d));
        QVERIFY(QString::fromStdString(d.toString()).contains(QStringLiteral("no manifest.json")));
    }

    /// The manifest names a data op or an output op the program does not have: roles() says
    /// which manifest field is wrong and which program it looked in.
    void rolesMismatch()
    {
        const QString src = bundleDir("mlp_ce");
        if (!QFileInfo::exists(src + "/manifest.json"))
            QSKIP("golden bundle missing");
        QTemporaryDir dir;
        QVERIFY(QFile::copy(src + "/program.txt", dir.filePath(QStringLiteral("program.txt"))));
        // open() checks the .npy files the manifest names: the inputs and parameters go along,
        // the first input under the name the runner reads for 'nope'.
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("inputs"))
            && QDir(dir.path()).mkpath(QStringLiteral("params")));
        for (const QString &sub : { QStringLiteral("inputs"), QStringLiteral("params") })
            for (const QString &name : QDir(src + "/" + sub).entryList(QDir::Files))
                QVERIFY(QFile::copy(src + "/" + sub + "/" + name, dir.filePath(sub + "/" + name)));
        QFile in(src + "/manifest.json");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject m = QJsonDocument::fromJson(in.readAll()).object();
        QJsonArray inputs = m.value("inputs").toArray();
        QJsonObject first = inputs.at(0).toObject();
        QVERIFY(QFile::rename(
            dir.filePath(first.value("file").toString()), dir.filePath(QStringLiteral("inputs/nope.npy"))));
        first.insert("name", "nope");
        first.insert("file", "inputs/nope.npy");
        inputs.replace(0, first);
        m.insert("inputs", inputs);
        QJsonArray outputs = m.value("outputs").toArray();
        QJsonObject out = outputs.at(0).toObject();
        QJsonObject def = out.value("defined_by").toObject();
        def.insert("op_name", "pd_op.add");
        out.insert("defined_by", def);
        outputs.replace(0, out);
        m.insert("outputs", outputs);
        QFile f(dir.filePath(QStringLiteral("manifest.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(m).toJson());
        f.close();

        DiagnosticList d;
        auto b = TraceBundle::open(f.fileName().toStdString(), d);
        QVERIFY2(b, d.toString().c_str());
        QVERIFY(!BundlePrograms::makeLayer(*b, d)); // no program.json: program.txt is read
        const QString text = QString::fromStdString(d.toString());
        QVERIFY2(text.contains(QStringLiteral("manifest.json: at inputs[0].name: error: no pd_op.data named "
                                              "'nope' in program.txt")),
            qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("at outputs[0].defined_by.op_name: error: 'pd_op.add', but op 13 "
                                         "of program.txt is 'pd_op.mean'")),
            qPrintable(text));
        QVERIFY(!BundlePrograms::paddleTrainProgram(*b, d)); // train_program.txt was not copied
    }

    /// A plain program: inputs from pd_op.data, parameters from builtin.parameter, outputs from
    /// fetch; the layer differentiates the trainable parameter.
    void plainProgramRoles()
    {
        auto program = readText(kTrainable);
        QVERIFY(program);
        const ProgramRoles roles = ProgramRoles::ofProgram(*program);
        QCOMPARE(names(roles.inputValues()), QStringLiteral("pd_op.data"));
        QCOMPARE(names(roles.parameters), QStringLiteral("builtin.parameter"));
        QCOMPARE(names(roles.outputValues()), QStringLiteral("pd_op.relu"));
        QVERIFY(!roles.trainLayout);
        QVERIFY(roles.hasDifferentiable());
        std::unique_ptr<PartialProgramLayer> layer = roles.makeLayer(*program, PipelineFlavour::Newest);
        QCOMPARE(program->numOps(), size_t(5)); // the origin stays untouched
        const PipelineResult train = layer->snapshot(true);
        QVERIFY(train.ok());
        QCOMPARE(train.attributeNames[SplitKey::Fp], std::vector<std::string>({ "w" }));
        QCOMPARE(train.attributeNames[SplitKey::BpG].size(), size_t(1));
        QVERIFY(train.backward->numOps() > 1);
        const PipelineResult infer = layer->snapshot(false);
        QVERIFY(infer.ok());
        QCOMPARE(infer.backward->numOps(), size_t(0));
    }

    /// Nothing needs a gradient: the train pipeline still runs and its backward is empty; with
    /// no fetch or shadow_output the unused result is the output (when asked for).
    void plainProgramNothingToDifferentiate()
    {
        auto program = readText(kFrozen);
        QVERIFY(program);
        QVERIFY(ProgramRoles::ofProgram(*program).outputValues().empty());
        const ProgramRoles roles
            = ProgramRoles::ofProgram(*program, ProgramRoles::OutputFallback::UnusedResults);
        QCOMPARE(names(roles.outputValues()), QStringLiteral("pd_op.relu"));
        QCOMPARE(roles.notes.size(), size_t(1));
        QVERIFY(!roles.hasDifferentiable());
        const PipelineResult train = roles.makeLayer(*program, PipelineFlavour::Newest)->snapshot(true);
        QVERIFY(train.ok());
        size_t computeOps = 0;
        for (const Operation *op : train.backward->block().ops())
            computeOps += op->name() != "builtin.shadow_output" ? 1 : 0;
        QCOMPARE(computeOps, size_t(0));
    }

    /// A whole train program (grad_input_/grad_output_ shadow outputs) is recognised and used
    /// as the train program, with the ranges Paddle had.
    void plainTrainLayout()
    {
        const QString dir = bundleDir("mlp_ce");
        if (!QFileInfo::exists(dir + "/train_program.txt"))
            QSKIP("golden bundle missing");
        LoadResult loaded = PirTextReader::readFile((dir + "/train_program.txt").toStdString());
        QVERIFY(loaded.ok());
        const ProgramRoles roles = ProgramRoles::ofProgram(*loaded.program);
        QVERIFY(roles.trainLayout);
        QCOMPARE(roles.seeds.size(), size_t(1));
        QCOMPARE(roles.grads.size(), size_t(5));
        bool train = false;
        RunnableProgram rp = ProgramRoles::runnable(loaded.program->clone(), PipelineFlavour::Newest, &train);
        QVERIFY(train);
        QCOMPARE(rp.forwardRange(), (OpRange { 0, 15 }));
        QCOMPARE(rp.backwardRange(), (OpRange { 18, 25 }));
        QCOMPARE(rp.names().paramGrad.size(), size_t(4));
        const PipelineResult r = roles.makeLayer(*loaded.program, PipelineFlavour::Newest)->snapshot(true);
        QVERIFY(r.ok());
        QCOMPARE(r.forwardRange, (OpRange { 0, 15 }));
    }
};

QTEST_GUILESS_MAIN(TestTraceBundle)
#include "tst_tracebundle.moc"
