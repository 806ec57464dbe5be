#include "commands.h"
#include "core/analysis/verifier.h"
#include "core/io/loadresult.h"
#include "core/io/programloader.h"
#include "core/session/pathkind.h"
#include "core/session/pipelinesource.h"

#include <iostream>

int cliError(const std::string &message)
{
    std::cerr << "error: " << message << "\n";
    return 1;
}

void printDiagnostics(const ps::DiagnosticList &diagnostics)
{
    for (const ps::Diagnostic &d : diagnostics.items())
        std::cerr << d.toString() << "\n";
}

namespace {

/// The closing line after the diagnostics were printed; it repeats the first error only when
/// other lines came between (a lone diagnostic, or a lone error followed by notes such as the
/// verifier's, would otherwise be printed twice).
void cannotLoad(const std::string &path, const ps::DiagnosticList &diagnostics)
{
    const ps::Diagnostic *first = diagnostics.firstError();
    bool others = false;
    bool afterFirst = false;
    for (const ps::Diagnostic &d : diagnostics.items()) {
        if (&d == first)
            afterFirst = true;
        else if (!(afterFirst && d.severity == ps::Diagnostic::Severity::Note))
            others = true;
    }
    if (!others)
        first = nullptr;
    std::cerr << "error: cannot "
              << (ps::classifyPath(path) == ps::PathKind::TraceBundle ? "open the trace bundle " : "load ")
              << path
              << (first ? " (" + first->location.toString() + ": " + first->message + ")" : std::string())
              << "\n";
}

} // namespace

std::shared_ptr<const ps::PipelineSource> openForCli(const std::string &path)
{
    ps::DiagnosticList diagnostics;
    std::shared_ptr<const ps::PipelineSource> source = ps::PipelineSource::open(path, diagnostics);
    printDiagnostics(diagnostics);
    if (!source)
        cannotLoad(path, diagnostics);
    return source;
}

std::unique_ptr<ps::Program> loadForCli(const std::string &path, ps::LoadResult *out, LoadCheck check)
{
    ps::LoadResult result = ps::loadProgram(path);
    if (result.ok() && check == LoadCheck::Verified)
        ps::verifyBeforeUse(*result.program, path, result.diagnostics);
    printDiagnostics(result.diagnostics);
    if (!result.program || result.diagnostics.hasErrors()) {
        cannotLoad(path, result.diagnostics);
        return nullptr;
    }
    std::unique_ptr<ps::Program> program = std::move(result.program);
    if (out) {
        out->diagnostics = result.diagnostics;
        out->format = result.format;
    }
    return program;
}
