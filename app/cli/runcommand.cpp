#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/namepattern.h"
#include "core/io/jsonemitter.h"
#include "core/io/numbertext.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/shapesize.h"
#include "core/runtime/backend.h"
#include "core/runtime/npyio.h"
#include "core/runtime/opreference.h"
#include "core/session/debugengine.h"
#include "runsource.h"
#include "sourceoptions.h"
#include "trainmode.h"

#include <chrono>
#include <filesystem>
#include <iostream>

namespace {

const char *const kUsage
    = "usage: pirscope-cli run FILE|BUNDLE [--device cpu|cuda|cuda-sim] [--no-fallback] "
      "[--inputs DIR|IMAGE|random|zeros|ones] "
      "[--image-norm imagenet|none] [--params FILE|DIR|random|zeros|ones] [--seed N] [--shape NAME=DIMS]... "
      "[--break POS|REGEX] "
      "[--provide OP=FILE.npy[,FILE.npy...]]... [--dump DIR] [--check-nan] [--mode train|infer [--output "
      "ID]...] [--json]";

struct Group
{
    const char *title;
    const char *key;
    const char *dumpDir;
    std::vector<ps::ProgramRunner::NamedTensor> tensors;
};

/// `--dump DIR`'s folder for `group`: DIR itself must be a directory (made when absent); the
/// folders under it (outputs/, grads/params/) are made there, and one planted as a symlink or a
/// file is refused rather than followed. Each file is written by NpyIO::write (AtomicFile).
bool dumpGroup(const std::filesystem::path &root, const Group &group, std::string &error)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec || !fs::is_directory(root, ec)) {
        error = "--dump " + root.string() + ": not a directory"
            + (ec ? " (" + ec.message() + ")" : std::string());
        return false;
    }
    fs::path dir = root;
    for (const fs::path &part : fs::path(group.dumpDir)) {
        dir /= part;
        const fs::file_status status = fs::symlink_status(dir, ec);
        if (status.type() == fs::file_type::not_found) {
            if (!fs::create_directory(dir, ec) && ec) {
                error = "--dump: cannot create " + dir.string() + ": " + ec.message();
                return false;
            }
        } else if (status.type() != fs::file_type::directory) {
            error = "--dump: " + dir.string() + " is not a directory"
                + (status.type() == fs::file_type::symlink ? " (a symlink; not followed)" : "");
            return false;
        }
    }
    for (const auto &t : group.tensors)
        if (t.tensor.defined()
            && !ps::NpyIO::write((dir / (fileNameFor(t.name) + ".npy")).string(), t.tensor, error))
            return false;
    return true;
}

void writeTensorJson(ps::JsonEmitter &json, ps::Backend &backend, const ps::ProgramRunner::NamedTensor &t)
{
    json.beginObject().key("name").value(t.name).key("scope_name").value(t.scopeName);
    if (!t.tensor.defined()) {
        json.key("tensor").null().endObject();
        return;
    }
    const ps::TensorStats s = backend.stats(t.tensor, 0);
    json.key("dtype").value(ps::phiName(t.tensor.dtype()));
    json.key("shape").beginArray();
    for (int64_t d : t.tensor.shape())
        json.value(d);
    json.endArray();
    json.key("min").value(s.min).key("max").value(s.max).key("mean").value(s.mean).key("std").value(s.std);
    json.key("nan").value(s.nanCount).key("inf").value(s.posInfCount + s.negInfCount);
    json.endObject();
}

/// The values an op reads (before it runs) or wrote (after a NaN/name stop).
void printOpValues(ps::Interpreter &in, const ps::Operation &op, bool results)
{
    const unsigned n = results ? op.numResults() : op.numOperands();
    for (unsigned i = 0; i < n; ++i) {
        const ps::Value v = results ? op.result(i) : op.operand(i);
        const ps::RuntimeValue *rv = v.isNull() ? nullptr : in.valueOf(v);
        std::string text = "<no value>";
        if (rv && rv->isTensor())
            text = tensorSummary(in.backend(), rv->tensor());
        else if (rv && rv->isList())
            text = "list of " + std::to_string(rv->list().size()) + " tensors";
        else if (rv && rv->isStack())
            text = "stack";
        std::cout << "    " << (results ? "result " : "operand ") << i << " " << in.valueLabel(v) << ": "
                  << text << "\n";
    }
}

