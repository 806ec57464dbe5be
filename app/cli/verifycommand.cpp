#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/verifier.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/backendfactory.h"
#include "core/runtime/npyio.h"
#include "core/runtime/scaledcomparison.h"
#include "core/runtime/tensorcomparison.h"
#include "core/session/memorymodel.h"
#include "core/transform/pipelineresult.h"
#include "intermediatesverify.h"
#include "runlogverify.h"
#include "runsource.h"
#include "sourceoptions.h"

#include <iostream>
#include <map>

namespace {

const char *const kUsage
    = "usage: pirscope-cli verify FILE|BUNDLE [--numerics] [--rtol R] [--atol A] "
      "[--seed N] [--shape NAME=DIMS]... [--device cuda|cuda:N|cuda-sim] [--no-fallback]\n"
      "       pirscope-cli verify BUNDLE --intermediates [--isolate] [--rtol R] [--atol A] [--json]\n"
      "       pirscope-cli verify FILE|BUNDLE --paddle-log LOG [--against LOG2] [--referee f64] "
      "[--rtol R] [--atol A] [--json]";

struct Tolerance
{
    double rtol = 1e-4;
    double atol = 1e-5;
};

/// Structural checks of one program; false on verifier errors.
bool verifyStructure(const ps::Program &program, const std::string &label)
{
    ps::VerifyOptions options;
    options.file = label;
    const ps::DiagnosticList diagnostics = ps::verify(program, options);
    for (const ps::Diagnostic &d : diagnostics.items())
        std::cerr << d.toString() << "\n";
    if (diagnostics.hasErrors()) {
        std::cerr << "error: " << label << ": " << diagnostics.errorCount() << " verifier error(s)\n";
        return false;
    }
    std::cout << label << ": ok (" << program.numOpsTotal() << " ops, " << diagnostics.size()
              << " warning(s))\n";
    return true;
}

/// Compares one result with a reference .npy, each element judged against the value's scale as
/// `passes --check-numerics` judges (core/runtime/scaledcomparison.h: Paddle's own float32 result
/// is off by rounding that grows with the tensor's magnitudes, not the element's); prints a line;
/// false on a mismatch.
bool compareWithFile(
    const std::string &what, const ps::Tensor &actual, const std::string &file, const Tolerance &tolerance)
{
    std::string error;
    const ps::Tensor expected = ps::NpyIO::read(file, error);
    if (!expected.defined()) {
        std::cout << "  " << what << ": cannot read the reference: " << error << "\n";
        return false;
    }
    if (!actual.defined()) {
        std::cout << "  " << what << ": MISSING (Paddle has " << expected.describe() << ")\n";
        return false;
    }
    const ps::TensorComparison c = ps::compareToScale(actual, expected, tolerance.rtol, tolerance.atol);
    std::cout << "  " << what << " " << actual.describe() << ": " << (c.ok() ? "" : "MISMATCH ")
              << c.summary() << "\n";
    return c.ok();
}

/// Runs `source` on `backend` (optionally checked op by op against `reference`); prints the
/// stop when the run did not finish. Returns the runner, or nullptr when it could not start.
std::unique_ptr<ps::ProgramRunner> runOn(const RunSource &source, ps::Backend &backend,
    ps::Backend *reference, ps::ProgramRunner::Options options, const Tolerance &tolerance,
    ps::StopInfo &stop, bool fallback = true)
{
    if (!backend.device().isCuda() || backend.device().isSimulated())
        if (const std::string why = ps::MemoryModel::budgetProblem(source.target); !why.empty()) {
            std::cout << "  cannot prepare the run: " << why << "\n";
            return nullptr;
        }
    auto runner = source.makeRunner(backend);
    options.interpreter.rtol = tolerance.rtol;
    options.interpreter.atol = tolerance.atol;
    options.interpreter.cpuFallback = fallback;
    std::string error;
    if (!runner->prepare(options, error)) {
        std::cout << "  cannot prepare the run: " << error << "\n";
        return nullptr;
    }
    runner->interpreter().setReferenceBackend(reference);
    stop = runner->run();
    if (stop.reason == ps::StopReason::Error)
        std::cout << "  error: " << runner->interpreter().error()->toString() << "\n";
    else if (stop.reason != ps::StopReason::Finished)
        std::cout << "  stopped (" << ps::stopReasonText(stop.reason) << "): " << stop.message << "\n";
    return runner;
}

/// Outputs and gradients of a finished bundle run against Paddle's .npy files.
bool compareWithBundle(
    const ps::TraceBundle &bundle, const ps::ProgramRunner &runner, const Tolerance &tolerance)
{
    bool ok = true;
    const auto outputs = runner.outputs();
    for (const ps::TraceBundle::Output &o : bundle.outputs())
        if (!o.file.empty() && o.index < outputs.size())
            ok = compareWithFile("output " + outputs[o.index].name, outputs[o.index].tensor,
                     bundle.filePath(o.file), tolerance)
                && ok;
    if (!runner.hasBackward())
        return ok;
    std::map<std::string, ps::Tensor> grads;
    for (const auto &g : runner.inputGrads())
        grads[g.name] = g.tensor;
    for (const auto &g : runner.parameterGrads())
        grads[g.name] = g.tensor;
    for (const auto *list : { &bundle.inputs(), &bundle.parameters() })
        for (const ps::TraceBundle::Tensor &t : *list)
            if (!t.gradFile.empty())
                ok = compareWithFile("grad " + t.name, grads[t.name], bundle.filePath(t.gradFile), tolerance)
                    && ok;
    return ok;
}

/// How the ops of a differential run agreed with the CPU.
struct Agreement
{
    size_t compared = 0; ///< within tolerance
    size_t uncompared = 0; ///< checked but not comparable (no CPU kernel, fallback)
    double maxRelDiff = 0;
};

Agreement agreementOf(const std::vector<ps::OpRecord> &records)
{
    Agreement a;
    for (const ps::OpRecord &r : records) {
        if (!r.compared)
            continue;
        if (r.comparison.empty()) {
            ++a.compared;
            a.maxRelDiff = std::max(a.maxRelDiff, r.maxRelDiff);
        } else {
            ++a.uncompared;
        }
    }
    return a;
}

/// Runs `source` on `device` checked op by op against `cpu`, then (bundles) against Paddle's files.
bool verifyAgainstCpu(const RunSource &source, ps::Backend &device, ps::Backend &cpu,
    const ps::ProgramRunner::Options &options, const Tolerance &tolerance, bool fallback)
{
    std::cout << "differential " << device.name() << " vs " << cpu.name() << ", op by op:\n";
    ps::StopInfo stop;
    auto runner = runOn(source, device, &cpu, options, tolerance, stop, fallback);
    if (!runner || stop.reason != ps::StopReason::Finished) {
        if (stop.reason == ps::StopReason::Divergence && stop.record) {
            const ps::OpRecord &r = runner->interpreter().records()[*stop.record];
            std::cout << "  first divergence: " << r.op->name() << " at " << r.position.toString() << ": "
                      << r.comparison << "\n";
        }
        return false;
    }
    const Agreement agreement = agreementOf(runner->interpreter().records());
    const std::map<std::string, size_t> fallbacks = runner->interpreter().fallbackOps();
    size_t fellBack = 0;
    for (const auto &[name, n] : fallbacks)
        fellBack += n;
    std::cout << "  " << agreement.compared << " kernel ops agree (max rel diff " << agreement.maxRelDiff
              << ")";
    if (agreement.uncompared > fellBack)
        std::cout << ", " << agreement.uncompared - fellBack << " not compared (no CPU kernel)";
    std::cout << "\n";
    printFallback(std::cout, fallbacks, "  ");
    return !source.bundle() || compareWithBundle(*source.bundle(), *runner, tolerance);
}

/// `device`: the backend checked op by op against the oracle, the plain CPU kernels ("" = the
/// first CUDA device when there is one; "cpu" checks the oneDNN kernels).
int verifyNumerics(const RunSource &source, const ps::DebugSources &sources, const Tolerance &tolerance,
    const std::string &device, bool fallback)
{
    std::string error;
    ps::ProgramRunner::Options options;
    std::vector<ps::InputShape> shapes;
    if (!source.runOptions(sources, options, shapes, error))
        return cliError(error);
    auto cpu = ps::createCpuPlainBackend();
    bool ok = true;
    std::cout << "numerics on " << cpu->name()
              << (source.bundle() ? " against Paddle's outputs and gradients" : "") << " (rtol "
              << tolerance.rtol << ", atol " << tolerance.atol
              << ", |a - e| <= atol + rtol (|e| + rms(e))):\n";
    ps::StopInfo stop;
    auto runner = runOn(source, *cpu, nullptr, options, tolerance, stop);
    if (runner)
        if (const std::string text = shapesSummary(shapes, *runner); !text.empty())
            std::cout << "  shapes: " << text << "\n";
    if (!runner || stop.reason != ps::StopReason::Finished) {
        ok = false;
    } else {
        std::cout << "  " << runner->interpreter().records().size() << " ops executed\n";
        if (source.bundle())
            ok = compareWithBundle(*source.bundle(), *runner, tolerance) && ok;
    }

    std::string reason;
    auto cuda = device.empty() ? ps::createBackend(ps::Device::cuda(), reason) : makeBackend(device, reason);
    if (!cuda && !device.empty()) {
        std::cout << "error: " << reason << "\n";
        ok = false;
    } else if (!cuda) {
        std::cout << "cuda: skipped (" << reason << ")\n";
    } else {
        ok = verifyAgainstCpu(source, *cuda, *cpu, options, tolerance, fallback) && ok;
    }
    std::cout << (ok ? "numerics: ok\n" : "numerics: FAILED\n");
    return ok ? 0 : 1;
}

} // namespace

