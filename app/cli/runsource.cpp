#include "runsource.h"

#include "commands.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/session/debugsources.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

ps::ProgramRunner::Options RunSource::defaultOptions(uint64_t seed) const
{
    ps::ProgramRunner::Options options;
    ps::DebugSources sources = ps::DebugSources::defaultsFor(target);
    sources.seed = seed;
    std::string error;
    // The defaults name no file that could be missing: a bundle's folders are checked per tensor.
    sources.applyTo(target, {}, options, error);
    return options;
}

bool loadRunSource(const std::string &path, RunSource &out, std::string &error)
{
    out.path = path;
    out.source = openForCli(path);
    if (!out.source)
        return false;
    out.target.bundle = out.source->bundle;
    out.target.programPath = path;
    if (!out.source->bundle) {
        out.target.program = out.source->origin;
        return true;
    }
    ps::DiagnosticList diagnostics;
    std::optional<ps::PipelineResult> pipeline = out.source->paddlePipeline(diagnostics);
    printDiagnostics(diagnostics);
    if (!pipeline) {
        error = "the dy2static pipeline failed on " + path;
        return false;
    }
    out.target.pipeline = std::make_shared<const ps::PipelineResult>(std::move(*pipeline));
    return true;
}

std::unique_ptr<ps::Backend> makeBackend(const std::string &device, std::string &error)
{
    if (device == "cpu")
        return ps::createCpuBackend();
    if (device == "cuda" || device.rfind("cuda:", 0) == 0) {
        const int index = device.size() > 5 ? std::atoi(device.c_str() + 5) : 0;
        std::string reason;
        auto backend = ps::createCudaBackend(index, reason);
        if (!backend)
            error = "--device " + device + ": " + reason;
        return backend;
    }
    error = "unknown device '" + device + "' (cpu, cuda, cuda:N)";
    return nullptr;
}

std::string tensorSummary(ps::Backend &backend, const ps::Tensor &t)
{
    if (!t.defined())
        return "<none>";
    const ps::TensorStats s = backend.stats(t, 0);
    char buffer[160];
    std::snprintf(
        buffer, sizeof buffer, " min %.6g max %.6g mean %.6g std %.6g", s.min, s.max, s.mean, s.std);
    std::string out = t.describe() + buffer;
    if (s.nanCount)
        out += " nan " + std::to_string(s.nanCount);
    if (s.posInfCount)
        out += " +inf " + std::to_string(s.posInfCount);
    if (s.negInfCount)
        out += " -inf " + std::to_string(s.negInfCount);
    return out;
}

std::string fileNameFor(const std::string &name)
{
    std::string out = name;
    for (char &c : out)
        if (c == '/' || c == '\\' || c == ':' || c == ' ')
            c = '_';
    return out.empty() ? std::string("_") : out;
}
