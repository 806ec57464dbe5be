#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/io/inputfile.h"
#include "core/io/jsonemitter.h"
#include "core/io/programloader.h"
#include "core/ir/program.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <simdjson.h>
#include <sstream>

namespace {

int benchLoad(const CliArguments &cli)
{
    const std::string path = cli.positional()[1];
    std::string error;
    const std::optional<std::string> read = ps::InputFile::readAll(path, ps::InputFile::kProgramLimit, error);
    if (!read)
        return cliError(error);
    const std::string &content = *read;
    const double megabytes = double(content.size()) / 1e6;

    ps::LoadResult first = ps::loadProgramFromString(content, path);
    if (!first.ok()) {
        const ps::Diagnostic *d = first.diagnostics.firstError();
        return cliError("cannot load " + path + (d ? ": " + d->toString() : std::string()));
    }
    const size_t ops = first.program->numOpsTotal();
    first.program.reset();

    const double seconds = bestOf([&] {
        ps::LoadResult r = ps::loadProgramFromString(content, path);
        if (!r.program)
            std::abort();
    });

    const bool isJson = ps::sniffFormat(content) == ps::LoadResult::Format::PirJson;
    double baseline = 0;
    if (isJson) {
        simdjson::dom::parser parser;
        const simdjson::padded_string padded(content);
        baseline = bestOf([&] {
            simdjson::dom::element doc;
            if (parser.parse(padded).get(doc) != simdjson::SUCCESS)
                std::abort();
        });
    }

    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("file").value(path);
        json.key("bytes").value(content.size());
        json.key("ops").value(ops);
        json.key("seconds").value(seconds);
        json.key("mb_per_s").value(megabytes / seconds);
        json.key("baseline_mb_per_s");
        if (isJson)
            json.value(megabytes / baseline);
        else
            json.null();
        json.key("ratio_to_baseline");
        if (isJson)
            json.value(baseline / seconds);
        else
            json.null();
        json.endObject();
        json.finish();
        return 0;
    }
    std::cout << path << ": " << content.size() << " bytes, " << ops << " ops\n";
    std::cout << "  load into IR:        " << seconds * 1e3 << " ms  (" << megabytes / seconds << " MB/s)\n";
    if (isJson) {
        std::cout << "  simdjson bare parse: " << baseline * 1e3 << " ms  (" << megabytes / baseline
                  << " MB/s)\n";
        std::cout << "  ratio (IR / bare):   " << baseline / seconds << "\n";
    }
    return 0;
}

} // namespace

int runBench(const std::vector<std::string> &args)
{
    if (!args.empty() && args[0] == "pipeline")
        return runBenchPipeline({ args.begin() + 1, args.end() });
    if (!args.empty() && args[0] == "run")
        return runBenchRun({ args.begin() + 1, args.end() });
    if (!args.empty() && args[0] == "open")
        return runBenchOpen({ args.begin() + 1, args.end() });
    if (!args.empty() && args[0] == "layout")
        return runBenchLayout({ args.begin() + 1, args.end() });
    if (!args.empty() && args[0] == "passlog")
        return runBenchPassLog({ args.begin() + 1, args.end() });
    if (!args.empty() && args[0] == "runlog")
        return runBenchRunLog({ args.begin() + 1, args.end() });
    if (!args.empty() && args[0] == "memory")
        return runBenchMemory({ args.begin() + 1, args.end() });
    if (!args.empty() && args[0] == "shapes")
        return runBenchShapes({ args.begin() + 1, args.end() });
    if (!args.empty() && args[0] == "graph")
        return runBenchGraph({ args.begin() + 1, args.end() });
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, {}, error))
        return cliError(error);
    if (cli.positional().size() == 2 && cli.positional()[0] == "load")
        return benchLoad(cli);
    return cliError(
        "usage: pirscope-cli bench load FILE [--json] | bench pipeline ... | bench run ... | "
        "bench open ... | bench layout ... | bench passlog ... | bench runlog ... | bench memory ... | "
        "bench graph ... | bench shapes ...");
}
