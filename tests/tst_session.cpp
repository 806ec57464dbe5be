#include "core/io/pirtextreader.h"
#include "core/io/yamlreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/npyio.h"
#include "core/session/debugengine.h"
#include "core/session/debugsources.h"
#include "core/session/debugtarget.h"
#include "core/session/inferenceconfig.h"
#include "core/session/inputshapes.h"
#include "core/session/pipelinesource.h"
#include "dynamicinputs.h"

#include <QtTest>
#include <sys/stat.h>

using namespace ps;

namespace {

/// PyYAML's block style as PaddleX writes it, with the forms hand-written files add.
const char *const kConfig = R"(Global:
  model_name: demo # a comment
Hpi:
  backend_configs:
    paddle_infer:
      trt_dynamic_shapes: &id001
        x:
        - - 1
          - 3
          - 32
          - 32
        - - 1
          - 3
          - 736
          - 736
        - [8, 3, 4000, 4000]
    tensorrt:
      dynamic_shapes: *id001
PreProcess:
  transform_ops:
  - DecodeImage:
      img_mode: BGR
  - DetLabelEncode: null
  - DetResizeForTest:
      resize_long: 950
  - KeepKeys: {keep_keys: [image, 'shape'], "quoted key": 'it''s'}
note: |
  line one
  line two
)";

std::shared_ptr<const Program> parse(const char *text)
{
    LoadResult r = PirTextReader::readString(text, "dynamic.txt");
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

std::optional<YamlNode> yaml(const char *text, DiagnosticList &d)
{
    return YamlReader::parse(text, "t.yml", d);
}

const InputShape *find(const std::vector<InputShape> &shapes, const char *name)
{
    for (const InputShape &s : shapes)
        if (s.name == name)
            return &s;
    return nullptr;
}

QString samples(const char *file)
{
    return QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/") + QLatin1String(file);
}

using Dims = std::vector<int64_t>;

} // namespace

/// core/session: opening programs and bundles, the .yml reader and shape defaults, input
/// shapes, the sources and the debug engine without Qt.
class TestSession : public QObject
{
    Q_OBJECT

private slots:
    void yamlSubset()
    {
        DiagnosticList d;
        std::optional<YamlNode> root = yaml(kConfig, d);
        QVERIFY2(root, d.toString().c_str());
        QCOMPARE(root->find("Global")->find("model_name")->scalar, std::string("demo"));
        const YamlNode *trt = root->find("Hpi")->find("backend_configs")->find("paddle_infer");
        const YamlNode *x = trt->find("trt_dynamic_shapes")->find("x");
        QVERIFY(x && x->isSequence());
        QCOMPARE(x->items.size(), size_t(3));
        QCOMPARE(x->items[1].items[2].integer(), std::optional<int64_t>(736));
        QCOMPARE(x->items[2].items[0].integer(), std::optional<int64_t>(8)); // a flow sequence
        // The alias is a copy of the anchored node.
        const YamlNode *alias
            = root->find("Hpi")->find("backend_configs")->find("tensorrt")->find("dynamic_shapes");
        QCOMPARE(alias->find("x")->items[1].items[3].integer(), std::optional<int64_t>(736));
        const YamlNode *ops = root->find("PreProcess")->find("transform_ops");
        QCOMPARE(ops->items.size(), size_t(4)); // a sequence at its key's indentation
        QCOMPARE(ops->items[1].find("DetLabelEncode")->kind, YamlNode::Kind::Null);
        const YamlNode *keep = ops->items[3].find("KeepKeys");
        QCOMPARE(keep->find("keep_keys")->items[1].scalar, std::string("shape"));
        QVERIFY(keep->find("keep_keys")->items[1].quoted);
        QCOMPARE(keep->find("quoted key")->scalar, std::string("it's"));
        // Double-quoted escapes (a raw string with them would trip moc, so an escaped one here).
        DiagnosticList e;
        std::optional<YamlNode> escaped = yaml("k: \"a \\\"b\\\" \\u00e9\\n\"\n", e);
        QVERIFY2(escaped, e.toString().c_str());
        QCOMPARE(escaped->find("k")->scalar, std::string("a \"b\" \xC3\xA9\n"));
        QCOMPARE(root->find("note")->scalar, std::string("line one\nline two"));
        QVERIFY(!root->find("absent"));
        // A plain scalar with an apostrophe, a '#' inside quotes, a value after a comment.
        d = {};
        root = yaml("a: it's # comment\nb: '# not a comment'\n- c\n", d);
        QVERIFY(!root);
        QCOMPARE(d.firstError()->location.toString(), std::string("t.yml:3:1"));
        root = yaml("a: it's # comment\nb: '# kept'\n", d = {});
        QVERIFY(root);
        QCOMPARE(root->find("a")->scalar, std::string("it's"));
        QCOMPARE(root->find("b")->scalar, std::string("# kept"));
    }

