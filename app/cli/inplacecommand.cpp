#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/inplacegroups.h"
#include "core/dialect/ops.h"
#include "core/io/jsonemitter.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

#include <iostream>

namespace {

void printInplaceJson(const ps::ValueNumbering &ids, const ps::InplaceGroups &inplace)
{
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject().key("groups").beginArray();
    for (const ps::InplaceGroup &g : inplace.groups()) {
        json.beginObject();
        json.key("root").value(ids.name(g.root));
        json.key("root_name");
        if (g.rootName)
            json.value(*g.rootName);
        else
            json.null();
        json.key("members").beginArray();
        for (ps::Value v : g.members)
            json.value(ids.name(v));
        json.endArray();
        json.endObject();
    }
    json.endArray();
    json.key("renames").beginArray();
    for (const ps::ShadowOutputRename &r : inplace.renames()) {
        json.beginObject();
        json.key("value").value(ids.name(r.value));
        json.key("op").value(ps::ops::kShadowOutput);
        json.key("from").value(r.from);
        json.key("to").value(r.to);
        json.endObject();
    }
    json.endArray().endObject();
    json.finish();
}

void printInplaceText(const ps::ValueNumbering &ids, const ps::InplaceGroups &inplace)
{
    std::cout << inplace.groups().size() << " inplace groups\n";
    for (const ps::InplaceGroup &g : inplace.groups()) {
        std::cout << "  root " << ids.name(g.root) << " (" << (g.rootName ? *g.rootName : "unnamed") << "):";
        for (ps::Value v : g.members)
            std::cout << " " << ids.name(v);
        std::cout << "\n";
    }
    std::cout << inplace.renames().size() << " shadow-output renames\n";
    for (const ps::ShadowOutputRename &r : inplace.renames())
        std::cout << "  " << ids.name(r.value) << ": " << r.from << " -> " << r.to << "\n";
}

} // namespace

int runInplace(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, {}, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli inplace FILE [--json]");
    auto program = loadForCli(cli.positional()[0]);
    if (!program)
        return 1;
    const ps::ValueNumbering ids(*program);
    const ps::InplaceGroups inplace(*program);
    if (cli.flag("json"))
        printInplaceJson(ids, inplace);
    else
        printInplaceText(ids, inplace);
    return 0;
}
