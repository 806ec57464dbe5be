#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/io/programloader.h"
#include "core/ir/program.h"
#include "core/session/pipelinesource.h"

#include <cstdlib>
#include <iostream>

/// `bench open`: what opening a file costs the GUI and the CLI before anything is drawn: the
/// session's open (read, parse, roles; a bundle's manifest too) against the bare program load
/// measured in the same run, then the dy2static pipeline of the chosen mode. Best of several
/// runs each; numbers only.
int runBenchOpen(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "mode" }, error))
        return cliError(error);
    const std::string mode = cli.option("mode").value_or("infer");
    if (cli.positional().size() != 1 || (mode != "infer" && mode != "train"))
        return cliError("usage: pirscope-cli bench open FILE|BUNDLE [--mode infer|train] [--json]");
    const std::string path = cli.positional()[0];
    std::shared_ptr<const ps::PipelineSource> source = openForCli(path);
    if (!source)
        return 1;
    const bool training = mode == "train";
    const ps::PipelineResult first = source->buildPipeline(training);
    if (!first.ok())
        return cliError("the " + mode + " pipeline failed on " + path
            + (first.diagnostics.empty() ? std::string() : ": " + first.diagnostics.front()));

    const bool bundle = source->bundle != nullptr;
    const double load = bundle ? 0.0 : bestOf([&] {
        if (!ps::loadProgram(path).program)
            std::abort();
    });
    const double open = bestOf([&] {
        ps::DiagnosticList d;
        if (!ps::PipelineSource::open(path, d))
            std::abort();
    });
    const double pipeline = bestOf([&] { source->buildPipeline(training); }, 1.0, 3);

    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("file").value(path);
        json.key("kind").value(bundle ? "bundle" : "program");
        json.key("ops").value(source->origin->numOpsTotal());
        json.key("mode").value(mode);
        json.key("load_seconds");
        if (bundle)
            json.null();
        else
            json.value(load);
        json.key("open_seconds").value(open);
        json.key("pipeline_seconds").value(pipeline);
        json.key("open_to_pipeline_seconds").value(open + pipeline);
        json.key("forward_ops").value(first.forward->numOpsTotal());
        json.key("backward_ops").value(first.backward->numOpsTotal());
        json.endObject();
        json.finish();
        return 0;
    }
    std::cout << "bench open: " << path << " (" << source->origin->numOpsTotal() << " ops), " << mode << "\n";
    if (!bundle)
        std::cout << "  bare load:             " << load * 1e3 << " ms\n";
    std::cout << "  open (session):        " << open * 1e3 << " ms";
    if (!bundle)
        std::cout << "  (" << open / load << " x the bare load)";
    std::cout << "\n";
    std::cout << "  " << mode << " pipeline:        " << pipeline * 1e3 << " ms  (forward "
              << first.forward->numOpsTotal() << " ops, backward " << first.backward->numOpsTotal() << ")\n";
    std::cout << "  open to pipeline:      " << (open + pipeline) * 1e3 << " ms\n";
    return 0;
}
