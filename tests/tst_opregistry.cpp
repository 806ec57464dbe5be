#include "core/dialect/opregistry.h"

#include <QtTest>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <simdjson.h>
#include <string>
#include <thread>
#include <vector>

using namespace ps;

namespace {

const char *const kSamplesJsonDir = PIRSCOPE_SAMPLES_DIR "/json";

/// One op object of a serialized PIR program, reduced to what the registry describes.
struct SampleOp
{
    std::string fullName;
    size_t numOperands = 0;
    size_t numResults = 0;
    std::vector<std::string> attributes; ///< without struct_name / op_dist_attr / op_role
};

/// JSON op id ("1.conv2d", "0.combine", "2.yield", "p") to the full op name.
std::string fullOpName(std::string_view id)
{
    if (id == "p")
        return "builtin.parameter";
    static const std::pair<std::string_view, std::string_view> dialects[] = { { "0.", "builtin." },
        { "1.", "pd_op." }, { "2.", "cf." }, { "3.", "custom_op." }, { "4.", "dist_op." } };
    for (auto [prefix, dialect] : dialects) {
        if (id.substr(0, prefix.size()) == prefix)
            return std::string(dialect) + std::string(id.substr(prefix.size()));
    }
    return std::string(id);
}

bool isNonYamlAttribute(std::string_view name)
{
    return name == "struct_name" || name == "op_dist_attr" || name == "op_role";
}

void collectRegion(simdjson::dom::element region, std::vector<SampleOp> &out);

void collectOp(simdjson::dom::element op, std::vector<SampleOp> &out)
{
    SampleOp sample;
    sample.fullName = fullOpName(std::string_view(op["#"].get_string()));
    simdjson::dom::array operands;
    if (op["I"].get_array().get(operands) == simdjson::SUCCESS)
        sample.numOperands = operands.size();
    simdjson::dom::element results;
    if (op["O"].get(results) == simdjson::SUCCESS)
        sample.numResults = results.is_array() ? simdjson::dom::array(results).size() : 1;
    simdjson::dom::array attributes;
    if (sample.fullName != "builtin.parameter" && op["A"].get_array().get(attributes) == simdjson::SUCCESS) {
        for (simdjson::dom::element attribute : attributes) {
            std::string_view name = attribute["N"].get_string();
            if (!isNonYamlAttribute(name))
                sample.attributes.emplace_back(name);
        }
    }
    out.push_back(std::move(sample));
    simdjson::dom::array regions;
    if (op["regions"].get_array().get(regions) == simdjson::SUCCESS) {
        for (simdjson::dom::element region : regions)
            collectRegion(region, out);
    }
}

void collectRegion(simdjson::dom::element region, std::vector<SampleOp> &out)
{
    for (simdjson::dom::element block : region["blocks"].get_array()) {
        for (simdjson::dom::element op : block["ops"].get_array())
            collectOp(op, out);
    }
}

std::vector<SampleOp> loadSampleOps(const std::string &path)
{
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.load(path).get(doc) != simdjson::SUCCESS)
        return {};
    std::vector<SampleOp> ops;
    for (simdjson::dom::element region : doc["program"]["regions"].get_array())
        collectRegion(region, ops);
    return ops;
}

