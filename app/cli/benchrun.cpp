#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/parameterstore.h"
#include "core/session/passsession.h"
#include "core/transform/passpipeline.h"
#include "runsource.h"
#include "sourceoptions.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>

namespace {

struct RunTiming
{
    double wall = 0; ///< the interpreter loop from the first op to the end
    double ops = 0; ///< sum of the per-op times (kernels and builtin ops)
    size_t executed = 0;
};

/// `--pipeline NAME`: the program as the pass pipeline leaves it (a deployed predictor's),
/// constant folding computed over its parameters, which the run then reads from the session.
bool applyPipeline(const std::string &name, RunSource &source, ps::ProgramRunner::Options &options,
    ps::PassSession &session, std::string &error)
{
    if (!source.target.program || source.target.pipeline) {
        error = "--pipeline runs on one program (not a dy2static bundle)";
        return false;
    }
    std::unique_ptr<ps::Program> program = source.target.program->clone();
    if (!session.loadParameters(*program, options.params, error))
        return false;
    std::optional<ps::PassManager> pm = ps::PassPipeline::build(name, session.passOptions(), error);
    if (!pm)
        return false;
    pm->run(*program);
    source.target.program = std::move(program);
    options.params = session.parameters()->source();
    return true;
}

} // namespace

/// `bench run`: wall time per run of the whole timeline, the time spent in ops, and the host
/// overhead per op (wall − op time, divided by the ops executed). Numbers only, no assertions.
int runBenchRun(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "device", "runs", "seed", "shape", "pipeline" }, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError(
            "usage: pirscope-cli bench run FILE|BUNDLE [--device cpu|cpu-plain|cuda|cuda-sim] [--runs N] "
            "[--shape NAME=DIMS]... [--pipeline NAME] [--json]");
    uint64_t runs = 10;
    uint64_t seed = 0;
    if (!cli.unsignedOption("runs", 1, 1'000'000, runs, error) || !SourceOptions::parseSeed(cli, seed, error))
        return cliError(error);
    auto backend = makeBackend(cli.option("device").value_or("cpu"), error);
    if (!backend)
        return cliError(error);
    RunSource source;
    if (!loadRunSource(cli.positional()[0], source, error))
        return error.empty() ? 1 : cliError(error);
    ps::DebugSources sources;
    ps::ProgramRunner::Options options;
    std::vector<ps::InputShape> shapes;
    if (!source.sources(seed, cli.options("shape"), sources, error)
        || !source.runOptions(sources, options, shapes, error))
        return cliError(error);
    // Values freed after their last use, as Paddle's executor (and `run`) frees them: a run's
    // buffers are then reused while they are warm in the cache, and a kernel may write into an
    // operand nothing reads later (a fused convolution's residual).
    options.interpreter.eagerDeletion = true;
    const std::optional<std::string> pipeline = cli.option("pipeline");
    ps::PassSession session; // holds the folded parameters the transformed program reads
    if (pipeline && !applyPipeline(*pipeline, source, options, session, error))
        return cliError(error);
    auto runner = source.makeRunner(*backend);
    if (!runner->prepare(options, error))
        return cliError(error);
    ps::Interpreter &in = runner->interpreter();

    using Clock = std::chrono::steady_clock;
    std::vector<RunTiming> timings;
    // name → (seconds, count) of the run where the op's total time was smallest: one preempted
    // op in one run would otherwise dominate the list on a busy machine.
    std::map<std::string, std::pair<double, size_t>> perOp;
    double restartSeconds = 0;
    for (uint64_t i = 0; i <= runs; ++i) { // run 0 warms up
        if (i > 0) {
            const auto r0 = Clock::now();
            in.restart();
            restartSeconds += std::chrono::duration<double>(Clock::now() - r0).count();
        }
        const auto t0 = Clock::now();
        const ps::StopInfo stop = in.continueRun();
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        if (stop.reason != ps::StopReason::Finished)
            return cliError("the run did not finish: " + std::string(ps::stopReasonText(stop.reason)) + ": "
                + (in.error() ? in.error()->toString() : stop.message));
        if (i == 0)
            continue;
        timings.push_back({ wall, in.opSeconds(), in.records().size() });
        std::map<std::string, std::pair<double, size_t>> thisRun;
        for (const ps::OpRecord &r : in.records()) {
            if (r.kind == ps::OpRecord::Kind::ControlFlow)
                continue;
            auto &[seconds, count] = thisRun[std::string(r.op->name())];
            seconds += r.deviceSeconds;
            ++count;
        }
        for (const auto &[name, v] : thisRun) {
            auto it = perOp.find(name);
            if (it == perOp.end() || v.first < it->second.first)
                perOp[name] = v;
        }
    }
    std::sort(timings.begin(), timings.end(),
        [](const RunTiming &a, const RunTiming &b) { return a.wall < b.wall; });
    const RunTiming best = timings.front();
    const RunTiming median = timings[timings.size() / 2];
    const double overhead = (median.wall - median.ops) / double(std::max<size_t>(1, median.executed));
    std::vector<std::pair<std::string, std::pair<double, size_t>>> ops(perOp.begin(), perOp.end());
    std::sort(
        ops.begin(), ops.end(), [](const auto &a, const auto &b) { return a.second.first > b.second.first; });

    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("source").value(source.path);
        json.key("backend").value(backend->name());
        json.key("pipeline").value(pipeline.value_or(std::string()));
        json.key("runs").value(runs);
        writeShapesJson(json, shapes, *runner);
        json.key("ops_per_run").value(median.executed);
        json.key("best_seconds").value(best.wall);
        json.key("median_seconds").value(median.wall);
        json.key("median_op_seconds").value(median.ops);
        json.key("host_overhead_per_op_seconds").value(overhead);
        json.key("restart_seconds").value(restartSeconds / runs);
        writeFallbackJson(json, in.fallbackOps());
        json.key("ops").beginArray();
        for (const auto &[name, v] : ops)
            json.beginObject()
                .key("name")
                .value(name)
                .key("seconds_per_run")
                .value(v.first)
                .key("count_per_run")
                .value(v.second)
                .endObject();
        json.endArray();
        json.endObject();
        json.finish();
        return 0;
    }
    std::cout << "bench run: " << source.path << " on " << backend->name() << ", " << runs << " runs"
              << (pipeline ? " after the " + *pipeline + " pipeline" : std::string()) << "\n";
    if (const std::string text = shapesSummary(shapes, *runner); !text.empty())
        std::cout << "  shapes:                 " << text << "\n";
    std::cout << "  ops per run:            " << median.executed << "\n";
    std::cout << "  run (best / median):    " << best.wall * 1e3 << " / " << median.wall * 1e3 << " ms\n";
    std::cout << "  time in ops (median):   " << median.ops * 1e3 << " ms\n";
    std::cout << "  host overhead per op:   " << overhead * 1e6 << " us\n";
    std::cout << "  restart (scope copy):   " << restartSeconds / runs * 1e3 << " ms\n";
    printFallback(std::cout, in.fallbackOps(), "  ");
    std::cout << "  slowest ops (best run of each):\n";
    for (size_t i = 0; i < ops.size() && i < 8; ++i)
        std::cout << "    " << ops[i].first << "  x" << ops[i].second.second << "  "
                  << ops[i].second.first * 1e6 << " us\n";
    return 0;
}
