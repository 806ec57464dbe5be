#include "allocatorname.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/transform/partialprogram.h"
#include "core/transform/syntheticprogram.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

namespace {

using ps::RunnableProgram;
using ps::SyntheticProgram;

/// The dy2static target: backward + split of a 10k-op forward program in under 100 ms.
constexpr double kTargetSeconds = 0.1;

/// Thread CPU time in seconds: on a loaded machine it shows what the wall clock hides.
double cpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// The best wall-clock and the best CPU time of one run.
struct Timing
{
    double wall = 1e30;
    double cpu = 1e30;
};

/// Like bestOf, but `setup()` runs before each timed `fn(state)` and the state is destroyed
/// after the clock stops, so only `fn` is measured.
template<class Setup, class Fn>
Timing bestOfPrepared(Setup &&setup, Fn &&fn, double minSeconds, int minRuns = 5)
{
    using Clock = std::chrono::steady_clock;
    Timing best;
    double spent = 0;
    for (int runs = 0; runs < minRuns || spent < minSeconds; ++runs) {
        auto state = setup();
        const double c0 = cpuSeconds();
        const auto t0 = Clock::now();
        fn(state);
        const double t = std::chrono::duration<double>(Clock::now() - t0).count();
        best.cpu = std::min(best.cpu, cpuSeconds() - c0);
        best.wall = std::min(best.wall, t);
        spent += t;
    }
    return best;
}

/// `_append_backward` on a clone of the origin (PartialProgramLayer's default backward function).
RunnableProgram appendBackward(RunnableProgram &&origin)
{
    std::string error;
    std::optional<RunnableProgram> train
        = ps::PartialProgramLayer::defaultBackwardFn(origin.flavour())(std::move(origin), error);
    if (!train) {
        std::cerr << "error: backward failed: " << error << "\n";
        std::exit(1);
    }
    return std::move(*train);
}

/// What `bench pipeline` reports: op counts and the timed pieces.
struct Figures
{
    size_t layers = 0;
    size_t forwardOps = 0;
    size_t trainOps = 0;
    size_t forwardProgramOps = 0;
    size_t backwardProgramOps = 0;
    Timing baselineClone; ///< Program::clone of the origin program
    Timing clone; ///< RunnableProgram::clone (the train program's start)
    Timing backward; ///< seeds + autodiff + grad shadow outputs + RunnableProgram
    Timing split; ///< split_program
    Timing nameAttr; ///< program_name_attr
    Timing total; ///< clone + backward + split + program_name_attr, timed as one
    Timing programAttr; ///< program_attr after the split (unify_value_names)
    /// PartialProgramLayer::trainProgram() (CSE included, no pass-log texts) + program_attr
    Timing createProgram;
};

Figures measure(SyntheticProgram::Kind kind, size_t ops, double minSeconds)
{
    Figures f;
    f.layers = SyntheticProgram::layersForOps(kind, ops);
    const auto makeModel = [&] { return SyntheticProgram::ofSize(kind, ops); };
    auto layer = SyntheticProgram::layer(makeModel());
    RunnableProgram &origin = layer->originRunnableProgram();
    f.forwardOps = origin.program().numOps();
    {
        RunnableProgram train = appendBackward(origin.clone());
        f.trainOps = train.program().numOps();
        train.splitForwardBackward();
        f.forwardProgramOps = train.forwardProgram().numOps();
        f.backwardProgramOps = train.backwardProgram().numOps();
    }

    f.baselineClone = bestOfPrepared([] { return std::unique_ptr<ps::Program>(); },
        [&](std::unique_ptr<ps::Program> &copy) { copy = origin.program().clone(); }, minSeconds);
    f.clone = bestOfPrepared([] { return std::optional<RunnableProgram>(); },
        [&](std::optional<RunnableProgram> &copy) { copy.emplace(origin.clone()); }, minSeconds);
    f.backward = bestOfPrepared([&] { return std::make_unique<RunnableProgram>(origin.clone()); },
        [&](std::unique_ptr<RunnableProgram> &o) {
            o = std::make_unique<RunnableProgram>(appendBackward(std::move(*o)));
        },
        minSeconds);
    f.split = bestOfPrepared([&] { return appendBackward(origin.clone()); },
        [](RunnableProgram &train) { train.splitForwardBackward(); }, minSeconds);
    f.nameAttr = bestOfPrepared(
        [&] {
            RunnableProgram train = appendBackward(origin.clone());
            train.splitForwardBackward();
            return train;
        },
        [](RunnableProgram &train) { train.programNameAttr(); }, minSeconds);
    f.total = bestOfPrepared([] { return std::unique_ptr<RunnableProgram>(); },
        [&](std::unique_ptr<RunnableProgram> &keep) {
            keep = std::make_unique<RunnableProgram>(appendBackward(origin.clone()));
            keep->splitForwardBackward();
            keep->programNameAttr();
        },
        minSeconds);
    f.programAttr = bestOfPrepared(
        [&] {
            RunnableProgram train = appendBackward(origin.clone());
            train.programNameAttr();
            return train;
        },
        [](RunnableProgram &train) { train.programAttr(); }, minSeconds);
    f.createProgram = bestOfPrepared(
        [&] {
            auto l = SyntheticProgram::layer(makeModel());
            // Paddle keeps no pass log: the program copies of the log are not part of the work.
            l->setRecordPassSteps(false);
            return l;
        },
        [](std::unique_ptr<ps::PartialProgramLayer> &l) {
            l->originRunnableProgram();
            RunnableProgram *train = l->trainProgram();
            if (!train)
                std::abort();
            train->programAttr();
        },
        minSeconds);
    return f;
}

/// The timed pieces in print order: JSON key, text label, figure.
std::vector<std::tuple<const char *, const char *, Timing>> pieces(const Figures &f)
{
    return { { "clone_baseline", "clone (baseline)", f.baselineClone }, { "clone", "clone", f.clone },
        { "backward", "backward (autodiff)", f.backward }, { "split", "split", f.split },
        { "program_name_attr", "program_name_attr", f.nameAttr }, { "total", "backward + split", f.total },
        { "program_attr", "program_attr", f.programAttr },
        { "create_program", "train program + attr", f.createProgram } };
}

void printJson(const Figures &f, SyntheticProgram::Kind kind)
{
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject();
    json.key("kind").value(SyntheticProgram::kindName(kind));
    json.key("allocator").value(allocatorName());
    json.key("layers").value(f.layers);
    json.key("forward_ops").value(f.forwardOps);
    json.key("train_ops").value(f.trainOps);
    json.key("forward_program_ops").value(f.forwardProgramOps);
    json.key("backward_program_ops").value(f.backwardProgramOps);
    json.key("seconds").beginObject();
    for (const auto &[key, label, t] : pieces(f))
        json.key(key).value(t.wall);
    json.endObject();
    json.key("cpu_seconds").beginObject();
    for (const auto &[key, label, t] : pieces(f))
        json.key(key).value(t.cpu);
    json.endObject();
    json.key("ratio_total_to_clone").value(f.total.wall / f.baselineClone.wall);
    json.key("target_seconds").value(kTargetSeconds);
    json.key("forward_ops_per_second").value(double(f.forwardOps) / f.total.wall);
    json.endObject();
    json.finish();
}

void printText(const Figures &f, SyntheticProgram::Kind kind)
{
    const auto ms = [](double s) {
        std::ostringstream out;
        out << std::fixed << std::setprecision(3) << std::setw(10) << s * 1e3 << " ms";
        return out.str();
    };
    std::cout << "synthetic " << SyntheticProgram::kindName(kind) << ": " << f.layers << " layers, "
              << f.forwardOps << " forward ops -> " << f.trainOps << " train ops (forward program "
              << f.forwardProgramOps << ", backward program " << f.backwardProgramOps << ")\n";
    std::cout << "  allocator: " << allocatorName() << "\n";
    std::cout << "  best of >= 5 runs          wall           cpu\n";
    for (const auto &[key, label, t] : pieces(f))
        std::cout << "  " << std::left << std::setw(22) << label << std::right << ms(t.wall) << "  "
                  << ms(t.cpu) << "\n";
    std::cout << "  target: backward + split under " << kTargetSeconds * 1e3
              << " ms for 10000 forward ops; train program + attr includes CSE, like _create_program\n";
    std::cout << "  ratio (total / clone baseline): " << std::setprecision(3)
              << f.total.wall / f.baselineClone.wall << "\n";
}

} // namespace

int runBenchPipeline(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "ops", "kind", "min-seconds", "dump-program" }, error))
        return cliError(error);
    if (!cli.positional().empty())
        return cliError("usage: pirscope-cli bench pipeline [--ops N] [--kind mlp|transformer] [--json] "
                        "[--min-seconds S] [--dump-program FILE]");
    uint64_t ops = 10000;
    double minSeconds = 1.0;
    if (!cli.unsignedOption("ops", 1, 10'000'000, ops, error)
        || !cli.numberOption("min-seconds", 0, 3600, minSeconds, error))
        return cliError(error);
    const std::optional<SyntheticProgram::Kind> kind
        = SyntheticProgram::kindFromName(cli.option("kind").value_or("mlp"));
    if (!kind)
        return cliError("--kind must be mlp or transformer");
    if (auto path = cli.option("dump-program")) {
        std::ofstream out(*path);
        if (!out)
            return cliError("cannot write " + *path);
        ps::PirPrinter::print(*SyntheticProgram::ofSize(*kind, ops).program, out);
    }
    const Figures f = measure(*kind, ops, minSeconds);
    if (cli.flag("json"))
        printJson(f, *kind);
    else
        printText(f, *kind);
    return 0;
}