std::vector<std::string> sampleFiles()
{
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(kSamplesJsonDir, ec)) {
        if (entry.path().extension() == ".json")
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::pair<int, int>> pairs(const std::vector<OpIndexPair> &list)
{
    std::vector<std::pair<int, int>> result;
    for (const OpIndexPair &p : list)
        result.emplace_back(p.output, p.input);
    return result;
}

const OpInputInfo *findInput(const OpInfo *info, std::string_view name)
{
    for (int i = 0; i < info->numInputs; ++i) {
        if (info->inputs[i].name == name)
            return &info->inputs[i];
    }
    return nullptr;
}

QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// Inplace maps of Paddle's op YAML: op name -> "input->output" pairs, read line by line from
/// the YAML files the registry is generated from (tools/gen_op_registry.py YAML_FILES), then
/// tools/paddle_3_3_1_ops.yaml, whose maps replace or add to them.
std::map<QString, QStringList> yamlInplaceMaps(const QString &yamlDir)
{
    const QStringList files { yamlDir + "/paddle__phi__ops__yaml__ops.yaml",
        yamlDir + "/paddle__phi__ops__yaml__backward.yaml",
        yamlDir + "/paddle__phi__ops__yaml__fused_ops.yaml",
        yamlDir + "/paddle__phi__ops__yaml__fused_backward.yaml",
        yamlDir + "/paddle__phi__ops__yaml__inconsistent__static_ops.yaml",
        yamlDir + "/paddle__phi__ops__yaml__inconsistent__static_backward.yaml",
        yamlDir + "/paddle__phi__ops__yaml__inconsistent__update_ops.yaml",
        QStringLiteral(PIRSCOPE_SOURCE_DIR "/tools/paddle_3_3_1_ops.yaml") };
    const QRegularExpression entry(QStringLiteral("^- (?:backward_op|op) *: *(\\S+)"));
    const QRegularExpression inplace(QStringLiteral("^ +inplace *: *(.*)$"));
    const QRegularExpression pair(QStringLiteral("(\\w+) *-> *(\\w+)"));
    std::map<QString, QStringList> maps;
    for (const QString &path : files) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QString op;
        for (const QString &line : QString::fromUtf8(f.readAll()).split('\n')) {
            if (const auto m = entry.match(line); m.hasMatch()) {
                op = m.captured(1);
            } else if (const auto m = inplace.match(line); m.hasMatch() && !op.isEmpty()) {
                QStringList pairs;
                for (auto it = pair.globalMatch(m.captured(1)); it.hasNext();) {
                    const auto p = it.next();
                    pairs << p.captured(1) + "->" + p.captured(2);
                }
                pairs.sort();
                maps[op] = pairs;
            }
        }
    }
    return maps;
}

/// "input->output" pairs of a registry op's inplace map.
QStringList registryPairs(const OpInfo *info)
{
    QStringList out;
    for (int i = 0; i < info->numInplace; ++i)
        out << q(info->inputs[info->inplace[i].input].name) + "->"
                + q(info->outputs[info->inplace[i].output].name);
    out.sort();
    return out;
}

} // namespace

/// The op registry generated from Paddle's op YAML, checked against real PIR programs.
class TestOpRegistry : public QObject
{
    Q_OBJECT

private slots:
    void sampleOps_data()
    {
        QTest::addColumn<QString>("path");
        const std::vector<std::string> files = sampleFiles();
        if (files.empty())
            QSKIP("no sample programs in " PIRSCOPE_SAMPLES_DIR "/json");
        for (const std::string &file : files)
            QTest::newRow(std::filesystem::path(file).filename().string().c_str())
                << QString::fromStdString(file);
    }

