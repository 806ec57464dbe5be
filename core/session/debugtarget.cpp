#include "core/session/debugtarget.h"

#include "core/ir/program.h"
#include "core/runtime/programrunner.h"
#include "core/session/inferenceconfig.h"
#include "core/session/runprogramsplit.h"
#include "core/transform/pipelineresult.h"

#include <filesystem>

namespace ps {

std::vector<const Program *> DebugTarget::programs() const
{
    if (pipeline) {
        std::vector<const Program *> out { pipeline->forward.get() };
        if (pipeline->backward && pipeline->backward->numOps() > 0)
            out.push_back(pipeline->backward.get());
        return out;
    }
    if (program)
        return { program.get() };
    return {};
}

const Program *DebugTarget::inputProgram() const
{
    return pipeline ? pipeline->forward.get() : program.get();
}

std::unique_ptr<ProgramRunner> DebugTarget::makeRunner(Backend &backend) const
{
    if (pipeline)
        return std::make_unique<ProgramRunner>(runProgramSplit(*pipeline), backend);
    return std::make_unique<ProgramRunner>(program, backend);
}

void DebugTarget::findCompanions(DiagnosticList &warnings)
{
    pdiparamsPath = pdiparamsNextTo(programPath);
    DiagnosticList diagnostics;
    config = InferenceConfig::nextTo(programPath, diagnostics);
    for (const Diagnostic &d : diagnostics.items())
        warnings.warning(d.location,
            d.severity == Diagnostic::Severity::Error
                ? d.message + " (the file's input shape defaults are not used)"
                : d.message);
}

std::string DebugTarget::pdiparamsNextTo(const std::string &programPath)
{
    if (programPath.empty())
        return {};
    std::filesystem::path candidate(programPath);
    candidate.replace_extension(".pdiparams");
    std::error_code ec;
    return std::filesystem::is_regular_file(candidate, ec) ? candidate.string() : std::string();
}

} // namespace ps
