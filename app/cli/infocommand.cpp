#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/io/loadresult.h"
#include "core/ir/program.h"
#include "programsummary.h"

#include <iostream>
#include <optional>

namespace {

/// What `info` reports: the file's format and version and the program's summary.
struct InfoReport
{
    bool pirJson = false;
    std::optional<int> version; ///< PIR JSON serialization version
    ProgramSummary summary;
};

/// Loads `path` (diagnostics on stderr); nullopt when it cannot be read.
std::optional<InfoReport> infoReport(const std::string &path)
{
    ps::LoadResult loaded;
    auto program = loadForCli(path, &loaded, LoadCheck::Readable);
    if (!program)
        return std::nullopt;
    return InfoReport { loaded.format == ps::LoadResult::Format::PirJson, program->serializationVersion,
        ProgramSummary(*program) };
}

void printInfoJson(const InfoReport &report)
{
    const ProgramSummary &s = report.summary;
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject();
    json.key("format").value(report.pirJson ? "pir-json" : "pir-text");
    json.key("version");
    if (report.version)
        json.value(*report.version);
    else
        json.null();
    json.key("ops").value(s.ops);
    json.key("ops_total").value(s.opsTotal);
    json.key("values").value(s.values);
    json.key("op_counts").beginObject();
    for (const auto &[name, count] : s.opCounts)
        json.key(name).value(count);
    json.endObject();
    auto list = [&json](const char *key, const std::vector<std::string> &names) {
        json.key(key).beginArray();
        for (const auto &n : names)
            json.value(n);
        json.endArray();
    };
    list("inputs", s.inputs);
    list("parameters", s.parameters);
    list("outputs", s.outputs);
    json.endObject();
    json.finish();
}

void printInfoText(const InfoReport &report)
{
    const ProgramSummary &s = report.summary;
    std::cout << "format:     " << (report.pirJson ? "pir-json" : "pir-text");
    if (report.version)
        std::cout << " (version " << *report.version << ")";
    std::cout << "\nops:        " << s.ops << " top-level, " << s.opsTotal << " in total\n";
    std::cout << "values:     " << s.values << "\n";
    std::cout << "inputs:     " << s.inputs.size() << "\n";
    for (const auto &n : s.inputs)
        std::cout << "  " << n << "\n";
    std::cout << "parameters: " << s.parameters.size() << "\n";
    std::cout << "outputs:    " << s.outputs.size() << "\n";
    for (const auto &n : s.outputs)
        std::cout << "  " << n << "\n";
    std::cout << "op counts:\n";
    for (const auto &[name, count] : s.opCounts)
        std::cout << "  " << count << "\t" << name << "\n";
}

} // namespace

int runInfo(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, {}, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli info FILE [--json]");
    const std::optional<InfoReport> report = infoReport(cli.positional()[0]);
    if (!report)
        return 1;
    if (cli.flag("json"))
        printInfoJson(*report);
    else
        printInfoText(*report);
    return 0;
}
