#include "runsource.h"

#include "commands.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/transform/partialprogram.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace {

void printDiagnostics(const ps::DiagnosticList &diagnostics)
{
    for (const ps::Diagnostic &d : diagnostics.items())
        std::cerr << d.toString() << "\n";
}

} // namespace

std::unique_ptr<ps::ProgramRunner> RunSource::makeRunner(ps::Backend &backend) const
{
    if (pipeline)
        return std::make_unique<ps::ProgramRunner>(*pipeline, backend);
    return std::make_unique<ps::ProgramRunner>(program, backend);
}

ps::ProgramRunner::Options RunSource::defaultOptions(uint64_t seed) const
{
    ps::ProgramRunner::Options options;
    options.inputs = ps::TensorSource::random(seed);
    options.params = ps::TensorSource::random(seed);
    if (bundle) {
        options.inputs = ps::TensorSource::npyDirectory(bundle->filePath("inputs"));
        options.params = ps::TensorSource::npyDirectory(bundle->filePath("params"));
        for (const auto &[index, file] : bundle->outputGradFiles())
            options.outputGradFiles[index] = bundle->filePath(file);
    }
    return options;
}

bool loadRunSource(const std::string &path, RunSource &out, std::string &error)
{
    out.path = path;
    if (!ps::TraceBundle::isBundlePath(path)) {
        auto program = loadForCli(path);
        if (!program)
            return false;
        out.program = std::shared_ptr<const ps::Program>(std::move(program));
        return true;
    }
    ps::DiagnosticList diagnostics;
    out.bundle = ps::TraceBundle::open(path, diagnostics);
    if (!out.bundle) {
        printDiagnostics(diagnostics);
        error = "cannot open the trace bundle " + path;
        return false;
    }
    auto layer = out.bundle->makeLayer(diagnostics);
    if (!layer) {
        printDiagnostics(diagnostics);
        error = "cannot build the dy2static layer of " + path;
        return false;
    }
    bool training = false;
    if (out.bundle->training() && out.bundle->trainNames()) {
        std::optional<ps::RunnableProgram> train = out.bundle->paddleTrainProgram(diagnostics);
        if (!train) {
            printDiagnostics(diagnostics);
            error = "cannot read the train program of " + path;
            return false;
        }
        layer->useTrainProgram(std::move(*train));
        training = true;
    }
    ps::PipelineResult result = layer->snapshot(training);
    if (!result.ok()) {
        for (const std::string &d : result.diagnostics)
            std::cerr << "error: " << d << "\n";
        error = "the dy2static pipeline failed on " + path;
        return false;
    }
    out.program = result.forward;
    out.pipeline = std::move(result);
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