/// `--provide OPREF=FILE.npy[,FILE2.npy]`: the op's results from the files (one per result,
/// checked against the declared dtype and static dims), used instead of running it.
bool provide(ps::DebugEngine &engine, const std::string &text, std::string &error)
{
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
        error = "--provide needs OP=FILE.npy[,FILE.npy...], got '" + text + "'";
        return false;
    }
    const std::string ref = text.substr(0, eq);
    std::string why;
    ps::Interpreter &in = engine.runner()->interpreter();
    std::vector<const ps::Program *> segments;
    for (const ps::Interpreter::Segment &segment : in.segments())
        segments.push_back(segment.program.get());
    const std::optional<ps::ProgramPosition> position = ps::OpReference::resolve(segments, ref, why);
    if (!position) {
        error = "--provide " + ref + ": " + why;
        return false;
    }
    const ps::Operation &op = *in.opAt(*position);
    std::vector<std::string> files;
    for (size_t start = eq + 1;;) {
        const size_t comma = text.find(',', start);
        files.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    const std::string where = std::string(op.name()) + " at " + position->toString();
    if (files.size() != op.numResults()) {
        error = "--provide " + ref + ": " + where + " has " + std::to_string(op.numResults()) + " result(s), "
            + std::to_string(files.size()) + " file(s) given";
        return false;
    }
    if (!engine.provideOutputs(*position, files, why)) {
        error = "--provide " + ref + ": " + why;
        return false;
    }
    return true;
}

/// `--check-nan` and `--break POS|REGEX` as the debugger's breakpoints; false with `error` for a
/// position without an op or a pattern that does not compile.
bool setBreakpoints(ps::DebugEngine &engine, const CliArguments &cli, std::string &error)
{
    int id = 0;
    if (cli.flag("check-nan"))
        engine.setBreakpoint({ .id = ++id, .kind = ps::DebugBreakpoint::Kind::NanInf });
    const std::optional<std::string> b = cli.option("break");
    if (!b)
        return true;
    ps::Interpreter &in = engine.runner()->interpreter();
    std::string positionError;
    if (auto position = ps::ProgramPosition::parse(*b, &positionError)) {
        if (!in.opAt(*position)) {
            error = "--break " + *b + ": no op at " + position->toString();
            return false;
        }
        engine.setBreakpoint({ .id = ++id, .kind = ps::DebugBreakpoint::Kind::Op, .position = *position });
        return true;
    }
    if (!positionError.empty()) {
        error = "--break: " + positionError;
        return false;
    }
    const std::optional<ps::NamePattern> pattern = ps::NamePattern::compile(*b, error);
    if (!pattern) {
        error = "--break: " + error;
        return false;
    }
    engine.setBreakpoint({ .id = ++id, .kind = ps::DebugBreakpoint::Kind::NameRegex, .pattern = *b });
    if (in.opsMatching(*pattern, false).empty())
        std::cerr << "warning: --break " << ps::NumberText::quote(*b)
                  << ": no result name of any op matches it; the run will not stop there\n";
    return true;
}

/// One `run`: what was run and how it ended, computed once, then printed as text or JSON. The
/// runner, interpreter and backend belong to `engine`, which outlives the report.
struct RunReport
{
    RunSource source;
    ps::DebugEngine engine { ps::DebugEngine::RecordSink {} };
    ps::Backend *backend = nullptr;
    std::vector<ps::InputShape> shapes;
    double seconds = 0;
    ps::StopInfo stop;
    bool finished = false;
    /// The op the run stopped at: after it (a NaN or name stop, a failed op) or before it.
    const ps::Operation *stopOp = nullptr;
    bool stopAfter = false;
    std::vector<Group> groups;

    ps::ProgramRunner &runner() { return *engine.runner(); }
    ps::Interpreter &interpreter() { return engine.runner()->interpreter(); }
    const char *status() const
    {
        return finished ? "finished" : stop.reason == ps::StopReason::Error ? "error" : "stopped";
    }
};

