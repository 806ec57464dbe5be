#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/io/numbertext.h"
#include "core/io/tracebundle.h"
#include "core/runtime/backend.h"
#include "core/runtime/npyio.h"
#include "core/runtime/tensorcomparison.h"
#include "core/session/bundlereducer.h"
#include "core/session/intermediatescheck.h"
#include "runsource.h"
#include "sourceoptions.h"

#include <iostream>

namespace {

const char *const kUsage
    = "usage: pirscope-cli reduce BUNDLE --out DIR [--op train:N|infer:N|N] [--rtol R] [--atol A] "
      "[--json]";

/// "train:9", "infer:9" or "9" for the intermediates' program `program`.
std::optional<size_t> parseOp(const std::string &text, const std::string &program, std::string &error)
{
    std::string_view digits = text;
    const std::string prefix = program == "train_program" ? "train:" : "infer:";
    if (digits.rfind(prefix, 0) == 0)
        digits.remove_prefix(prefix.size());
    else if (digits.find(':') != std::string_view::npos) {
        error = "--op " + text + ": the bundle's intermediates belong to " + program + " (" + prefix + "N)";
        return std::nullopt;
    }
    const std::optional<uint64_t> n = ps::NumberText::parseUnsigned(digits, 1u << 30, error);
    if (!n)
        error = "--op " + text + ": " + error;
    return n ? std::optional<size_t>(size_t(*n)) : std::nullopt;
}

/// Runs the reduced bundle on the CPU and compares its outputs with Paddle's: "" when it ran.
std::string reproduce(
    const std::string &dir, double rtol, double atol, std::vector<ps::TensorComparison> &out)
{
    RunSource source;
    std::string error;
    ps::DebugSources sources;
    ps::ProgramRunner::Options options;
    std::vector<ps::InputShape> shapes;
    if (!loadRunSource(dir, source, error) || !source.sources(0, {}, sources, error)
        || !source.runOptions(sources, options, shapes, error))
        return error.empty() ? "the reduced bundle does not open" : error;
    auto cpu = ps::createCpuBackend();
    auto runner = source.makeRunner(*cpu);
    if (!runner->prepare(options, error))
        return error;
    if (runner->run().reason != ps::StopReason::Finished)
        return runner->interpreter().error() ? runner->interpreter().error()->toString() : "the run stopped";
    const auto outputs = runner->outputs();
    for (const ps::TraceBundle::Output &o : source.bundle()->outputs()) {
        const ps::Tensor expected = ps::NpyIO::read(source.bundle()->filePath(o.file), error);
        if (!expected.defined() || o.index >= outputs.size())
            return error.empty() ? "output " + std::to_string(o.index) + " missing" : error;
        out.push_back(ps::TensorComparison::compare(outputs[o.index].tensor, expected, rtol, atol));
    }
    return {};
}

} // namespace

int runReduce(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "out", "op", "rtol", "atol", "seed" }, error))
        return cliError(error);
    if (cli.positional().size() != 1 || !cli.option("out"))
        return cliError(kUsage);
    ps::IntermediatesCheck::Tolerance tolerance;
    if (!cli.numberOption("rtol", 0, 1e6, tolerance.rtol, error)
        || !cli.numberOption("atol", 0, 1e300, tolerance.atol, error))
        return cliError(error);
    RunSource source;
    if (!loadRunSource(cli.positional()[0], source, error))
        return error.empty() ? 1 : cliError(error);
    if (!source.bundle() || source.bundle()->intermediates().empty())
        return cliError(cli.positional()[0]
            + ": reduce needs a trace bundle with Paddle's intermediates (python3 "
              "tools/export_paddle_trace.py "
              "--write-intermediates BUNDLE)");
    const ps::TraceBundle &bundle = *source.bundle();
    std::optional<size_t> op;
    if (cli.option("op")) {
        op = parseOp(*cli.option("op"), bundle.intermediatesProgram(), error);
        if (!op)
            return cliError(error);
    } else {
        // The first op whose value differs from Paddle's.
        ps::DebugSources sources;
        ps::ProgramRunner::Options options;
        std::vector<ps::InputShape> shapes;
        ps::IntermediatesReport report;
        if (!source.sources(0, {}, sources, error) || !source.runOptions(sources, options, shapes, error)
            || !ps::IntermediatesCheck::run(bundle, options, tolerance, false, report, error))
            return cliError(error);
        if (!report.firstDivergent) {
            std::cout << "nothing to reduce: every one of " << report.compared
                      << " values agrees with Paddle's (give --op to reduce an op anyway)\n";
            return 0;
        }
        op = report.firstDivergent->opIndex;
    }
    const std::shared_ptr<const ps::Program> program = ps::IntermediatesCheck::program(bundle, error);
    ps::ReducedBundle reduced;
    if (!program || !ps::BundleReducer::reduce(bundle, *program, *op, *cli.option("out"), reduced, error))
        return cliError(error);
    std::vector<ps::TensorComparison> comparisons;
    const std::string problem = reproduce(reduced.dir, tolerance.rtol, tolerance.atol, comparisons);
    bool differs = false;
    for (const ps::TensorComparison &c : comparisons)
        differs = differs || !c.ok();
    const std::string label
        = (bundle.intermediatesProgram() == "train_program" ? "train:" : "infer:") + std::to_string(*op);
    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject()
            .key("bundle")
            .value(bundle.dir())
            .key("op")
            .value(label)
            .key("op_name")
            .value(reduced.opName);
        json.key("out").value(reduced.dir).key("ops").value(uint64_t(reduced.ops));
        json.key("inputs").value(uint64_t(reduced.inputs)).key("files").beginArray();
        for (const std::string &f : reduced.files)
            json.value(f);
        json.endArray();
        json.key("reproduces").value(problem.empty() && differs);
        if (!problem.empty())
            json.key("problem").value(problem);
        json.key("outputs").beginArray();
        for (const ps::TensorComparison &c : comparisons)
            json.beginObject()
                .key("ok")
                .value(c.ok())
                .key("max_abs")
                .value(c.maxAbsError)
                .key("summary")
                .value(c.summary())
                .endObject();
        json.endArray().endObject();
        json.finish();
        return 0;
    }
    std::cout << "reduced " << label << " " << reduced.opName << " to " << reduced.dir << ": " << reduced.ops
              << " op(s) on " << reduced.inputs << " of Paddle's values\n";
    if (!problem.empty())
        std::cout << "  the reduced bundle did not run: " << problem << "\n";
    for (size_t i = 0; i < comparisons.size(); ++i)
        std::cout << "  output " << i << " against Paddle's: " << comparisons[i].summary() << "\n";
    std::cout << (problem.empty() && differs
            ? "reproduces: PIRScope differs from Paddle on Paddle's own inputs (pirscope-cli verify "
                + reduced.dir + " --numerics)\n"
            : "does not reproduce on Paddle's inputs: the difference is inherited from earlier ops\n");
    return 0;
}
