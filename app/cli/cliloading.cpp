#include "commands.h"
#include "core/io/loadresult.h"
#include "core/io/programloader.h"

#include <iostream>

int cliError(const std::string &message)
{
    std::cerr << "error: " << message << "\n";
    return 1;
}

std::unique_ptr<ps::Program> loadForCli(const std::string &path, ps::LoadResult *out)
{
    ps::LoadResult result = ps::loadProgram(path);
    for (const ps::Diagnostic &d : result.diagnostics.items())
        std::cerr << d.toString() << "\n";
    if (!result.program || result.diagnostics.hasErrors()) {
        const ps::Diagnostic *first = result.diagnostics.firstError();
        std::cerr << "error: cannot load " << path
                  << (first ? " (" + first->location.toString() + ": " + first->message + ")" : std::string())
                  << "\n";
        return nullptr;
    }
    std::unique_ptr<ps::Program> program = std::move(result.program);
    if (out) {
        out->diagnostics = result.diagnostics;
        out->format = result.format;
    }
    return program;
}