/// Parses the options, opens the source and builds the engine's session on the chosen device
/// with breakpoints and provided results; false with `error` (empty when already printed).
bool prepareRun(const CliArguments &cli, RunReport &report, std::string &error)
{
    uint64_t seed = 0;
    if (!SourceOptions::parseSeed(cli, seed, error))
        return false;
    const std::string deviceText = cli.option("device").value_or("cpu");
    const std::optional<ps::Device> device = deviceOption(deviceText, error);
    if (!device)
        return false;
    std::string reason;
    report.backend = report.engine.backend(*device, reason);
    if (!report.backend) {
        error = deviceUnavailable(deviceText, reason);
        return false;
    }
    bool train = false;
    if (!trainModeOption(cli, train, error))
        return false;
    if (!loadRunSource(cli.positional()[0], report.source, error, train, outputOptions(cli)))
        return false;

    ps::DebugSources sources;
    if (!report.source.sources(seed, cli.options("shape"), sources, error))
        return false;
    SourceOptions given;
    if (!given.parse(cli, seed, error))
        return false;
    if ((given.inputs && !sources.setSource(false, *given.inputs, error))
        || (given.params && !sources.setSource(true, *given.params, error)))
        return false;
    if (!report.source.checkShapes(sources, report.shapes, error))
        return false;
    ps::Interpreter::Options interpreterOptions;
    interpreterOptions.checkNanInf = cli.flag("check-nan");
    interpreterOptions.cpuFallback = !cli.flag("no-fallback");
    // Freed after their last use as Paddle's executor frees them, so peak_bytes is the peak of a
    // Paddle run; a stop at a breakpoint shows the op's values, so they are kept then.
    interpreterOptions.eagerDeletion = cli.options("break").empty();
    interpreterOptions.restartable = false; // one run: no copy of the inputs and parameters
    error = report.engine.build(report.source.target, *device, sources, false, 0, interpreterOptions);
    if (!error.empty())
        return false;
    if (!setBreakpoints(report.engine, cli, error))
        return false;
    for (const std::string &p : cli.options("provide"))
        if (!provide(report.engine, p, error))
            return false;
    return true;
}

/// Runs to the end or the first stop and fills in how it ended and what came out.
void execute(RunReport &report)
{
    ps::ProgramRunner &runner = report.runner();
    ps::Interpreter &in = report.interpreter();
    const auto t0 = std::chrono::steady_clock::now();
    report.engine.run(ps::DebugEngine::Command::Continue, std::nullopt, 1);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report.stop = in.lastStop();
    report.finished = report.stop.reason == ps::StopReason::Finished;

    report.groups = { { "outputs", "outputs", "outputs", runner.outputs() } };
    if (runner.hasBackward()) {
        report.groups.push_back({ "input gradients", "input_grads", "grads/inputs", runner.inputGrads() });
        report.groups.push_back(
            { "parameter gradients", "param_grads", "grads/params", runner.parameterGrads() });
    }
    if (report.stop.record) {
        report.stopOp = in.records()[*report.stop.record].op;
        report.stopAfter = true;
    } else if (!report.finished) {
        report.stopOp = in.currentOp();
    }
}

/// What the run held: its allocator's bytes for the scope and the values, measured.
void writeMemoryJson(ps::JsonEmitter &json, const ps::Interpreter &in)
{
    json.key("eager_deletion").value(in.options().eagerDeletion);
    json.key("start_bytes").value(in.startLiveBytes());
    json.key("peak_bytes").value(in.peakLiveBytes());
    json.key("kept_after_forward_bytes");
    if (in.segments().size() > 1 && !in.segmentEndLiveBytes().empty())
        json.value(in.segmentEndLiveBytes().front() - in.startLiveBytes());
    else
        json.null();
}

void printRunJson(RunReport &report)
{
    ps::ProgramRunner &runner = report.runner();
    ps::Interpreter &in = report.interpreter();
    const ps::StopInfo &stop = report.stop;
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject();
    json.key("source").value(report.source.path);
    json.key("kind").value(report.source.bundle() ? "bundle" : "program");
    json.key("backend").value(report.backend->name());
    json.key("inputs").value(runner.inputSource().describe());
    json.key("params").value(runner.parameterSource().describe());
    writeShapesJson(json, report.shapes, runner);
    json.key("segments").beginArray();
    for (const auto &s : in.segments())
        json.beginObject().key("name").value(s.name).key("ops").value(s.program->numOpsTotal()).endObject();
    json.endArray();
    json.key("status").value(report.status());
    json.key("stop").beginObject().key("reason").value(ps::stopReasonText(stop.reason));
    json.key("position");
    if (stop.position)
        json.value(stop.position->toString());
    else
        json.null();
    json.key("op");
    if (report.stopOp)
        json.value(report.stopOp->name());
    else
        json.null();
    json.key("message").value(stop.message).endObject();
    json.key("ops_executed").value(in.records().size());
    json.key("seconds").value(report.seconds);
    json.key("op_seconds").value(in.opSeconds());
    writeMemoryJson(json, in);
    writeFallbackJson(json, in.fallbackOps());
    for (const Group &g : report.groups) {
        json.key(g.key).beginArray();
        for (const auto &t : g.tensors)
            writeTensorJson(json, *report.backend, t);
        json.endArray();
    }
    json.key("freed").beginArray();
    for (const ps::FreedVariable &f : runner.scope().freed())
        json.beginObject()
            .key("name")
            .value(f.name)
            .key("reason")
            .value(ps::freeReasonText(f.reason))
            .endObject();
    json.endArray();
    json.endObject();
    json.finish();
}

