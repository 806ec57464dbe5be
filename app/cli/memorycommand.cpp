#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/runtime/backend.h"
#include "core/session/memorymodel.h"
#include "core/session/targetshapes.h"
#include "core/session/valuebytesrecorder.h"
#include "core/transform/pipelineresult.h"
#include "runsource.h"
#include "sourceoptions.h"
#include "trainmode.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace {

const char *const kUsage
    = "usage: pirscope-cli memory FILE|BUNDLE [--mode train|infer] [--output ID]... "
      "[--shape NAME=DIMS]... [--from-run] [--measure] [--inputs SRC] [--params SRC] [--seed N] [--json]";

/// One CPU run of the target: the sizes of its values and, freed as Paddle frees them, what its
/// allocator held.
struct MeasuredRun
{
    std::unique_ptr<ps::Backend> cpu;
    std::unique_ptr<ps::ProgramRunner> runner;
    ps::MemoryModel::Measured sizes;
};

/// Runs the target once on the CPU (its inputs: the bundle's, else random of the --shape given)
/// with eager deletion and records the bytes of every value. False with `error`.
bool measure(const RunSource &source, const CliArguments &cli, MeasuredRun &out, std::string &error)
{
    uint64_t seed = 0;
    if (!cli.unsignedOption("seed", 0, UINT64_MAX, seed, error))
        return false;
    ps::DebugSources sources;
    ps::ProgramRunner::Options options;
    std::vector<ps::InputShape> shapes;
    if (!source.sources(seed, cli.options("shape"), sources, error))
        return false;
    SourceOptions given;
    if (!given.parse(cli, seed, error) || (given.inputs && !sources.setSource(false, *given.inputs, error))
        || (given.params && !sources.setSource(true, *given.params, error))
        || !source.runOptions(sources, options, shapes, error))
        return false;
    options.interpreter.eagerDeletion = true;
    options.runInplace = ps::MemoryModel::executorInplaceOps(source.target);
    out.cpu = ps::createCpuBackend();
    out.runner = source.makeRunner(*out.cpu);
    if (!out.runner->prepare(options, error))
        return false;
    ps::Interpreter &interpreter = out.runner->interpreter();
    ps::ValueBytesRecorder recorder(interpreter);
    interpreter.addObserver(&recorder);
    const ps::StopInfo stop = out.runner->run();
    interpreter.removeObserver(&recorder);
    if (stop.reason != ps::StopReason::Finished) {
        error = interpreter.error() ? interpreter.error()->toString()
                                    : "the run to size the values stopped: " + stop.message;
        return false;
    }
    out.sizes = recorder.bytes();
    return true;
}

