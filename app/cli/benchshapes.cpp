#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/shapeinference.h"
#include "core/io/jsonemitter.h"
#include "core/io/programloader.h"
#include "core/ir/diagnostic.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/session/inferenceconfig.h"
#include "core/session/inputshapes.h"
#include "core/session/targetshapes.h"

#include <iostream>

/// `bench shapes FILE [--shape NAME=DIMS]... [--json]`: ShapeInference over every value of the
/// program, from the input shapes as the session resolves them (--shape, the .yml beside the file,
/// batch 1), against numbering every value once (ValueNumbering, the least any pass over the
/// values costs) in the same run; and how many values get a concrete shape.
int runBenchShapes(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "shape" }, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli bench shapes FILE [--shape NAME=DIMS]... [--json]");
    const std::string path = cli.positional()[0];
    ps::LoadResult loaded = ps::loadProgram(path);
    if (!loaded.ok())
        return cliError("cannot read " + path);
    const ps::Program &program = *loaded.program;
    std::map<std::string, std::vector<int64_t>> chosen;
    for (const std::string &option : cli.options("shape")) {
        auto assignment = ps::InputShapes::parseAssignment(option, error);
        if (!assignment)
            return cliError("--shape " + error);
        chosen[assignment->first] = assignment->second;
    }
    ps::DiagnosticList diagnostics;
    const auto config = ps::InferenceConfig::nextTo(path, diagnostics);
    std::vector<std::string> errors;
    const std::vector<ps::InputShape> shapes
        = ps::InputShapes::resolve(program, chosen, config.get(), errors);
    if (!errors.empty())
        return cliError("--shape " + errors.front());
    const ps::ShapeInference::InputDims dims = ps::TargetShapes::dimsOf(shapes);
    ps::ShapeInference inferred;
    const double inference = bestOf([&] { inferred = ps::ShapeInference::run(program, dims); });
    size_t numbered = 0;
    const double baseline = bestOf([&] { numbered = ps::ValueNumbering(program).size(); });
    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("file").value(path).key("ops").value(uint64_t(program.numOpsTotal()));
        json.key("values").value(uint64_t(inferred.tensorValues()));
        json.key("values_inferred").value(uint64_t(inferred.inferredValues()));
        json.key("inference_seconds").value(inference).key("baseline_seconds").value(baseline);
        json.key("ratio").value(inference / baseline);
        json.endObject();
        json.finish();
        return 0;
    }
    std::cout << "shape inference of " << path << ": " << program.numOpsTotal() << " ops, " << numbered
              << " values\n";
    std::cout << "  ShapeInference::run:      " << inference * 1e3 << " ms\n";
    std::cout << "  baseline (number values): " << baseline * 1e3 << " ms\n";
    std::cout << "  ratio (inference / baseline): " << inference / baseline << "\n";
    std::cout << "  " << inferred.inferredValues() << " of " << inferred.tensorValues()
              << " tensor values have a concrete shape\n";
    return 0;
}