int runVerify(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "numerics", "no-fallback", "json", "intermediates", "isolate" },
            { "rtol", "atol", "seed", "shape", "device", "paddle-log", "against", "referee" }, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError(kUsage);
    Tolerance tolerance;
    uint64_t seed = 0;
    if (!cli.numberOption("rtol", 0, 1e6, tolerance.rtol, error)
        || !cli.numberOption("atol", 0, 1e300, tolerance.atol, error)
        || !SourceOptions::parseSeed(cli, seed, error))
        return cliError(error);
    const std::string path = cli.positional()[0];
    RunSource source;
    if (!loadRunSource(path, source, error))
        return error.empty() ? 1 : cliError(error);
    ps::DebugSources sources;
    if (!source.sources(seed, cli.options("shape"), sources, error))
        return cliError(error);
    const std::optional<std::string> paddleLog = cli.option("paddle-log");
    if (!paddleLog && cli.option("against"))
        return cliError("--against needs --paddle-log LOG");
    if (!paddleLog && !cli.flag("intermediates") && cli.flag("json"))
        return cliError("--json needs --paddle-log LOG or --intermediates");
    if (cli.flag("isolate") && !cli.flag("intermediates"))
        return cliError("--isolate needs --intermediates");
    if (cli.flag("intermediates")) {
        if (paddleLog)
            return cliError("--intermediates and --paddle-log are two checks: run them one at a time");
        return verifyIntermediates(
            source, sources, { tolerance.rtol, tolerance.atol }, cli.flag("isolate"), cli.flag("json"));
    }
    const std::optional<std::string> referee = cli.option("referee");
    if (referee && *referee != "f64")
        return cliError("--referee " + *referee + ": the referee is f64 (float64 on the CPU)");
    if (referee && !paddleLog)
        return cliError("--referee needs --paddle-log LOG");
    if (paddleLog)
        return verifyPaddleLog(source, sources, *paddleLog, cli.option("against").value_or(""),
            { tolerance.rtol, tolerance.atol }, referee.has_value(), cli.flag("json"));
    if (!source.bundle()) {
        if (!verifyStructure(*source.target.program, path))
            return 1;
        return cli.flag("numerics") ? verifyNumerics(
                   source, sources, tolerance, cli.option("device").value_or(""), !cli.flag("no-fallback"))
                                    : 0;
    }
    // A trace bundle: the structure of the programs run_program receives, then the numerics.
    const ps::PipelineResult &pipeline = *source.target.pipeline;
    bool ok = verifyStructure(*pipeline.forward, path + " (forward program)");
    if (pipeline.backward && pipeline.backward->numOps() > 0)
        ok = verifyStructure(*pipeline.backward, path + " (backward program)") && ok;
    if (!ok)
        return 1;
    return verifyNumerics(
        source, sources, tolerance, cli.option("device").value_or(""), !cli.flag("no-fallback"));
}