/// "812 B", "48.5 KB", "17.8 MB" (decimal units, as Paddle's statistics print them).
std::string megabytes(int64_t bytes)
{
    std::ostringstream out;
    if (bytes < 10'000)
        out << bytes << " B";
    else if (bytes < 1'000'000)
        out << std::fixed << std::setprecision(1) << double(bytes) / 1e3 << " KB";
    else
        out << std::fixed << std::setprecision(2) << double(bytes) / 1e6 << " MB";
    return out.str();
}

void writeValue(ps::JsonEmitter &json, const ps::MemoryValue &v)
{
    json.beginObject();
    json.key("op").value(v.op).key("op_name").value(v.opName).key("value").value(v.value);
    json.key("name").value(v.name).key("layer").value(v.layer).key("bytes").value(v.bytes);
    json.endObject();
}

void writeValues(ps::JsonEmitter &json, const char *key, const std::vector<ps::MemoryValue> &values)
{
    json.key(key).beginArray();
    for (const ps::MemoryValue &v : values)
        writeValue(json, v);
    json.endArray();
}

std::string describe(const ps::MemoryValue &v)
{
    std::string text = v.op + " " + v.opName + " " + v.value;
    if (!v.name.empty())
        text += " (" + v.name + ")";
    if (!v.layer.empty())
        text += " " + v.layer;
    return text;
}

/// Where the sizes of values with dynamic dims come from: "run" (--from-run, --measure) or
/// "inference" (ShapeInference from the resolved input shapes).
struct Sizing
{
    std::string from = "inference";
    /// The inputs no shape was found for ("x (?x256)"), empty when all are resolved.
    std::string unresolved;
    std::string example; ///< "--shape x=1x256 ..." for them
    /// The dynamic inputs with the shapes the inference used ("x 1x256 (batch 1)").
    std::vector<ps::InputShape> dynamicInputs;
};

void writeJson(const std::string &path, const ps::MemoryReport &r, const Sizing &sizing)
{
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject();
    json.key("file").value(path).key("mode").value(r.mode);
    json.key("peak_bytes").value(r.peakBytes);
    json.key("baseline_bytes").value(r.baselineBytes);
    json.key("kept_after_forward_bytes").value(r.keptAfterForwardBytes);
    json.key("after_step_bytes").value(r.afterStepBytes);
    json.key("peak_op").value(r.peakOp).key("peak_op_name").value(r.peakOpName);
    json.key("cut").value(uint64_t(r.cut));
    json.key("measured_values").value(uint64_t(r.measuredValues));
    json.key("sizes_from").value(sizing.from);
    if (!sizing.unresolved.empty())
        json.key("inputs_without_shape").value(sizing.unresolved);
    json.key("input_shapes").beginArray();
    for (const ps::InputShape &s : sizing.dynamicInputs) {
        json.beginObject().key("name").value(s.name).key("shape").beginArray();
        for (int64_t d : s.shape)
            json.value(d);
        json.endArray().key("origin").value(ps::InputShape::originKey(s.origin)).endObject();
    }
    json.endArray();
    const bool measured = r.measuredPeakBytes >= 0;
    if (measured) {
        json.key("measured").beginObject();
        json.key("peak_bytes").value(r.measuredPeakBytes);
        json.key("kept_after_forward_bytes");
        if (r.measuredKeptAfterForwardBytes >= 0)
            json.value(r.measuredKeptAfterForwardBytes);
        else
            json.null();
        json.endObject();
    }
    json.key("timeline").beginArray();
    for (const ps::MemoryTimelinePoint &p : r.timeline) {
        json.beginObject().key("op").value(p.op).key("live_bytes").value(p.liveBytes);
        if (measured) {
            json.key("measured_bytes");
            if (p.measuredBytes >= 0)
                json.value(p.measuredBytes);
            else
                json.null();
        }
        json.endObject();
    }
    json.endArray();
    writeValues(json, "kept", r.kept);
    json.key("kept_by_layer").beginArray();
    for (const ps::MemoryLayerBytes &l : r.keptByLayer)
        json.beginObject()
            .key("layer")
            .value(l.layer)
            .key("bytes")
            .value(l.bytes)
            .key("values")
            .value(uint64_t(l.values))
            .endObject();
    json.endArray();
    writeValues(json, "top_at_peak", r.topAtPeak);
    json.key("recompute").beginArray();
    for (const ps::MemoryRecompute &rc : r.recompute)
        json.beginObject()
            .key("layer")
            .value(rc.layer)
            .key("saves_bytes")
            .value(rc.savesBytes)
            .key("flops")
            .value(rc.flops)
            .endObject();
    json.endArray();
    writeValues(json, "unknown", r.unknown);
    json.endObject();
    json.finish();
}

/// The run's figures beside the prediction, and the ops where the two differ most.
void writeMeasuredText(const ps::MemoryReport &r)
{
    auto ratio = [](int64_t measured, int64_t predicted) {
        std::ostringstream out;
        out << std::fixed << std::setprecision(2)
            << (predicted > 0 ? double(measured) / double(predicted) : 0.0) << "x";
        return out.str();
    };
    std::cout << "measured in a CPU run: peak " << megabytes(r.measuredPeakBytes) << " ("
              << ratio(r.measuredPeakBytes, r.peakBytes) << " the prediction; kernels' temporaries included)";
    if (r.measuredKeptAfterForwardBytes >= 0)
        std::cout << ", kept after the forward " << megabytes(r.measuredKeptAfterForwardBytes) << " ("
                  << ratio(r.measuredKeptAfterForwardBytes, r.keptAfterForwardBytes) << ")";
    std::cout << "\n";
    std::vector<const ps::MemoryTimelinePoint *> differing;
    for (const ps::MemoryTimelinePoint &p : r.timeline)
        if (p.measuredBytes >= 0 && p.measuredBytes != p.liveBytes)
            differing.push_back(&p);
    std::sort(differing.begin(), differing.end(), [](const auto *a, const auto *b) {
        return std::llabs(a->measuredBytes - a->liveBytes) > std::llabs(b->measuredBytes - b->liveBytes);
    });
    if (differing.empty())
        return;
    std::cout << "largest differences (measured - predicted, live after the op):\n";
    for (size_t i = 0; i < differing.size() && i < 5; ++i)
        std::cout << "  " << std::setw(12) << std::showpos
                  << differing[i]->measuredBytes - differing[i]->liveBytes << std::noshowpos << " B  "
                  << differing[i]->op << " " << differing[i]->opName << "\n";
}

void writeText(const std::string &path, const ps::MemoryReport &r, const Sizing &sizing)
{
    std::cout << path << ": " << (r.mode == "train" ? "train step" : "inference run") << ", "
              << r.timeline.size() << " ops\n";
    std::cout << "baseline (parameters and inputs): " << megabytes(r.baselineBytes) << "\n";
    std::cout << "peak: " << megabytes(r.peakBytes) << " (" << megabytes(r.peakBytes - r.baselineBytes)
              << " above the baseline) at " << r.peakOp << " " << r.peakOpName << "\n";
    if (r.mode == "train")
        std::cout << "kept after the forward: " << megabytes(r.keptAfterForwardBytes) << " in "
                  << r.kept.size() << " buffers\n";
    std::cout << "after the step: " << megabytes(r.afterStepBytes)
              << (r.mode == "train" ? " (outputs and gradients)\n" : " (outputs)\n");
    if (r.measuredPeakBytes >= 0)
        writeMeasuredText(r);
    if (!r.keptByLayer.empty()) {
        std::cout << "kept by layer:\n";
        for (const ps::MemoryLayerBytes &l : r.keptByLayer)
            std::cout << "  " << std::setw(12) << megabytes(l.bytes) << "  "
                      << (l.layer.empty() ? "(no layer)" : l.layer) << " (" << l.values << " buffers)\n";
    }
    if (!r.topAtPeak.empty()) {
        std::cout << "largest at the peak:\n";
        for (const ps::MemoryValue &v : r.topAtPeak)
            std::cout << "  " << std::setw(12) << megabytes(v.bytes) << "  " << describe(v) << "\n";
    }
    if (!r.recompute.empty()) {
        std::cout << "recomputing a layer in the backward:\n";
        for (const ps::MemoryRecompute &rc : r.recompute)
            std::cout << "  " << rc.layer << ": saves " << megabytes(rc.savesBytes) << ", costs "
                      << std::setprecision(3) << rc.flops << " FLOPs\n";
    }
    if (r.measuredValues > 0)
        std::cout << r.measuredValues << " value(s) with dynamic dims sized "
                  << (sizing.from == "run" ? "by a CPU run" : "by shape inference from the input shapes")
                  << "\n";
    for (const ps::InputShape &s : sizing.dynamicInputs)
        if (s.resolved())
            std::cout << "input " << s.name << ": " << ps::InputShapes::dimsText(s.shape) << " ("
                      << ps::InputShape::originText(s.origin) << (s.note.empty() ? "" : ": " + s.note)
                      << ")\n";
    if (!sizing.unresolved.empty())
        std::cout << "inputs without a shape: " << sizing.unresolved << " (give" << sizing.example << ")\n";
    if (!r.unknown.empty()) {
        std::cout << r.unknown.size()
                  << " value(s) have no static size and are not counted (dynamic dims, or more elements than "
                     "int64 counts; "
                     "--shape NAME=DIMS sizes them by shape inference, --from-run by a CPU run):\n";
        for (size_t i = 0; i < r.unknown.size() && i < 10; ++i)
            std::cout << "  " << describe(r.unknown[i]) << "\n";
    }
}

} // namespace