void printRunText(RunReport &report)
{
    ps::ProgramRunner &runner = report.runner();
    ps::Interpreter &in = report.interpreter();
    const ps::StopInfo &stop = report.stop;
    std::cout << "run: " << report.source.path << " ("
              << (report.source.bundle() ? "trace bundle" : "program");
    for (const auto &s : in.segments())
        std::cout << ", " << s.name << " " << s.program->numOpsTotal() << " ops";
    std::cout << ") on " << report.backend->name() << "\n";
    std::cout << "inputs: " << runner.inputSource().describe()
              << "; parameters: " << runner.parameterSource().describe() << "\n";
    if (const std::string text = shapesSummary(report.shapes, runner); !text.empty())
        std::cout << "shapes: " << text << "\n";
    std::cout << report.status() << ": " << in.records().size() << " ops executed in " << report.seconds * 1e3
              << " ms (ops " << in.opSeconds() * 1e3 << " ms)\n";
    std::cout << "memory: peak "
              << ps::ShapeSize::formatBytes(uint64_t(std::max<int64_t>(in.peakLiveBytes(), 0)))
              << " (inputs and parameters "
              << ps::ShapeSize::formatBytes(uint64_t(std::max<int64_t>(in.startLiveBytes(), 0))) << ")";
    if (in.segments().size() > 1 && !in.segmentEndLiveBytes().empty())
        std::cout << ", kept after the forward "
                  << ps::ShapeSize::formatBytes(uint64_t(
                         std::max<int64_t>(in.segmentEndLiveBytes().front() - in.startLiveBytes(), 0)));
    std::cout << (in.options().eagerDeletion ? ""
                                             : "; values kept for --break, not freed after their last use")
              << "\n";
    printFallback(std::cout, in.fallbackOps());
    if (!report.finished) {
        std::cout << ps::stopReasonText(stop.reason);
        if (stop.position)
            std::cout << " at " << stop.position->toString();
        if (report.stopOp)
            std::cout << (report.stopAfter ? " after " : " before ") << report.stopOp->name();
        std::cout << (stop.message.empty() ? "" : ": " + stop.message) << "\n";
        if (report.stopOp && stop.reason != ps::StopReason::Error)
            printOpValues(in, *report.stopOp, report.stopAfter);
    }
    for (const Group &g : report.groups) {
        std::cout << g.title << ":\n";
        for (const auto &t : g.tensors) {
            std::cout << "  " << t.name;
            if (!t.scopeName.empty() && t.scopeName != t.name)
                std::cout << " (" << t.scopeName << ")";
            std::cout << "  "
                      << (t.tensor.defined() ? tensorSummary(*report.backend, t.tensor)
                                             : std::string("<none>"))
                      << "\n";
        }
    }
    size_t noNeed = 0, later = 0;
    for (const ps::FreedVariable &f : runner.scope().freed())
        ++(f.reason == ps::FreeReason::NoNeedBuffer ? noNeed : later);
    if (noNeed + later)
        std::cout << "freed: " << noNeed << " no_need_buffer (meta kept), " << later
                  << (in.options().eagerDeletion ? " after their last read\n"
                                                 : " not needed by the backward\n");
}

/// The failed op on stderr, with how to step past it when it only lacks a kernel.
void printRunError(RunReport &report)
{
    const ps::OpError &e = *report.interpreter().error();
    std::cerr << "error: " << e.toString() << "\n";
    if (!e.missingKernel)
        return;
    std::string files;
    for (size_t i = 0; i < e.results.size(); ++i)
        files += (i ? "," : "") + std::string("result") + std::to_string(i) + ".npy";
    std::cerr << "note: " << e.opName << " at " << e.position.toString() << " has no kernel on "
              << report.backend->name() << "; step past it by supplying its " << e.results.size()
              << " result(s): --provide " << e.position.toString() << "=" << files << "\n";
}

} // namespace

int runRun(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "check-nan", "json", "no-fallback" },
            { "device", "inputs", "image-norm", "params", "seed", "shape", "break", "provide", "dump", "mode",
                "output" },
            error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError(kUsage);
    RunReport report;
    if (!prepareRun(cli, report, error))
        return error.empty() ? 1 : cliError(error);
    execute(report);
    if (auto dump = cli.option("dump"); dump && report.finished)
        for (const Group &g : report.groups)
            if (!dumpGroup(*dump, g, error))
                return cliError(error);
    if (cli.flag("json"))
        printRunJson(report);
    else
        printRunText(report);
    if (report.stop.reason == ps::StopReason::Error) {
        printRunError(report);
        return 1;
    }
    return report.finished ? 0 : 2;
}
