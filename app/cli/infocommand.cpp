#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/io/loadresult.h"
#include "core/ir/program.h"
#include "programsummary.h"

#include <iostream>

int runInfo(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, {}, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli info FILE [--json]");
    ps::LoadResult loaded;
    auto program = loadForCli(cli.positional()[0], &loaded);
    if (!program)
        return 1;
    const ProgramSummary s(*program);
    const bool isJson = loaded.format == ps::LoadResult::Format::PirJson;

    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("format").value(isJson ? "pir-json" : "pir-text");
        json.key("version");
        if (program->serializationVersion)
            json.value(*program->serializationVersion);
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
        return 0;
    }

    std::cout << "format:     " << (isJson ? "pir-json" : "pir-text");
    if (program->serializationVersion)
        std::cout << " (version " << *program->serializationVersion << ")";
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
    return 0;
}