    /// Every op of every sample is registered; every pd_op op has the registry's operand count
    /// (inputs + mutable attributes), result count and non-mutable attribute names in order.
    void sampleOps()
    {
        QFETCH(QString, path);
        const std::vector<SampleOp> ops = loadSampleOps(path.toStdString());
        QVERIFY2(!ops.empty(), qPrintable("cannot read " + path));
        const OpRegistry &registry = OpRegistry::instance();
        int checked = 0;
        for (const SampleOp &op : ops) {
            const OpInfo *info = registry.lookup(op.fullName);
            QVERIFY2(info, qPrintable(QString::fromStdString(op.fullName) + " is not registered"));
            if (op.fullName.rfind("pd_op.", 0) != 0)
                continue;
            const QString what = QString::fromStdString(op.fullName);
            if (!info->variadicOperands)
                QVERIFY2(op.numOperands == size_t(info->numInputs), qPrintable(what + ": operand count"));
            if (!info->variadicResults)
                QVERIFY2(op.numResults == size_t(info->numOutputs), qPrintable(what + ": result count"));
            std::vector<std::string> expected;
            for (int i = 0; i < info->numAttributes; ++i)
                expected.emplace_back(info->attributes[i].name);
            QVERIFY2(op.attributes == expected, qPrintable(what + ": attribute names"));
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    void attributeNamesAreUniquePerOp()
    {
        // The text reader finds an attribute's registry type by name, starting after the
        // previous match: that needs each name once per op.
        for (const OpInfo *op : OpRegistry::instance().all()) {
            std::set<std::string_view> names;
            for (int i = 0; i < op->numAttributes; ++i)
                QVERIFY2(names.insert(op->attributes[i].name).second, std::string(op->name).c_str());
        }
    }

    void distinctSampleOpsAreRegistered()
    {
        const std::vector<std::string> files = sampleFiles();
        if (files.empty())
            QSKIP("no sample programs in " PIRSCOPE_SAMPLES_DIR "/json");
        std::set<std::string> names;
        for (const std::string &file : files) {
            for (const SampleOp &op : loadSampleOps(file))
                names.insert(op.fullName);
        }
        QVERIFY(names.size() >= 50);
        QVERIFY(names.count("builtin.parameter"));
        QVERIFY(names.count("builtin.combine"));
        QVERIFY(names.count("pd_op.batch_norm_"));
        for (const std::string &name : names)
            QVERIFY2(OpRegistry::instance().lookup(name), name.c_str());
    }

    void inplaceInfo_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QList<int>>("flat"); // output, input, output, input, ...
        QTest::newRow("batch_norm_") << "pd_op.batch_norm_" << QList<int> { 1, 1, 2, 2 };
        QTest::newRow("batch_norm") << "pd_op.batch_norm" << QList<int> {};
        QTest::newRow("relu_") << "pd_op.relu_" << QList<int> { 0, 0 };
        QTest::newRow("relu") << "pd_op.relu" << QList<int> {};
        QTest::newRow("add_") << "pd_op.add_" << QList<int> { 0, 0 };
        QTest::newRow("reshape_") << "pd_op.reshape_" << QList<int> { 0, 0 };
        QTest::newRow("assign_value_") << "pd_op.assign_value_" << QList<int> { 0, 0 };
        QTest::newRow("increment_") << "pd_op.increment_" << QList<int> { 0, 0 };
        QTest::newRow("assign_out_") << "pd_op.assign_out_" << QList<int> { 0, 1 };
        QTest::newRow("array_write_") << "pd_op.array_write_" << QList<int> { 0, 0 };
        QTest::newRow("set_value_") << "pd_op.set_value_" << QList<int> { 0, 0 };
        QTest::newRow("add_n_ (trait, no map)") << "pd_op.add_n_" << QList<int> {};
        QTest::newRow("assign_array_ (no trait)") << "pd_op.assign_array_" << QList<int> {};
        QTest::newRow("cross_entropy_with_softmax_")
            << "pd_op.cross_entropy_with_softmax_" << QList<int> { 0, 0 };
        QTest::newRow("unknown") << "pd_op.no_such_op_" << QList<int> {};
    }

    void inplaceInfo()
    {
        QFETCH(QString, op);
        QFETCH(QList<int>, flat);
        std::vector<std::pair<int, int>> expected;
        for (qsizetype i = 0; i + 1 < flat.size(); i += 2)
            expected.emplace_back(flat[i], flat[i + 1]);
        const auto actual = pairs(OpRegistry::instance().inplaceInfo(op.toStdString()));
        QCOMPARE(actual, expected);
    }

    void batchNormInplaceVariant()
    {
        const OpInfo *info = OpRegistry::instance().lookup("pd_op.batch_norm_");
        QVERIFY(info);
        QVERIFY(info->inplaceTrait);
        QCOMPARE(info->numInplace, 0);
        QCOMPARE(info->numView, 2);
        QCOMPARE(info->numInputs, 5);
        QCOMPARE(info->numOutputs, 6);
        QCOMPARE(q(info->outputs[1].name), QString("mean_out"));
        QCOMPARE(q(info->inputs[info->view[0].input].name), QString("mean"));
        QVERIFY(info->outputs[5].optional); // reserve_space
        QCOMPARE(q(info->backward), QString("pd_op.batch_norm_grad"));
        const OpInfo *base = OpRegistry::instance().lookup("pd_op.batch_norm");
        QVERIFY(base);
        QVERIFY(!base->inplaceTrait);
        QCOMPARE(base->numView, 0);
    }

    void backwardLinks()
    {
        const OpRegistry &registry = OpRegistry::instance();
        const OpInfo *matmul = registry.lookup("pd_op.matmul");
        QVERIFY(matmul);
        QCOMPARE(q(matmul->backward), QString("pd_op.matmul_grad"));
        QVERIFY(!matmul->isBackward);
        const OpInfo *grad = registry.lookup("pd_op.matmul_grad");
        QVERIFY(grad);
        QVERIFY(grad->isBackward);
        QCOMPARE(q(grad->forward), QString("pd_op.matmul"));
        QCOMPARE(grad->numInputs, 3);
        QCOMPARE(grad->numOutputs, 2);
    }

    void conv2dGradHasNoOptionalInputs()
    {
        const OpInfo *info = OpRegistry::instance().lookup("pd_op.conv2d_grad");
        QVERIFY(info);
        QCOMPARE(info->numInputs, 3);
        for (int i = 0; i < info->numInputs; ++i)
            QVERIFY2(!info->inputs[i].optional, info->inputs[i].name.data());
    }

    void noNeedBuffer_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("input");
        QTest::addColumn<bool>("noNeedBuffer");
        QTest::newRow("reshape_grad x") << "pd_op.reshape_grad"
                                        << "x" << true;
        QTest::newRow("reshape_grad out_grad") << "pd_op.reshape_grad"
                                               << "out_grad" << false;
        QTest::newRow("add_grad x") << "pd_op.add_grad"
                                    << "x" << true;
        QTest::newRow("add_grad y") << "pd_op.add_grad"
                                    << "y" << true;
        QTest::newRow("add_grad out_grad") << "pd_op.add_grad"
                                           << "out_grad" << false;
        QTest::newRow("slice_grad input") << "pd_op.slice_grad"
                                          << "input" << true;
        QTest::newRow("layer_norm_grad bias") << "pd_op.layer_norm_grad"
                                              << "bias" << true;
        QTest::newRow("layer_norm_grad x") << "pd_op.layer_norm_grad"
                                           << "x" << false;
        QTest::newRow("matmul_grad x") << "pd_op.matmul_grad"
                                       << "x" << false;
    }