    void yamlErrorsNameTheLine()
    {
        const std::pair<const char *, const char *> cases[] = {
            { "a:\n\tb: 1\n", "t.yml:2:1: error: a tab in the indentation" },
            { "a: *nothing\n", "t.yml:1:4: error: unknown alias '*nothing'" },
            { "a: \"open\n", "t.yml:1:4: error: an unterminated quoted scalar" },
            { "a: [1, 2\n", "t.yml:1:9: error: a flow collection that continues" },
            { "? complex\n", "t.yml:1:1: error: complex mapping keys" },
            { "a: !!str x\n", "t.yml:1:4: error: tags" },
            { "a: 1\n  b: 2\nc\n", "t.yml:3:1: error: expected 'key: value'" },
        };
        for (const auto &[text, message] : cases) {
            DiagnosticList d;
            QVERIFY2(!yaml(text, d), text);
            QVERIFY2(d.firstError()->toString().rfind(message, 0) == 0, d.firstError()->toString().c_str());
        }
        // Deep nesting is refused, not a stack overflow.
        std::string deep;
        for (int i = 0; i < 5000; ++i)
            deep += "- ";
        deep += "1\n";
        DiagnosticList d;
        QVERIFY(!YamlReader::parse(deep, "deep.yml", d));
        QVERIFY(d.firstError()->message.find("nesting deeper than") != std::string::npos);
    }

