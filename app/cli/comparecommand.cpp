#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/programdiff.h"
#include "core/io/jsonemitter.h"
#include "core/ir/program.h"

#include <iostream>

namespace {

void printCompareJson(const ps::ProgramDifference &d)
{
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject();
    json.key("equal").value(d.equal);
    json.key("ops_a").value(d.opsA);
    json.key("ops_b").value(d.opsB);
    if (!d.equal) {
        json.key("difference").value(d.message);
        json.key("op_index");
        if (d.opIndex >= 0)
            json.value(int64_t(d.opIndex));
        else
            json.null();
        json.key("op_a").value(d.opTextA);
        json.key("op_b").value(d.opTextB);
    }
    json.endObject();
    json.finish();
}

void printCompareText(const ps::ProgramDifference &d, const std::string &a, const std::string &b)
{
    std::cout << d.toString(a, b);
    if (d.equal)
        std::cout << "\n";
}

} // namespace

int runCompare(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, {}, error)) {
        cliError(error);
        return 2;
    }
    if (cli.positional().size() != 2) {
        cliError("usage: pirscope-cli compare A B [--json]");
        return 2;
    }
    const std::string &a = cli.positional()[0];
    const std::string &b = cli.positional()[1];
    auto programA = loadForCli(a);
    auto programB = programA ? loadForCli(b) : nullptr;
    if (!programA || !programB)
        return 2;
    const ps::ProgramDifference d = ps::ProgramDiff::compare(*programA, *programB);
    if (cli.flag("json"))
        printCompareJson(d);
    else
        printCompareText(d, a, b);
    return d.equal ? 0 : 1;
}