    void noNeedBuffer()
    {
        QFETCH(QString, op);
        QFETCH(QString, input);
        QFETCH(bool, noNeedBuffer);
        const OpInfo *info = OpRegistry::instance().lookup(op.toStdString());
        QVERIFY(info);
        const OpInputInfo *in = findInput(info, input.toStdString());
        QVERIFY(in);
        QCOMPARE(in->noNeedBuffer, noNeedBuffer);
    }

    void mutableAttributesAreOperands_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QStringList>("operands");
        QTest::addColumn<QStringList>("attributes");
        QTest::newRow("reshape") << "pd_op.reshape" << QStringList { "x", "shape" } << QStringList {};
        QTest::newRow("slice") << "pd_op.slice" << QStringList { "input", "starts", "ends" }
                               << QStringList { "axes", "infer_flags", "decrease_axis" };
        QTest::newRow("split") << "pd_op.split" << QStringList { "x", "sections", "axis" } << QStringList {};
        QTest::newRow("full keeps attributes")
            << "pd_op.full" << QStringList {} << QStringList { "shape", "value", "dtype", "place" };
        QTest::newRow("pow ignores its scalar") << "pd_op.pow" << QStringList { "x" } << QStringList { "y" };
        QTest::newRow("scale_grad uses scale's entry")
            << "pd_op.scale_grad" << QStringList { "out_grad", "scale" } << QStringList {};
        QTest::newRow("squeeze_grad uses squeeze's entry")
            << "pd_op.squeeze_grad" << QStringList { "x", "out_grad", "axis" } << QStringList {};
        QTest::newRow("scale") << "pd_op.scale" << QStringList { "x", "scale" }
                               << QStringList { "bias", "bias_after_scale" };
        QTest::newRow("fetch") << "pd_op.fetch" << QStringList { "x" } << QStringList { "name", "col" };
        QTest::newRow("data") << "pd_op.data" << QStringList {}
                              << QStringList { "name", "shape", "dtype", "place" };
    }

    void mutableAttributesAreOperands()
    {
        QFETCH(QString, op);
        QFETCH(QStringList, operands);
        QFETCH(QStringList, attributes);
        const OpInfo *info = OpRegistry::instance().lookup(op.toStdString());
        QVERIFY(info);
        QStringList actualOperands;
        for (int i = 0; i < info->numInputs; ++i)
            actualOperands << q(info->inputs[i].name);
        QStringList actualAttributes;
        for (int i = 0; i < info->numAttributes; ++i)
            actualAttributes << q(info->attributes[i].name);
        QCOMPARE(actualOperands, operands);
        QCOMPARE(actualAttributes, attributes);
        for (int i = 0; i < info->numInputs; ++i) {
            const bool isTensor = info->inputs[i].type.substr(0, 6) == "Tensor";
            QCOMPARE(info->inputs[i].mutableAttribute, !isTensor);
        }
    }

    void handWrittenOps_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<bool>("variadicOperands");
        QTest::addColumn<bool>("variadicResults");
        QTest::addColumn<int>("regions");
        QTest::newRow("builtin.module") << "builtin.module" << false << false << 1;
        QTest::newRow("builtin.combine") << "builtin.combine" << true << false << 0;
        QTest::newRow("builtin.split") << "builtin.split" << false << true << 0;
        QTest::newRow("builtin.slice") << "builtin.slice" << false << false << 0;
        QTest::newRow("builtin.shadow_output") << "builtin.shadow_output" << false << false << 0;
        QTest::newRow("builtin.set_parameter") << "builtin.set_parameter" << false << false << 0;
        QTest::newRow("builtin.get_parameter") << "builtin.get_parameter" << false << false << 0;
        QTest::newRow("builtin.constant") << "builtin.constant" << false << false << 0;
        QTest::newRow("builtin.group") << "builtin.group" << false << true << 1;
        QTest::newRow("cf.yield") << "cf.yield" << true << false << 0;
        QTest::newRow("cf.tuple_push") << "cf.tuple_push" << true << false << 0;
        QTest::newRow("cf.tuple_pop") << "cf.tuple_pop" << false << true << 0;
        QTest::newRow("cf.stack_create") << "cf.stack_create" << false << false << 0;
        QTest::newRow("cf.has_elements") << "cf.has_elements" << false << false << 0;
        QTest::newRow("pd_op.if") << "pd_op.if" << false << true << 2;
        QTest::newRow("pd_op.while") << "pd_op.while" << true << true << 1;
        QTest::newRow("pd_op.pylayer") << "pd_op.pylayer" << true << true << 1;
        QTest::newRow("pd_op.select_input") << "pd_op.select_input" << true << false << 0;
        QTest::newRow("pd_op.select_output") << "pd_op.select_output" << false << true << 0;
        QTest::newRow("pd_op.create_array") << "pd_op.create_array" << false << false << 0;
        QTest::newRow("pd_op.array_read") << "pd_op.array_read" << false << false << 0;
        QTest::newRow("pd_op.array_length") << "pd_op.array_length" << false << false << 0;
        QTest::newRow("pd_op.array_to_tensor") << "pd_op.array_to_tensor" << false << false << 0;
        QTest::newRow("pd_op.add_n_") << "pd_op.add_n_" << false << false << 0;
        QTest::newRow("pd_op.feed") << "pd_op.feed" << false << false << 0;
    }

    void handWrittenOps()
    {
        QFETCH(QString, op);
        QFETCH(bool, variadicOperands);
        QFETCH(bool, variadicResults);
        QFETCH(int, regions);
        const OpInfo *info = OpRegistry::instance().lookup(op.toStdString());
        QVERIFY(info);
        QCOMPARE(info->variadicOperands, variadicOperands);
        QCOMPARE(info->variadicResults, variadicResults);
        QCOMPARE(info->numRegions, regions);
        QVERIFY(!info->source.empty());
    }

    void builtinAttributes()
    {
        const OpRegistry &registry = OpRegistry::instance();
        const OpInfo *parameter = registry.lookup("builtin.parameter");
        QVERIFY(parameter);
        QCOMPARE(parameter->numAttributes, 1);
        QCOMPARE(q(parameter->attributes[0].name), QString("parameter_name"));
        QCOMPARE(parameter->numOutputs, 1);
        const OpInfo *shadow = registry.lookup("builtin.shadow_output");
        QVERIFY(shadow);
        QCOMPARE(q(shadow->attributes[0].name), QString("output_name"));
        QCOMPARE(shadow->numInputs, 1);
        QCOMPARE(shadow->numOutputs, 0);
    }

    void multiKernelOpsAreSplit()
    {
        // Ops whose kernel lists several functions become one PIR op per function.
        const OpRegistry &registry = OpRegistry::instance();
        QVERIFY(registry.lookup("pd_op.scale"));
        QVERIFY(registry.lookup("pd_op.scale_sr"));
        QVERIFY(registry.lookup("pd_op.scale_sr_"));
        QVERIFY(registry.lookup("pd_op.sparse_weight_embedding"));
        QVERIFY(registry.lookup("pd_op.embedding_sparse_grad"));
    }

    void unknownOp()
    {
        QCOMPARE(OpRegistry::instance().lookup("pd_op.no_such_op"), nullptr);
        QCOMPARE(OpRegistry::instance().lookup(""), nullptr);
        QCOMPARE(OpRegistry::instance().lookup("conv2d"), nullptr);
        QVERIFY(OpRegistry::instance().inplaceInfo("pd_op.no_such_op").empty());
    }

    /// Table-wide invariants: unique names, valid pair indices, size() == all().size().
    void tableIsConsistent()
    {
        const OpRegistry &registry = OpRegistry::instance();
        const std::vector<const OpInfo *> all = registry.all();
        QCOMPARE(all.size(), registry.size());
        QVERIFY(all.size() > 1300);
        std::set<std::string_view> names;
        int inplaceOps = 0;
        for (const OpInfo *info : all) {
            QVERIFY2(names.insert(info->name).second, info->name.data());
            QCOMPARE(registry.lookup(info->name), info);
            QVERIFY(info->numInputs >= 0 && info->numOutputs >= 0 && info->numAttributes >= 0);
            for (const OpIndexPair *list : { info->inplace, info->view }) {
                const int n = list == info->inplace ? info->numInplace : info->numView;
                for (int i = 0; i < n; ++i) {
                    QVERIFY(list[i].output >= 0 && list[i].output < info->numOutputs);
                    QVERIFY(list[i].input >= 0 && list[i].input < info->numInputs);
                }
            }
            if (info->inplaceTrait)
                ++inplaceOps;
            if (!info->inplaceTrait)
                QVERIFY2(registry.inplaceInfo(info->name).empty(), info->name.data());
        }
        QVERIFY(inplaceOps > 250);
    }

    void inplaceOpsAreThoseOfTheYaml()
    {
        // Every op the YAML gives an inplace map has its `_` variant with that map, compared
        // mechanically, so an op the generator drops (Paddle 3.3.1's silu_, dropout_,
        // trunc_divide_ once were) fails.
        const QString yamlDir = QStringLiteral(PIRSCOPE_SOURCE_DIR "/../shared/paddle_yaml");
        if (!QFileInfo::exists(yamlDir + "/paddle__phi__ops__yaml__ops.yaml"))
            QSKIP("../shared/paddle_yaml (Paddle's op YAML) is absent");
        const std::map<QString, QStringList> yaml = yamlInplaceMaps(yamlDir);
        QVERIFY(yaml.size() > 250);
        const OpRegistry &registry = OpRegistry::instance();
        QStringList missing, wrong;
        for (const auto &[name, pairs] : yaml) {
            const QString inplaceName = "pd_op." + name + (name.endsWith('_') ? "" : "_");
            const OpInfo *info = registry.lookup(inplaceName.toStdString());
            if (!info || !info->inplaceTrait)
                missing << inplaceName;
            else if (registryPairs(info) != pairs)
                wrong << inplaceName + ": " + registryPairs(info).join(',') + " vs " + pairs.join(',');
        }
        QVERIFY2(missing.isEmpty(), qPrintable("not in the registry: " + missing.join(' ')));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join("; ")));
        for (const char *op : { "pd_op.silu_", "pd_op.dropout_", "pd_op.trunc_divide_" })
            QVERIFY2(registry.lookup(op), op);
    }

    void inplaceOpsOfPaddle331()
    {
        // The inplace ops Paddle 3.3.1 exposes to Python (tests/fixtures/paddle_inplace_ops.txt,
        // tools/dump_paddle_inplace_ops.py) are in the registry, but for one whose signature could
        // not be read off Paddle (it refuses to build it): a new one found there fails here.
        QFile f(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle_inplace_ops.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList missing;
        int listed = 0;
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            ++listed;
            const OpInfo *info = OpRegistry::instance().lookup(line.toStdString());
            if (!info || !info->inplaceTrait || info->numInplace + info->numView == 0)
                missing << QString::fromUtf8(line);
        }
        QCOMPARE(listed, 235);
        QCOMPARE(missing, QStringList({ "pd_op.embedding_grad_add_to_" }));
    }

    void instanceIsSharedAcrossThreads()
    {
        std::atomic<const OpRegistry *> seen[4] = {};
        std::vector<std::thread> threads;
        for (auto &slot : seen)
            threads.emplace_back([&slot] { slot = &OpRegistry::instance(); });
        for (std::thread &thread : threads)
            thread.join();
        for (const auto &slot : seen)
            QCOMPARE(slot.load(), &OpRegistry::instance());
    }
};

QTEST_GUILESS_MAIN(TestOpRegistry)
#include "tst_opregistry.moc"
