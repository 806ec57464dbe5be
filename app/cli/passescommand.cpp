#include "cliarguments.h"
#include "commands.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/transform/passmanager.h"
#include "jsonstream.h"

#include <iostream>
#include <sstream>

namespace {

std::vector<std::string> splitList(const std::string &list)
{
    std::vector<std::string> out;
    std::istringstream in(list);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

std::string passList(const ps::PassManager &pm)
{
    std::string out;
    for (const ps::Pass *p : pm.passes())
        out += std::string(out.empty() ? "" : ", ") + std::string(p->name()) + " (" + std::string(p->alias())
            + ")";
    return out;
}

void printOps(const char *sign, const std::vector<std::string> &ops, size_t limit)
{
    for (size_t i = 0; i < ops.size() && i < limit; ++i)
        std::cout << "    " << sign << " " << ops[i] << "\n";
    if (ops.size() > limit)
        std::cout << "    " << sign << " ... " << ops.size() - limit << " more (--all shows them)\n";
}

} // namespace

int runPasses(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json", "all", "print", "list" }, { "enable", "disable" }, error))
        return cliError(error);
    ps::PassManager pm = ps::PassManager::withDefaultPasses();
    if (cli.flag("list")) {
        for (const ps::Pass *p : pm.passes())
            std::cout << p->name() << "\t" << p->alias() << "\t" << (pm.isEnabled(p->name()) ? "on" : "off")
                      << "\t" << p->description() << "\n";
        return 0;
    }
    if (cli.positional().size() != 1)
        return cliError(
            "usage: pirscope-cli passes FILE [--enable a,b] [--disable c] [--json] [--all] [--print]");
    for (const auto &[option, enabled] : { std::pair("enable", true), std::pair("disable", false) }) {
        for (const std::string &name : splitList(cli.option(option).value_or(std::string()))) {
            if (!pm.setEnabled(name, enabled))
                return cliError("unknown pass '" + name + "'; passes: " + passList(pm));
        }
    }
    auto program = loadForCli(cli.positional()[0]);
    if (!program)
        return 1;
    pm.setRecordText(true);
    const std::vector<ps::PassRecord> records = pm.run(*program);

    if (cli.flag("json")) {
        JsonStream json(std::cout);
        json.beginObject().key("passes").beginArray();
        for (const ps::PassRecord &r : records) {
            json.beginObject();
            json.key("pass").value(r.pass);
            json.key("changed").value(r.changed());
            json.key("rewrites").value(r.rewrites);
            json.key("ops_before").value(r.opsBefore);
            json.key("ops_after").value(r.opsAfter);
            json.key("removed").value(r.removed);
            json.key("added").value(r.added);
            json.key("removed_ops").beginArray();
            for (const std::string &op : r.removedOps)
                json.value(op);
            json.endArray().key("added_ops").beginArray();
            for (const std::string &op : r.addedOps)
                json.value(op);
            json.endArray().endObject();
        }
        json.endArray();
        if (cli.flag("print"))
            json.key("program").value(ps::PirPrinter::toString(*program));
        json.endObject();
        json.finish();
        return 0;
    }
    if (records.empty())
        std::cout << "no pass enabled; passes: " << passList(pm) << "\n";
    const size_t limit = cli.flag("all") ? size_t(-1) : 10;
    for (const ps::PassRecord &r : records) {
        std::cout << r.pass << ": ";
        if (!r.changed()) {
            std::cout << "no change (" << r.opsBefore << " ops)\n";
            continue;
        }
        std::cout << r.rewrites << " rewrites, ops " << r.opsBefore << " -> " << r.opsAfter << " (-"
                  << r.removed << " +" << r.added << ")\n";
        printOps("-", r.removedOps, limit);
        printOps("+", r.addedOps, limit);
    }
    if (cli.flag("print"))
        ps::PirPrinter::print(*program, std::cout);
    return 0;
}
