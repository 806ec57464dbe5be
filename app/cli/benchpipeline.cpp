#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/io/pirprinter.h"
#include "core/ir/block.h"
#include "core/ir/program.h"
#include "core/transform/backwardappender.h"
#include "core/transform/partialprogram.h"
#include "core/transform/syntheticprogram.h"
#include "jsonstream.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>

namespace {

using ps::RunnableProgram;
using ps::SyntheticProgram;

/// The dy2static target: backward + split of a 10k-op forward program in under 100 ms.
constexpr double kTargetSeconds = 0.1;

/// Like bestOf, but `setup()` runs before each timed `fn(state)` and the state is destroyed
/// after the clock stops, so only `fn` is measured.
template<class Setup, class Fn>
double bestOfPrepared(Setup &&setup, Fn &&fn, double minSeconds, int minRuns = 5)
{
    using Clock = std::chrono::steady_clock;
    double best = 1e30;
    double spent = 0;
    for (int runs = 0; runs < minRuns || spent < minSeconds; ++runs) {
        auto state = setup();
        const auto t0 = Clock::now();
        fn(state);
        const double t = std::chrono::duration<double>(Clock::now() - t0).count();
        best = std::min(best, t);
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

struct Figures
{
    size_t layers = 0;
    size_t forwardOps = 0;
    size_t trainOps = 0;
    size_t forwardProgramOps = 0;
    size_t backwardProgramOps = 0;
    double baselineClone = 0; ///< Program::clone of the origin program
    double clone = 0; ///< RunnableProgram::clone (the train program's start)
    double backward = 0; ///< seeds + autodiff + grad shadow outputs + RunnableProgram
    double split = 0; ///< split_program
    double nameAttr = 0; ///< program_name_attr
    double total = 0; ///< clone + backward + split + program_name_attr, timed as one
    double programAttr = 0; ///< program_attr after the split (unify_value_names)
    /// PartialProgramLayer::trainProgram() (CSE included, no pass-log texts) + program_attr
    double createProgram = 0;
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

    f.baselineClone = bestOf(
        [&] {
            std::unique_ptr<ps::Program> copy = origin.program().clone();
            if (!copy)
                std::abort();
        },
        minSeconds);
    f.clone
        = bestOfPrepared([] { return 0; }, [&](int) { RunnableProgram copy = origin.clone(); }, minSeconds);
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
            // Paddle keeps no pass log: the program texts of the log are not part of the work.
            l->passManager().setRecordText(false);
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

void printJson(const Figures &f, SyntheticProgram::Kind kind)
{
    JsonStream json(std::cout);
    json.beginObject();
    json.key("kind").value(SyntheticProgram::kindName(kind));
    json.key("layers").value(f.layers);
    json.key("forward_ops").value(f.forwardOps);
    json.key("train_ops").value(f.trainOps);
    json.key("forward_program_ops").value(f.forwardProgramOps);
    json.key("backward_program_ops").value(f.backwardProgramOps);
    json.key("seconds").beginObject();
    json.key("clone_baseline").value(f.baselineClone);
    json.key("clone").value(f.clone);
    json.key("backward").value(f.backward);
    json.key("split").value(f.split);
    json.key("program_name_attr").value(f.nameAttr);
    json.key("total").value(f.total);
    json.key("program_attr").value(f.programAttr);
    json.key("create_program").value(f.createProgram);
    json.endObject();
    json.key("ratio_total_to_clone").value(f.total / f.baselineClone);
    json.key("target_seconds").value(kTargetSeconds);
    json.key("forward_ops_per_second").value(double(f.forwardOps) / f.total);
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
    std::cout << "  clone (baseline)     " << ms(f.baselineClone) << "\n";
    std::cout << "  clone                " << ms(f.clone) << "\n";
    std::cout << "  backward (autodiff)  " << ms(f.backward) << "\n";
    std::cout << "  split                " << ms(f.split) << "\n";
    std::cout << "  program_name_attr    " << ms(f.nameAttr) << "\n";
    std::cout << "  backward + split     " << ms(f.total) << "  (target " << kTargetSeconds * 1e3
              << " ms for 10000 forward ops)\n";
    std::cout << "  program_attr         " << ms(f.programAttr) << "\n";
    std::cout << "  train program + attr " << ms(f.createProgram) << "  (with CSE, like _create_program)\n";
    std::cout << "  ratio (total / clone baseline): " << std::setprecision(3) << f.total / f.baselineClone
              << "\n";
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
    size_t ops = 10000;
    double minSeconds = 1.0;
    try {
        if (auto o = cli.option("ops")) {
            const long long n = std::stoll(*o);
            if (n < 1 || n > 10'000'000)
                return cliError("--ops must be between 1 and 10000000");
            ops = size_t(n);
        }
        if (auto s = cli.option("min-seconds"))
            minSeconds = std::stod(*s);
    } catch (const std::exception &) {
        return cliError("--ops and --min-seconds take a number");
    }
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