    void yamlFromSpecialFilesIsRefused()
    {
        // A .yml is read through InputFile: a FIFO or a device is named and refused at once.
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("x.yml")).toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        for (const std::string &path : { fifo, std::string("/dev/zero") }) {
            DiagnosticList d;
            QVERIFY(!YamlReader::read(path, d));
            QVERIFY2(d.toString().find(path) != std::string::npos, d.toString().c_str());
            QVERIFY2(d.toString().find("not a regular file") != std::string::npos, d.toString().c_str());
        }
    }

    void inferenceConfigShapes()
    {
        DiagnosticList d;
        const InferenceConfig c = InferenceConfig::fromYaml(*yaml(kConfig, d), "/m/inference.yml", d);
        QCOMPARE(c.modelName, std::string("demo"));
        QCOMPARE(c.dynamicShapes.size(), size_t(1));
        const InferenceConfig::ShapeRange &x = c.dynamicShapes.at("x");
        QCOMPARE(x.min, (Dims { 1, 3, 32, 32 }));
        QCOMPARE(x.opt, (Dims { 1, 3, 736, 736 }));
        QCOMPARE(x.max, (Dims { 8, 3, 4000, 4000 }));
        QCOMPARE(x.where, std::string("Hpi.backend_configs.paddle_infer.trt_dynamic_shapes.x"));
        // resize_long 950 rounds up to a multiple of 32, as DetResizeForTest does.
        QVERIFY(c.imageSize);
        QCOMPARE(c.imageSize->height, int64_t(960));
        QCOMPARE(c.imageSize->width, int64_t(960));
        QCOMPARE(c.imageSize->where, std::string("PreProcess.transform_ops[2].DetResizeForTest.resize_long"));

        // The other preprocessing spellings: PaddleDetection, PaddleOCR rec, PaddleClas.
        const std::pair<const char *, std::pair<int64_t, int64_t>> forms[] = {
            { "Preprocess:\n- type: Resize\n  target_size: [800, 608]\n- type: Permute\n", { 800, 608 } },
            { "PreProcess:\n  transform_ops:\n  - RecResizeImg:\n      image_shape: [3, 48, 320]\n",
                { 48, 320 } },
            { "PreProcess:\n  transform_ops:\n  - ResizeImage: {resize_short: 256}\n  - CropImage: {size: "
              "224}\n",
                { 224, 224 } },
            { "PreProcess:\n  transform_ops:\n  - ResizeImage:\n      size: [320, 240]\n", { 240, 320 } },
            { "Deploy:\n  transforms:\n  - type: Resize\n    target_size: 512\n", { 512, 512 } },
        };
        for (const auto &[text, size] : forms) {
            const InferenceConfig f = InferenceConfig::fromYaml(*yaml(text, d), "f.yml", d);
            QVERIFY2(f.imageSize, text);
            QCOMPARE(std::make_pair(f.imageSize->height, f.imageSize->width), size);
        }
        // A malformed shape range is skipped with a warning naming it.
        DiagnosticList w;
        const InferenceConfig bad = InferenceConfig::fromYaml(
            *yaml("trt_dynamic_shapes:\n  x: [[1, 3], [1, 3, 4]]\n", w), "b.yml", w);
        QVERIFY(bad.dynamicShapes.empty());
        QCOMPARE(w.size(), size_t(1));
        QVERIFY(w[0].message.find("trt_dynamic_shapes.x: expected [min, opt, max]") != std::string::npos);
    }

    void inferenceConfigOnTheSamples()
    {
        if (!QFileInfo::exists(samples("PP-OCRv5_mobile_det_infer.inference.yml")))
            QSKIP("../shared/samples is absent");
        struct Expected
        {
            const char *program;
            const char *input;
            Dims opt;
            std::pair<int64_t, int64_t> image;
        };
        const Expected expected[] = {
            { "PP-OCRv5_mobile_det_infer.inference.json", "x", { 1, 3, 736, 736 }, { 960, 960 } },
            { "PP-OCRv5_server_det.v3.inference.json", "x", { 1, 3, 736, 736 }, { 960, 960 } },
            { "PP-OCRv5_server_rec_infer.inference.json", "x", { 1, 3, 48, 320 }, { 48, 320 } },
            { "korean_PP-OCRv5_mobile_rec_infer.inference.json", "x", { 1, 3, 48, 320 }, { 48, 320 } },
            { "PP-DocLayout_plus-L.inference.json", "image", { 1, 3, 800, 800 }, { 800, 800 } },
        };
        for (const Expected &e : expected) {
            DiagnosticList d;
            const std::string path = samples(e.program).toStdString();
            QCOMPARE(
                InferenceConfig::fileNextTo(path), samples(e.program).replace(".json", ".yml").toStdString());
            std::shared_ptr<const InferenceConfig> c = InferenceConfig::nextTo(path, d);
            QVERIFY2(c, d.toString().c_str());
            QVERIFY2(d.empty(), d.toString().c_str());
            QCOMPARE(c->dynamicShapes.at(e.input).opt, e.opt);
            QVERIFY(c->imageSize);
            QCOMPARE(std::make_pair(c->imageSize->height, c->imageSize->width), e.image);
        }
        DiagnosticList d;
        auto docLayout
            = InferenceConfig::nextTo(samples("PP-DocLayout_plus-L.inference.json").toStdString(), d);
        QCOMPARE(docLayout->dynamicShapes.at("scale_factor").opt, (Dims { 1, 2 }));
        QVERIFY(!InferenceConfig::nextTo(samples("docs_pir_save_load_fc_example.v1.json").toStdString(), d));
    }

    void inputShapesNeverSilentlyOne()
    {
        auto program = parse(kDynamicInputs);
        QVERIFY(program);
        std::vector<std::string> errors;
        std::vector<InputShape> shapes = InputShapes::resolve(*program, {}, nullptr, errors);
        QVERIFY(errors.empty());
        QCOMPARE(shapes.size(), size_t(4));
        QCOMPARE(find(shapes, "x")->origin, InputShape::Origin::Unresolved);
        QVERIFY(find(shapes, "x")->imageLike);
        QCOMPARE(find(shapes, "x")->note, std::string("no .yml beside the program gives a default"));
        QCOMPARE(find(shapes, "ids")->origin, InputShape::Origin::Unresolved);
        QCOMPARE(find(shapes, "s")->origin, InputShape::Origin::Batch);
        QCOMPARE(find(shapes, "s")->shape, (Dims { 1, 2 }));
        QCOMPARE(find(shapes, "y")->origin, InputShape::Origin::Static);
        QCOMPARE(InputShapes::unresolvedText(shapes), std::string("x (?x3x?x?), ids (?x?)"));
        QCOMPARE(InputShapes::example(*find(shapes, "x")), std::string("x=1x3x640x640"));
        QCOMPARE(InputShapes::example(*find(shapes, "ids")), std::string("ids=1xN"));

        // The .yml: TensorRT's opt shape for x; the preprocessing size when it names no x.
        DiagnosticList d;
        const InferenceConfig config = InferenceConfig::fromYaml(*yaml(kConfig, d), "/m/model.yml", d);
        shapes = InputShapes::resolve(*program, {}, &config, errors);
        QCOMPARE(find(shapes, "x")->origin, InputShape::Origin::ConfigShapes);
        QCOMPARE(find(shapes, "x")->shape, (Dims { 1, 3, 736, 736 }));
        QCOMPARE(find(shapes, "x")->note,
            std::string(
                "model.yml: Hpi.backend_configs.paddle_infer.trt_dynamic_shapes.x (opt of min/opt/max)"));
        QCOMPARE(find(shapes, "ids")->note, std::string("model.yml gives no shape for it"));
        InferenceConfig preprocessOnly = config;
        preprocessOnly.dynamicShapes.clear();
        shapes = InputShapes::resolve(*program, {}, &preprocessOnly, errors);
        QCOMPARE(find(shapes, "x")->origin, InputShape::Origin::ConfigImage);
        QCOMPARE(find(shapes, "x")->shape, (Dims { 1, 3, 960, 960 }));

        // A chosen shape wins; bad ones are errors naming the input and why.
        shapes = InputShapes::resolve(
            *program, { { "x", { 2, 3, 64, 48 } }, { "ids", { 1, 7 } } }, &config, errors);
        QVERIFY(errors.empty());
        QCOMPARE(find(shapes, "x")->origin, InputShape::Origin::Chosen);
        QCOMPARE(find(shapes, "x")->shape, (Dims { 2, 3, 64, 48 }));
        QCOMPARE(find(shapes, "ids")->shape, (Dims { 1, 7 }));
        InputShapes::resolve(
            *program, { { "x", { 1, 4, 8, 8 } }, { "s", { 1, 2, 3 } }, { "z", { 1 } } }, nullptr, errors);
        QCOMPARE(errors.size(), size_t(3));
        QCOMPARE(errors[0], std::string("z: the program has no input of that name (inputs: x, ids, s, y)"));
        QCOMPARE(errors[1], std::string("x=1x4x8x8: dim 1 is 4, the input declares 3 (?x3x?x?)"));
        QCOMPARE(errors[2], std::string("s=1x2x3: rank 3, the input has rank 2 (?x2)"));

        std::string error;
        QCOMPARE(InputShapes::parseDims("1x3x640x640", error), std::optional<Dims>(Dims { 1, 3, 640, 640 }));
        QCOMPARE(InputShapes::parseDims("1,2", error), std::optional<Dims>(Dims { 1, 2 }));
        for (const char *bad : { "", "1x", "1x0", "1x-1", "ax2", "1x2x" })
            QVERIFY2(!InputShapes::parseDims(bad, error), bad);
        QVERIFY(error.find("not a shape") != std::string::npos);
        auto a = InputShapes::parseAssignment("x=1x3x8x8", error);
        QVERIFY(a);
        QCOMPARE(a->first, std::string("x"));
        QVERIFY(!InputShapes::parseAssignment("1x3x8x8", error));
        QCOMPARE(error, std::string("'1x3x8x8': expected NAME=DIMS such as x=1x3x640x640"));
    }

    void sourcesShapeTheRun()
    {
        auto program = parse(kDynamicInputs);
        DebugTarget target;
        target.program = program;
        DebugSources sources = DebugSources::defaultsFor(target);
        QCOMPARE(sources.inputs, DebugSources::Kind::Random);
        QCOMPARE(sources.params, DebugSources::Kind::Random);
        ProgramRunner::Options options;
        std::string error;
        // x and ids have no default: the run is refused, naming them.
        QVERIFY(!sources.applyTo(target, {}, options, error));
        QCOMPARE(error,
            std::string("inputs with dynamic dims need a shape: x (?x3x?x?), ids (?x?): no .yml beside the "
                        "program gives a default; choose a shape such as x=1x3x640x640"));
        sources.shapes = { { "x", { 1, 3, 8, 8 } }, { "ids", { 1, 5 } } };
        QVERIFY2(sources.applyTo(target, {}, options, error), error.c_str());
        QCOMPARE(options.inputShapes.size(), size_t(3)); // x, ids and the batch of s
        QCOMPARE(options.inputShapes.at("s"), (Dims { 1, 2 }));

        // Through the engine, as the GUI and the CLI run it: the tensors have the shapes.
        DebugEngine engine({});
        QVERIFY(engine.build(target, Device::cpu(), DebugSources::defaultsFor(target), false, 1)
                    .find("need a shape: x (?x3x?x?), ids (?x?)")
            != std::string::npos);
        QCOMPARE(engine.build(target, Device::cpu(), sources, false, 2), std::string());
        QVERIFY(engine.run(DebugEngine::Command::Continue, std::nullopt, 1));
        QCOMPARE(engine.snapshot().state, Interpreter::State::Finished);
        const Operation *relu = nullptr;
        for (const Operation *op : program->block().ops())
            if (op->name() == "pd_op.relu")
                relu = op;
        QCOMPARE(engine.hostValue(relu->result(0)).shape(), (Dims { 1, 3, 8, 8 }));
        QCOMPARE(engine.hostValue(relu->operand(0)).shape(), (Dims { 1, 3, 8, 8 }));

        // Files provide their shapes; a chosen shape is checked against them.
        QTemporaryDir dir;
        std::vector<double> values(2 * 3 * 4 * 5, 0.5);
        QVERIFY(NpyIO::write(dir.filePath("x.npy").toStdString(),
            Tensor::fromDoubles({ 2, 3, 4, 5 }, DataType::Float32, values), error));
        QVERIFY(NpyIO::write(dir.filePath("ids.npy").toStdString(),
            Tensor::fromDoubles({ 1, 2 }, DataType::Int64, std::vector<double> { 1, 2 }), error));
        QVERIFY(NpyIO::write(dir.filePath("s.npy").toStdString(),
            Tensor::fromDoubles({ 2, 2 }, DataType::Float32, std::vector<double> { 1, 2, 3, 4 }), error));
        QVERIFY(NpyIO::write(dir.filePath("y.npy").toStdString(),
            Tensor::fromDoubles({ 2, 3 }, DataType::Float32, std::vector<double> { 1, 2, 3, 4, 5, 6 }),
            error));
        DebugSources files = DebugSources::defaultsFor(target);
        QVERIFY(files.setFromText(false, dir.path().toStdString(), error));
        QCOMPARE(files.inputs, DebugSources::Kind::NpyDirectory);
        std::vector<std::string> errors;
        const std::vector<InputShape> shapes = files.inputShapes(target, errors);
        QCOMPARE(find(shapes, "x")->origin, InputShape::Origin::Files);
        QCOMPARE(find(shapes, "s")->origin, InputShape::Origin::Files);
        QCOMPARE(engine.build(target, Device::cpu(), files, false, 3), std::string());
        QVERIFY(engine.run(DebugEngine::Command::Continue, std::nullopt, 2));
        QCOMPARE(engine.hostValue(relu->result(0)).shape(), (Dims { 2, 3, 4, 5 }));
        files.shapes = { { "x", { 1, 3, 4, 5 } } };
        QVERIFY(engine.build(target, Device::cpu(), files, false, 4)
                    .find("is float32[2, 3, 4, 5], the program declares")
            != std::string::npos);

        // The command line's spellings.
        DebugSources text;
        QVERIFY(text.setFromText(false, "zeros", error));
        QCOMPARE(text.inputs, DebugSources::Kind::Zeros);
        QVERIFY(text.setFromText(true, PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.pdiparams", error));
        QCOMPARE(text.params, DebugSources::Kind::PdiparamsFile);
        QVERIFY(text.setFromText(false, PIRSCOPE_FIXTURES_DIR "/image/rgb5x4.ppm", error));
        QCOMPARE(text.inputs, DebugSources::Kind::Image);
        QCOMPARE(text.inputsPath, std::string(PIRSCOPE_FIXTURES_DIR "/image/rgb5x4.ppm"));
        // The image input takes the image's size; the other unresolved input still needs one.
        errors.clear();
        const std::vector<InputShape> withImage = text.inputShapes(target, errors);
        QCOMPARE(find(withImage, "x")->origin, InputShape::Origin::Image);
        QCOMPARE(find(withImage, "ids")->origin, InputShape::Origin::Unresolved);
        QVERIFY(!text.setFromText(false, "/nonexistent/dir", error));
        // A .npy is told by its content (issue 22), here under a .pdiparams name.
        const QString disguised = dir.filePath("model.pdiparams");
        QVERIFY(QFile::copy(dir.filePath("y.npy"), disguised));
        QVERIFY(!text.setFromText(true, disguised.toStdString(), error));
        QVERIFY2(error.find("is a .npy file (by its content)") != std::string::npos, error.c_str());
        DebugSources chosen = files;
        chosen.shapes.clear();
        chosen.params = DebugSources::Kind::PdiparamsFile;
        chosen.paramsPath = disguised.toStdString();
        const std::string refused = engine.build(target, Device::cpu(), chosen, false, 5);
        QVERIFY2(
            refused.find("parameters: '" + disguised.toStdString() + "' is a .npy file") != std::string::npos,
            refused.c_str());
    }

    void targetFindsItsCompanions()
    {
        QTemporaryDir dir;
        const QString program = dir.filePath("model.inference.json");
        QVERIFY(QFile::copy(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json", program));
        QVERIFY(QFile::copy(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.pdiparams",
            dir.filePath("model.inference.pdiparams")));
        QVERIFY(!writeTestFile(dir, "model.inference.yml", kConfig).isEmpty());
        DiagnosticList d;
        std::shared_ptr<const PipelineSource> source = PipelineSource::open(program.toStdString(), d);
        QVERIFY(source);
        QCOMPARE(source->kind, PipelineSource::Kind::Program);
        QCOMPARE(source->title, std::string("model.inference.json"));
        DebugTarget target;
        target.program = source->origin;
        target.programPath = program.toStdString();
        DiagnosticList warnings;
        target.findCompanions(warnings);
        QVERIFY(warnings.empty());
        QCOMPARE(target.pdiparamsPath, dir.filePath("model.inference.pdiparams").toStdString());
        QVERIFY(target.config);
        QCOMPARE(target.config->dynamicShapes.size(), size_t(1));
        QCOMPARE(DebugSources::defaultsFor(target).params, DebugSources::Kind::Pdiparams);
        QVERIFY(DebugSources::available(DebugSources::Kind::Pdiparams, target));
        QVERIFY(!DebugSources::available(DebugSources::Kind::Bundle, target));
        QCOMPARE(target.programs().size(), size_t(1));

        // A .yml that does not parse: a warning naming the line, no defaults.
        QVERIFY(!writeTestFile(dir, "model.inference.yml", "a: [1,\n").isEmpty());
        target.findCompanions(warnings);
        QVERIFY(!target.config);
        QCOMPARE(warnings.size(), size_t(1));
        QCOMPARE(warnings[0].severity, Diagnostic::Severity::Warning);
        QVERIFY2(warnings[0].toString().find("model.inference.yml:1:7: warning:") != std::string::npos,
            warnings[0].toString().c_str());
        QVERIFY(warnings[0].message.find("input shape defaults are not used") != std::string::npos);
    }

    void pipelineSourceOpensFilesAndBundles()
    {
        DiagnosticList d;
        QVERIFY(!PipelineSource::open("/nonexistent/model.json", d));
        QVERIFY(d.hasErrors());
        d = {};
        auto bytes = PipelineSource::openBytes(kDynamicInputs, ":/dynamic.txt", d);
        QVERIFY(bytes);
        QCOMPARE(bytes->title, std::string("dynamic.txt"));
        QCOMPARE(bytes->format, LoadResult::Format::PirText);
        QVERIFY(!bytes->training);
        std::vector<PassInfo> passes;
        const PipelineResult infer = bytes->buildPipeline(false, {}, &passes);
        QVERIFY(infer.ok());
        QVERIFY(!passes.empty());
        DiagnosticList none;
        QVERIFY(!bytes->paddlePipeline(none)); // not a bundle
        PipelineSource::SplitInput split = bytes->splitInput(std::nullopt, none);
        QVERIFY(split.runnable);
        QCOMPARE(split.kind, std::string("inference"));

        const QString mlp = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce");
        if (!QFileInfo::exists(mlp + "/manifest.json"))
            QSKIP("golden bundle missing");
        std::shared_ptr<const PipelineSource> bundle = PipelineSource::open(mlp.toStdString(), d);
        QVERIFY2(bundle, d.toString().c_str());
        QCOMPARE(bundle->kind, PipelineSource::Kind::Bundle);
        QVERIFY(bundle->bundle);
        QVERIFY(bundle->training);
        std::optional<PipelineResult> paddle = bundle->paddlePipeline(d);
        QVERIFY(paddle && paddle->backward && paddle->backward->numOps() > 0);
        split = bundle->splitInput(std::nullopt, d);
        QCOMPARE(split.kind, std::string("bundle"));
        // A bundle's inputs come from its files, whatever their declared dims.
        DebugTarget target;
        target.pipeline = std::make_shared<const PipelineResult>(std::move(*paddle));
        target.bundle = bundle->bundle;
        const DebugSources sources = DebugSources::defaultsFor(target);
        QCOMPARE(sources.inputs, DebugSources::Kind::Bundle);
        ProgramRunner::Options options;
        std::string error;
        QVERIFY2(sources.applyTo(target, {}, options, error), error.c_str());
        QVERIFY(options.inputShapes.empty());
        QVERIFY(!options.outputGradFiles.empty());
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
