#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/shapeinference.h"
#include "core/io/jsonemitter.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirtextformat.h"
#include "core/ir/program.h"
#include "core/ir/shapesize.h"
#include "core/session/debugtarget.h"
#include "core/session/inferenceconfig.h"
#include "core/session/inputshapes.h"
#include "core/session/memorymodel.h"
#include "core/session/pipelinesource.h"
#include "core/session/targetshapes.h"
#include "core/transform/pipelineresult.h"
#include "trainmode.h"

#include <filesystem>
#include <iostream>

namespace {

std::string bytesText(std::optional<int64_t> bytes)
{
    return bytes ? std::to_string(*bytes) + " bytes" : std::string("dynamic");
}

/// What `split` found: the program split as the pipeline splits it, and its middles' sizes.
struct SplitReport
{
    std::string path;
    std::string kind;
    std::unique_ptr<ps::RunnableProgram> runnable;
    const ps::SplitResult *split = nullptr;
    const ps::SplitNames *names = nullptr;
    /// The inputs' shapes (InputShapes: --shape, the .yml beside a program file, batch 1) and
    /// every value's concrete shape inferred from them.
    std::vector<ps::InputShape> inputShapes;
    ps::ShapeInference shapes;
    int64_t middleBytes = 0;
    size_t dynamicMiddles = 0;
    /// What the forward really leaves allocated for the backward (MemoryModel on the dy2static
    /// pipeline: no-need-buffer values and shared buffers once, above parameters and inputs);
    /// nullopt without a backward or when the pipeline cannot be built.
    std::optional<int64_t> keptAfterForward;

    /// The declared size when static, else the inferred one.
    std::optional<int64_t> bytesOf(const ps::Value &v) const
    {
        const int64_t declared = v.type().byteSize();
        return declared >= 0 ? std::optional<int64_t>(declared) : shapes.bytes(v);
    }

