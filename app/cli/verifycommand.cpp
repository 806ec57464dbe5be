#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/verifier.h"
#include "core/ir/program.h"

#include <iostream>

int runVerify(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, {}, {}, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli verify FILE");
    const std::string path = cli.positional()[0];
    auto program = loadForCli(path);
    if (!program)
        return 1;
    ps::VerifyOptions options;
    options.file = path;
    const ps::DiagnosticList diagnostics = ps::verify(*program, options);
    for (const ps::Diagnostic &d : diagnostics.items())
        std::cerr << d.toString() << "\n";
    if (diagnostics.hasErrors()) {
        std::cerr << "error: " << path << ": " << diagnostics.errorCount() << " verifier error(s)\n";
        return 1;
    }
    std::cout << path << ": ok (" << program->numOpsTotal() << " ops, " << diagnostics.size()
              << " warning(s))\n";
    return 0;
}
