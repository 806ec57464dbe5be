#include "runsource.h"

#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/io/numbertext.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/backendfactory.h"
#include "core/session/debugsources.h"
#include "sourceoptions.h"
#include "trainmode.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

bool RunSource::sources(uint64_t seed, const std::vector<std::string> &shapeOptions, ps::DebugSources &out,
    std::string &error) const
{
    out = ps::DebugSources::defaultsFor(target);
    out.seed = seed;
    for (const std::string &option : shapeOptions) {
        auto assignment = ps::InputShapes::parseAssignment(option, error);
        if (!assignment) {
            error = "--shape " + error;
            return false;
        }
        out.shapes[assignment->first] = assignment->second;
    }
    return true;
}

bool RunSource::checkShapes(
    const ps::DebugSources &sources, std::vector<ps::InputShape> &shapes, std::string &error) const
{
    std::vector<std::string> errors;
    shapes = sources.inputShapes(target, errors);
    if (!errors.empty()) {
        error = "--shape " + errors.front();
        return false;
    }
    std::vector<ps::InputShape> missing;
    for (const ps::InputShape &s : shapes)
        if (!s.resolved())
            missing.push_back(s);
    if (!missing.empty()) {
        std::string give;
        for (const ps::InputShape &s : missing)
            give += " --shape " + ps::InputShapes::example(s);
        error = "dynamic dims need a shape: " + ps::InputShapes::unresolvedText(missing) + " ("
            + missing.front().note + "); give" + (missing.size() > 1 ? " them" : " it") + " with" + give
            + " (the sizes are examples)";
        return false;
    }
    return true;
}

bool RunSource::runOptions(const ps::DebugSources &sources, ps::ProgramRunner::Options &options,
    std::vector<ps::InputShape> &shapes, std::string &error) const
{
    return checkShapes(sources, shapes, error) && sources.applyTo(target, {}, options, error);
}

namespace {

std::vector<int64_t> fedShape(ps::ProgramRunner &runner, const std::string &name)
{
    const ps::RuntimeValue *v = runner.scope().find(name);
    return v && v->isTensor() && v->tensor().defined() ? v->tensor().shape() : std::vector<int64_t>();
}

} // namespace

std::string shapesSummary(const std::vector<ps::InputShape> &shapes, ps::ProgramRunner &runner)
{
    std::string out;
    for (const ps::InputShape &s : shapes) {
        if (!s.dynamic())
            continue;
        const std::vector<int64_t> fed = fedShape(runner, s.name);
        out += (out.empty() ? "" : "; ") + s.name + " "
            + ps::InputShapes::dimsText(fed.empty() ? s.shape : fed) + " ("
            + ps::InputShape::originText(s.origin) + (s.note.empty() ? "" : ": " + s.note) + ")";
    }
    return out;
}

void writeShapesJson(
    ps::JsonEmitter &json, const std::vector<ps::InputShape> &shapes, ps::ProgramRunner &runner)
{
    json.key("shapes").beginArray();
    for (const ps::InputShape &s : shapes) {
        json.beginObject().key("name").value(s.name);
        json.key("declared").beginArray();
        for (int64_t d : s.declared)
            json.value(d);
        json.endArray();
        json.key("shape").beginArray();
        const std::vector<int64_t> fed = fedShape(runner, s.name);
        for (int64_t d : fed.empty() ? s.shape : fed)
            json.value(d);
        json.endArray();
        json.key("origin").value(ps::InputShape::originKey(s.origin));
        json.key("note").value(s.note).endObject();
    }
    json.endArray();
}

bool applySourceOptions(const CliArguments &cli, ps::ProgramRunner::Options &options, std::string &error)
{
    uint64_t seed = 0;
    SourceOptions given;
    if (!SourceOptions::parseSeed(cli, seed, error) || !given.parse(cli, seed, error))
        return false;
    if (given.inputs)
        options.inputs = std::move(*given.inputs);
    if (given.params)
        options.params = std::move(*given.params);
    return true;
}

bool loadRunSource(const std::string &path, RunSource &out, std::string &error, bool train,
    const std::vector<std::string> &outputs)
{
    out.path = path;
    out.source = openForCli(path);
    if (!out.source)
        return false;
    out.target.bundle = out.source->bundle;
    out.target.programPath = path;
    if (!out.source->bundle) {
        out.target.program = out.source->origin;
        if (train) {
            std::optional<ps::PipelineResult> pipeline
                = plainTrainPipeline(*out.source->origin, ps::PipelineFlavour::Newest, outputs, error);
            if (!pipeline)
                return false;
            out.target.pipeline = std::make_shared<const ps::PipelineResult>(std::move(*pipeline));
        }
        ps::DiagnosticList warnings;
        out.target.findCompanions(warnings);
        printDiagnostics(warnings);
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

std::optional<ps::Device> deviceOption(const std::string &text, std::string &error)
{
    std::optional<ps::Device> device = ps::parseDevice(text, error);
    if (!device && text.starts_with("cuda:")) // a CUDA device with a bad index
        error = "--device " + text + ": " + error;
    return device;
}

std::string deviceUnavailable(const std::string &text, const std::string &reason)
{
    return "--device " + text + ": " + reason;
}

std::unique_ptr<ps::Backend> makeBackend(const std::string &text, std::string &error)
{
    const std::optional<ps::Device> device = deviceOption(text, error);
    if (!device)
        return nullptr;
    std::string reason;
    std::unique_ptr<ps::Backend> backend = ps::createBackend(*device, reason);
    if (!backend)
        error = deviceUnavailable(text, reason);
    return backend;
}

void printFallback(std::ostream &out, const std::map<std::string, size_t> &ops, const char *indent)
{
    size_t count = 0;
    std::string names;
    for (const auto &[name, n] : ops) {
        count += n;
        names += (names.empty() ? "" : ", ") + name + (n > 1 ? " x" + std::to_string(n) : std::string());
    }
    if (count > 0)
        out << indent << "fallback: " << count << " op" << (count == 1 ? "" : "s")
            << " ran on the CPU (no kernel on the device): " << names << "\n";
}

void writeFallbackJson(ps::JsonEmitter &json, const std::map<std::string, size_t> &ops)
{
    size_t count = 0;
    for (const auto &[name, n] : ops)
        count += n;
    json.key("fallback").beginObject().key("count").value(count).key("ops").beginObject();
    for (const auto &[name, n] : ops)
        json.key(name).value(n);
    json.endObject().endObject();
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