int runMemory(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json", "from-run", "measure" },
            { "mode", "output", "shape", "seed", "inputs", "params", "image-norm" }, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError(kUsage);
    bool train = false;
    if (!trainModeOption(cli, train, error))
        return cliError(error);
    RunSource source;
    if (!loadRunSource(cli.positional()[0], source, error, train, outputOptions(cli)))
        return error.empty() ? 2 : cliError(error);
    const ps::PipelineResult *pipeline = source.target.pipeline.get();
    if (source.bundle() && pipeline && cli.option("mode") && train != pipeline->training)
        return cliError(cli.positional()[0] + " was traced in " + (pipeline->training ? "train" : "infer")
            + " mode: its memory is modelled in that mode");
    if (!source.target.valid())
        return cliError("nothing to model in " + cli.positional()[0]);
    // Dynamic dims take their sizes from shape inference with the input shapes the session
    // resolves (--shape, the .yml, batch 1), or with --from-run from a CPU run.
    // --measure puts the run's own allocator figures beside the prediction.
    MeasuredRun measured;
    Sizing sizing;
    const bool run = cli.flag("from-run") || cli.flag("measure");
    ps::MemoryModel::Measured inferred;
    if (run) {
        if (!measure(source, cli, measured, error))
            return cliError("sizing the values with a CPU run: " + error);
        sizing.from = "run";
    } else {
        ps::DebugSources sources;
        if (!source.sources(0, cli.options("shape"), sources, error))
            return cliError(error);
        std::vector<std::string> errors;
        const std::vector<ps::InputShape> shapes = sources.inputShapes(source.target, errors);
        if (!errors.empty())
            return cliError("--shape " + errors.front());
        std::vector<ps::InputShape> missing;
        for (const ps::InputShape &s : shapes)
            if (s.dynamic())
                sizing.dynamicInputs.push_back(s);
        for (const ps::InputShape &s : shapes)
            if (!s.resolved()) {
                missing.push_back(s);
                sizing.example += " --shape " + ps::InputShapes::example(s);
            }
        sizing.unresolved = ps::InputShapes::unresolvedText(missing);
        inferred = ps::TargetShapes::infer(source.target, shapes).knownBytes();
    }
    ps::MemoryReport report
        = ps::MemoryModel::forTarget(source.target, ps::MemoryModel::kCpu, run ? &measured.sizes : &inferred);
    if (cli.flag("measure"))
        ps::MemoryModel::attachMeasured(report, measured.runner->interpreter());
    if (cli.flag("json"))
        writeJson(cli.positional()[0], report, sizing);
    else
        writeText(cli.positional()[0], report, sizing);
    return 0;
}
