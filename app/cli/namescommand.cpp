#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/valuenamemap.h"
#include "core/analysis/valuenames.h"
#include "core/io/jsonemitter.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

#include <iostream>

namespace {

void printNamesJson(const ps::ValueNumbering &ids, const ps::ValueNameMap &map)
{
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject().key("names").beginArray();
    for (const ps::ValueNameEntry &e : map.entries()) {
        json.beginObject();
        json.key("value").value(ids.name(e.value));
        json.key("name").value(e.name);
        json.key("source").value(ps::nameSourceText(e.source));
        json.endObject();
    }
    json.endArray().endObject();
    json.finish();
}

void printNamesText(const ps::ValueNumbering &ids, const ps::ValueNameMap &map)
{
    for (const ps::ValueNameEntry &e : map.entries())
        std::cout << ids.name(e.value) << "\t" << e.name << "\t" << ps::nameSourceText(e.source) << "\n";
}

} // namespace

int runNames(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, {}, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli names FILE [--json]");
    auto program = loadForCli(cli.positional()[0]);
    if (!program)
        return 1;
    const ps::ValueNumbering ids(*program);
    const ps::ValueNameMap map(*program);
    if (cli.flag("json"))
        printNamesJson(ids, map);
    else
        printNamesText(ids, map);
    return 0;
}
