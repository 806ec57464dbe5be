#include "cliarguments.h"
#include "commands.h"
#include "core/ir/pirprinter.h"
#include "core/ir/pirtextformat.h"
#include "core/ir/program.h"

#include <iostream>

int runPrint(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, {}, { "gen" }, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli print FILE [--gen B|C]");
    ps::Generation gen = ps::Generation::C;
    if (auto g = cli.option("gen")) {
        if (*g == "B" || *g == "b")
            gen = ps::Generation::B;
        else if (*g != "C" && *g != "c")
            return cliError("--gen takes B or C, not '" + *g + "'");
    }
    auto program = loadForCli(cli.positional()[0], nullptr, LoadCheck::Readable);
    if (!program)
        return 1;
    ps::PirPrinter::print(*program, std::cout, gen);
    return 0;
}
