#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/io/inputfile.h"
#include "core/io/jsonemitter.h"
#include "core/io/pirjsonreader.h"
#include "core/io/pirjsonwriter.h"
#include "core/io/programloader.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <simdjson.h>
#include <sstream>

namespace {

/// One form of the program (PIR JSON or PIR text) and its load time.
struct LoadForm
{
    std::string bytes;
    double seconds = 0;
    double megabytesPerSecond() const { return double(bytes.size()) / 1e6 / seconds; }
};

/// `content` as a file read gives it (InputFile::readAll: room for the parser's padding past
/// its end, so PIR JSON is read in place, as `pirscope-cli` and the app read files).
double bestLoadSeconds(const std::string &content, const std::string &path)
{
    return bestOf([&] {
        ps::LoadResult r = ps::loadProgramFromBuffer(content, path);
        if (!r.program)
            std::abort();
    });
}

void emitForm(ps::JsonEmitter &json, const char *key, const LoadForm &form, double baselineMbPerSecond)
{
    json.key(key).beginObject();
    json.key("bytes").value(form.bytes.size());
    json.key("seconds").value(form.seconds);
    json.key("mb_per_s").value(form.megabytesPerSecond());
    json.key("ratio_to_simdjson").value(form.megabytesPerSecond() / baselineMbPerSecond);
    json.endObject();
}

void printForm(const char *label, const LoadForm &form, double baselineMbPerSecond, double target)
{
    std::cout << "  " << label << form.bytes.size() << " bytes, " << form.seconds * 1e3 << " ms  ("
              << form.megabytesPerSecond() << " MB/s), ratio "
              << form.megabytesPerSecond() / baselineMbPerSecond << " (target " << target << ")\n";
}

/// Loads FILE's program in both forms, PIR JSON and PIR text (the given bytes for FILE's own form,
/// the other written from the loaded program), and compares each form's throughput with
/// simdjson's bare DOM parse of the JSON form's bytes, measured in the same run. A ratio is
/// MB/s over MB/s, so the text form (fewer bytes for the same program) is held to its own bytes.
int benchLoad(const CliArguments &cli)
{
    const std::string path = cli.positional()[1];
    std::string error;
    std::optional<std::string> read = ps::InputFile::readAll(path, ps::InputFile::kProgramLimit, error);
    if (!read)
        return cliError(error);

    ps::LoadResult first = ps::loadProgramFromString(*read, path);
    if (!first.ok()) {
        const ps::Diagnostic *d = first.diagnostics.firstError();
        return cliError("cannot load " + path + (d ? ": " + d->toString() : std::string()));
    }
    const size_t ops = first.program->numOpsTotal();
    const bool givenJson = ps::sniffFormat(*read) == ps::LoadResult::Format::PirJson;
    LoadForm json, text;
    if (givenJson) {
        json.bytes = std::move(*read);
        text.bytes = ps::PirPrinter::toString(*first.program);
    } else {
        text.bytes = std::move(*read);
        json.bytes = ps::PirJsonWriter::write(*first.program);
        const size_t size = json.bytes.size(); // room for the padding, zeroed, as readAll leaves it
        json.bytes.resize(size + ps::PirJsonReader::paddingBytes());
        json.bytes.resize(size);
    }
    first.program.reset();
    const std::string jsonName = givenJson ? path : path + " (as PIR JSON)";
    const std::string textName = givenJson ? path + " (as PIR text)" : path;
    // The other form is timed as it loads, warnings and all; only a form that yields no
    // program cannot be measured.
    const ps::LoadResult other
        = ps::loadProgramFromString(givenJson ? text.bytes : json.bytes, givenJson ? textName : jsonName);
    if (!other.program) {
        const ps::Diagnostic *d = other.diagnostics.firstError();
        return cliError(
            "cannot load " + (givenJson ? textName : jsonName) + (d ? ": " + d->toString() : std::string()));
    }

    simdjson::dom::parser parser;
    const simdjson::padded_string padded(json.bytes);
    const double baseline = bestOf([&] {
        simdjson::dom::element doc;
        if (parser.parse(padded).get(doc) != simdjson::SUCCESS)
            std::abort();
    });
    const double baselineMbPerSecond = double(json.bytes.size()) / 1e6 / baseline;
    json.seconds = bestLoadSeconds(json.bytes, jsonName);
    text.seconds = bestLoadSeconds(text.bytes, textName);
    const LoadForm &given = givenJson ? json : text;

    if (cli.flag("json")) {
        ps::JsonEmitter out(std::cout, ps::JsonEmitter::Format::Report);
        out.beginObject();
        out.key("file").value(path);
        out.key("format").value(givenJson ? "json" : "text");
        out.key("bytes").value(given.bytes.size());
        out.key("ops").value(ops);
        out.key("seconds").value(given.seconds);
        out.key("mb_per_s").value(given.megabytesPerSecond());
        out.key("baseline_mb_per_s").value(baselineMbPerSecond);
        out.key("ratio_to_baseline").value(given.megabytesPerSecond() / baselineMbPerSecond);
        emitForm(out, "json", json, baselineMbPerSecond);
        emitForm(out, "text", text, baselineMbPerSecond);
        out.endObject();
        out.finish();
        return 0;
    }
    std::cout << path << ": " << ops << " ops\n";
    std::cout << "  simdjson DOM parse of the JSON form: " << baseline * 1e3 << " ms  ("
              << baselineMbPerSecond << " MB/s)\n";
    printForm("PIR JSON load: ", json, baselineMbPerSecond, 0.40);
    printForm("PIR text load: ", text, baselineMbPerSecond, 0.20);
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