    std::string middleName(size_t i) const
    {
        const std::vector<std::string> &middles = (*names)[ps::SplitKey::Fm];
        return i < middles.size() ? middles[i] : std::string();
    }
};

std::string producerName(const ps::Value &v)
{
    return v.definingOp() ? std::string(v.definingOp()->name()) : std::string("(block argument)");
}

/// Opens and splits the file `cli` names; nullopt with `error` set (empty when already reported).
std::optional<SplitReport> splitReport(const CliArguments &cli, std::string &error)
{
    bool train = false;
    if (!trainModeOption(cli, train, error))
        return std::nullopt;
    std::optional<ps::PipelineFlavour> flavour;
    if (auto f = cli.option("flavour")) {
        flavour = ps::flavourFromName(*f);
        if (!flavour) {
            error = "unknown flavour '" + *f + "' (newest, 3.0, seed)";
            return std::nullopt;
        }
    }
    const std::filesystem::path path = cli.positional()[0];
    std::shared_ptr<const ps::PipelineSource> opened = openForCli(path.string());
    if (!opened)
        return std::nullopt;
    ps::DiagnosticList diagnostics;
    ps::PipelineSource::SplitInput source;
    // --mode train: a forward-only plain program gets the backward the GUI's Train mode appends.
    if (train && !opened->bundle && !opened->roles.trainLayout) {
        std::optional<ps::RunnableProgram> whole = plainTrainProgram(
            *opened->origin, flavour.value_or(ps::PipelineFlavour::Newest), outputOptions(cli), error);
        if (!whole)
            return std::nullopt;
        source.runnable = std::make_unique<ps::RunnableProgram>(std::move(*whole));
        source.kind = "train";
    } else {
        source = opened->splitInput(flavour, diagnostics);
    }
    printDiagnostics(diagnostics);
    if (!source.runnable) {
        const ps::Diagnostic *first = diagnostics.firstError();
        error = first ? first->toString() : "cannot split " + path.string();
        return std::nullopt;
    }
    SplitReport report;
    report.path = path.string();
    report.kind = source.kind;
    report.runnable = std::move(source.runnable);
    report.split = &report.runnable->splitForwardBackward();
    report.names = &report.runnable->programNameAttr();
    std::map<std::string, std::vector<int64_t>> chosen;
    for (const std::string &option : cli.options("shape")) {
        auto assignment = ps::InputShapes::parseAssignment(option, error);
        if (!assignment) {
            error = "--shape " + error;
            return std::nullopt;
        }
        chosen[assignment->first] = assignment->second;
    }
    ps::DiagnosticList configDiagnostics;
    const std::shared_ptr<const ps::InferenceConfig> config
        = opened->bundle ? nullptr : ps::InferenceConfig::nextTo(path.string(), configDiagnostics);
    std::vector<std::string> shapeErrors;
    report.inputShapes
        = ps::InputShapes::resolve(report.runnable->program(), chosen, config.get(), shapeErrors);
    if (!shapeErrors.empty()) {
        error = "--shape " + shapeErrors.front();
        return std::nullopt;
    }
    report.shapes
        = ps::ShapeInference::run(report.runnable->program(), ps::TargetShapes::dimsOf(report.inputShapes));
    for (const ps::Value &m : report.split->middles) {
        if (const std::optional<int64_t> b = report.bytesOf(m))
            report.middleBytes += *b;
        else
            ++report.dynamicMiddles;
    }
    if (report.split->hasBackward) {
        // The pipeline run_program receives (the passes and inplace_pass applied), as `memory` models it.
        ps::DiagnosticList ignored;
        std::string why;
        std::optional<ps::PipelineResult> pipeline;
        if (opened->bundle)
            pipeline = opened->paddlePipeline(ignored);
        else if (train && !opened->roles.trainLayout)
            pipeline = plainTrainPipeline(
                *opened->origin, flavour.value_or(ps::PipelineFlavour::Newest), outputOptions(cli), why);
        if (pipeline && pipeline->training) {
            ps::DebugTarget target;
            target.pipeline = std::make_shared<const ps::PipelineResult>(std::move(*pipeline));
            const ps::MemoryModel::Measured sizes
                = ps::TargetShapes::infer(target, report.inputShapes).knownBytes();
            report.keptAfterForward = ps::MemoryModel::train(*target.pipeline, ps::MemoryModel::kCpu, &sizes)
                                          .keptAfterForwardBytes;
        }
    }
    return report;
}

void printSplitJson(const SplitReport &report)
{
    const ps::RunnableProgram &rp = *report.runnable;
    const ps::SplitResult &split = *report.split;
    const ps::SplitNames &names = *report.names;
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject();
    json.key("source").value(report.path);
    json.key("kind").value(report.kind);
    json.key("flavour").value(ps::flavourName(rp.flavour()));
    json.key("forward_range")
        .beginArray()
        .value(rp.forwardRange().begin)
        .value(rp.forwardRange().end)
        .endArray();
    json.key("backward_range")
        .beginArray()
        .value(rp.backwardRange().begin)
        .value(rp.backwardRange().end)
        .endArray();
    json.key("has_backward").value(split.hasBackward);
    json.key("forward").beginObject().key("ops").value(split.forward->numOps());
    json.key("ops_total").value(split.forward->numOpsTotal()).endObject();
    json.key("backward").beginObject().key("ops").value(split.backward->numOps());
    json.key("ops_total").value(split.backward->numOpsTotal());
    json.key("kwargs").value(split.backward->block().numKwargs()).endObject();
    json.key("attributes").beginObject();
    for (ps::SplitKey key : ps::allSplitKeys()) {
        json.key(ps::splitKeyName(key)).beginArray();
        for (const std::string &n : names[key])
            json.value(n);
        json.endArray();
    }
    json.endObject();
    json.key("middles").beginArray();
    for (size_t i = 0; i < split.middles.size(); ++i) {
        const ps::Value &m = split.middles[i];
        json.beginObject().key("name").value(report.middleName(i));
        json.key("type").value(ps::PirTextFormat::typeText(m.type(), ps::Generation::C));
        const bool dynamic = m.type().byteSize() < 0;
        const ps::InferredShape *shape = report.shapes.shape(m);
        if (shape && shape->known()) {
            json.key("shape").beginArray();
            for (int64_t d : shape->dims)
                json.value(d);
            json.endArray();
        }
        json.key("bytes");
        if (const std::optional<int64_t> b = report.bytesOf(m))
            json.value(*b);
        else
            json.null();
        if (dynamic)
            json.key("dynamic").value(true);
        if (shape && !shape->known())
            json.key("shape_unknown_reason").value(shape->whyUnknown);
        json.key("defined_by").value(producerName(m)).endObject();
    }
    json.endArray();
    json.key("input_shapes").beginArray();
    for (const ps::InputShape &in : report.inputShapes) {
        json.beginObject().key("name").value(in.name).key("shape").beginArray();
        for (int64_t d : in.shape)
            json.value(d);
        json.endArray().key("origin").value(ps::InputShape::originKey(in.origin)).endObject();
    }
    json.endArray();
    json.key("values_inferred").value(uint64_t(report.shapes.inferredValues()));
    json.key("values").value(uint64_t(report.shapes.tensorValues()));
    json.key("middle_bytes").value(report.middleBytes);
    json.key("dynamic_middles").value(report.dynamicMiddles);
    json.key("kept_after_forward_bytes");
    if (report.keptAfterForward)
        json.value(*report.keptAfterForward);
    else
        json.null();
    json.key("diagnostics").beginArray();
    for (const std::string &d : rp.diagnostics())
        json.value(d);
    json.endArray().endObject();
    json.finish();
}

void printSplitText(const SplitReport &report)
{
    const ps::RunnableProgram &rp = *report.runnable;
    const ps::SplitResult &split = *report.split;
    const ps::SplitNames &names = *report.names;
    static const char *const kKinds[][2] = { { "bundle", "trace bundle (manifest names and ranges)" },
        { "train", "train program (names and ranges inferred)" },
        { "inference", "inference program (forward only)" } };
    std::string kindText = report.kind;
    for (const auto &k : kKinds)
        if (report.kind == k[0])
            kindText = k[1];
    std::cout << "split:    " << report.path << ": " << kindText << ", flavour "
              << ps::flavourName(rp.flavour()) << "\n";
    std::cout << "ranges:   forward [" << rp.forwardRange().begin << ", " << rp.forwardRange().end
              << "), backward [" << rp.backwardRange().begin << ", " << rp.backwardRange().end << ") of "
              << rp.program().numOps() << " ops\n";
    std::cout << "forward:  " << split.forward->numOps() << " ops (" << split.forward->numOpsTotal()
              << " in total)\n";
    std::cout << "backward: " << split.backward->numOps() << " ops (" << split.backward->numOpsTotal()
              << " in total), " << split.backward->block().numKwargs() << " keyword arguments\n";
    std::cout << "attributes:\n";
    for (ps::SplitKey key : ps::allSplitKeys()) {
        std::string line;
        for (const std::string &n : names[key])
            line += (line.empty() ? "" : ", ") + (n.empty() ? std::string("<unnamed>") : n);
        std::cout << "  " << ps::splitKeyName(key) << std::string(16 - ps::splitKeyName(key).size(), ' ')
                  << line << "\n";
    }
    for (const ps::InputShape &in : report.inputShapes)
        if (in.dynamic())
            std::cout << "input:    " << in.name << " "
                      << (in.resolved() ? ps::InputShapes::dimsText(in.shape)
                                        : "needs --shape " + ps::InputShapes::example(in))
                      << " (" << ps::InputShape::originText(in.origin) << ")\n";
    std::cout << "middles:  " << split.middles.size() << ", " << report.middleBytes << " bytes";
    if (report.dynamicMiddles)
        std::cout << " + " << report.dynamicMiddles << " of unknown size";
    if (report.keptAfterForward)
        std::cout
            << "; the forward keeps " << *report.keptAfterForward
            << " bytes for the backward (no-need-buffer values and shared buffers once, above parameters "
               "and inputs: pirscope-cli memory)";
    std::cout << "\n";
    for (size_t i = 0; i < split.middles.size(); ++i) {
        const ps::Value &m = split.middles[i];
        std::string shape;
        if (const ps::InferredShape *s = report.shapes.shape(m); s && m.type().byteSize() < 0)
            shape = s->known() ? " = " + ps::ShapeSize::shapeText(s->dims) : " (" + s->whyUnknown + ")";
        std::cout << "  " << report.middleName(i) << "\t"
                  << ps::PirTextFormat::typeText(m.type(), ps::Generation::C) << shape << "\t"
                  << bytesText(report.bytesOf(m)) << "\t" << producerName(m) << "\n";
    }
    for (const std::string &d : rp.diagnostics())
        std::cerr << "warning: " << d << "\n";
}

} // namespace

int runSplit(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "flavour", "mode", "output", "shape" }, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli split FILE|BUNDLE [--json] [--flavour newest|3.0|seed] "
                        "[--mode train|infer [--output ID]...] [--shape NAME=DIMS]...");
    const std::optional<SplitReport> report = splitReport(cli, error);
    if (!report)
        return error.empty() ? 1 : cliError(error);
    if (cli.flag("json"))
        printSplitJson(*report);
    else
        printSplitText(*report);
    return 0;
}
