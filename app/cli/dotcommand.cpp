#include "cliarguments.h"
#include "commands.h"
#include "core/graph/dotwriter.h"
#include "core/graph/graphbuilder.h"
#include "core/ir/program.h"

#include <iostream>

int runDot(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, {}, {}, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli dot FILE");
    auto program = loadForCli(cli.positional()[0]);
    if (!program)
        return 1;
    const ps::GraphModel model = ps::GraphBuilder().build(*program);
    std::cout << ps::DotWriter::write(model);
    return 0;
}
