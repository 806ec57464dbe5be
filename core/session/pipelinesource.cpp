#include "core/session/pipelinesource.h"

#include "core/analysis/verifier.h"
#include "core/dialect/ops.h"
#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/session/bundleprograms.h"
#include "core/transform/partialprogram.h"

#include <chrono>
#include <filesystem>

namespace ps {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::shared_ptr<const PipelineSource> fromLoad(LoadResult result, const std::string &path,
    DiagnosticList &diagnostics, std::chrono::steady_clock::time_point start)
{
    diagnostics.append(result.diagnostics);
    if (!result.ok() || !verifyBeforeUse(*result.program, path, diagnostics))
        return nullptr;
    return PipelineSource::fromProgram(std::move(result.program), path, result.format, secondsSince(start));
}

} // namespace

std::shared_ptr<const PipelineSource> PipelineSource::open(
    const std::string &path, DiagnosticList &diagnostics)
{
    return open(path, classifyPath(path), diagnostics);
}

std::shared_ptr<const PipelineSource> PipelineSource::open(
    const std::string &path, PathKind kind, DiagnosticList &diagnostics)
{
    if (kind == PathKind::TraceBundle)
        return fromBundle(path, diagnostics);
    const auto start = std::chrono::steady_clock::now();
    return fromLoad(loadProgram(path), path, diagnostics, start);
}

std::shared_ptr<const PipelineSource> PipelineSource::openBytes(
    std::string_view bytes, const std::string &path, DiagnosticList &diagnostics)
{
    const auto start = std::chrono::steady_clock::now();
    return fromLoad(loadProgramFromString(bytes, path), path, diagnostics, start);
}

std::shared_ptr<const PipelineSource> PipelineSource::fromBundle(
    const std::string &path, DiagnosticList &diagnostics)
{
    const auto start = std::chrono::steady_clock::now();
    std::shared_ptr<const TraceBundle> bundle = TraceBundle::open(path, diagnostics);
    if (!bundle)
        return nullptr;
    LoadResult loaded = bundle->loadOrigin();
    diagnostics.append(loaded.diagnostics);
    if (!loaded.ok() || !verifyBeforeUse(*loaded.program, bundle->originFile(loaded), diagnostics))
        return nullptr;
    std::optional<ProgramRoles> roles
        = BundlePrograms::roles(*bundle, *loaded.program, bundle->originFile(loaded), diagnostics);
    if (!roles)
        return nullptr;
    auto source = std::make_shared<PipelineSource>();
    source->kind = Kind::Bundle;
    source->path = bundle->dir();
    source->title = bundle->name();
    source->origin = std::move(loaded.program);
    source->format = loaded.format;
    source->roles = std::move(*roles);
    source->flavour = bundle->flavour();
    source->training = bundle->training();
    source->bundle = std::move(bundle);
    source->loadSeconds = secondsSince(start);
    return source;
}

std::shared_ptr<const PipelineSource> PipelineSource::fromProgram(
    std::unique_ptr<Program> program, const std::string &path, LoadResult::Format format, double loadSeconds)
{
    auto source = std::make_shared<PipelineSource>();
    source->kind = Kind::Program;
    source->path = path;
    source->title = std::filesystem::path(path).filename().string();
    source->roles = ProgramRoles::ofProgram(*program, ProgramRoles::OutputFallback::UnusedResults);
    source->origin = std::move(program);
    source->format = format;
    source->loadSeconds = loadSeconds;
    source->training = source->roles.trainLayout;
    return source;
}

PipelineResult PipelineSource::buildPipeline(
    bool training, const PassSwitches &passes, std::vector<PassInfo> *passInfo) const
{
    std::unique_ptr<PartialProgramLayer> layer = roles.makeLayer(*origin, flavour);
    for (const auto &[name, on] : passes)
        layer->passManager().setEnabled(name, on);
    if (passInfo)
        for (const Pass *p : layer->passManager().passes())
            passInfo->push_back({ std::string(p->name()), std::string(p->alias()),
                std::string(p->description()), layer->passManager().isEnabled(p->name()) });
    return layer->snapshot(training);
}

std::optional<PipelineResult> PipelineSource::paddlePipeline(DiagnosticList &diagnostics) const
{
    if (!bundle) {
        diagnostics.error(SourceLocation { path, 0, 0, {}, -1 }, "not a trace bundle");
        return std::nullopt;
    }
    std::unique_ptr<PartialProgramLayer> layer = roles.makeLayer(*origin, flavour);
    bool train = false;
    if (bundle->training() && bundle->trainNames()) {
        std::optional<RunnableProgram> program = BundlePrograms::paddleTrainProgram(*bundle, diagnostics);
        if (!program)
            return std::nullopt;
        layer->useTrainProgram(std::move(*program));
        train = true;
    }
    PipelineResult result = layer->snapshot(train);
    if (!result.ok()) {
        for (const std::string &d : result.diagnostics)
            diagnostics.error(SourceLocation { path, 0, 0, {}, -1 }, d);
        return std::nullopt;
    }
    return result;
}

PipelineSource::SplitInput PipelineSource::splitInput(
    std::optional<PipelineFlavour> flavourChoice, DiagnosticList &diagnostics) const
{
    SplitInput out;
    const PipelineFlavour f = flavourChoice.value_or(flavour);
    if (!bundle) {
        bool train = false;
        out.runnable = std::make_unique<RunnableProgram>(ProgramRoles::runnable(origin->clone(), f, &train));
        out.kind = train ? "train" : "inference";
        return out;
    }
    const std::filesystem::path dir = bundle->dir();
    std::error_code ec;
    const bool train = bundle->trainNames() && std::filesystem::exists(dir / "train_program.txt", ec);
    const std::string file = (dir / (train ? "train_program.txt" : "origin_runnable_program.txt")).string();
    LoadResult loaded = loadProgram(file);
    diagnostics.append(loaded.diagnostics);
    if (!loaded.ok() || !verifyBeforeUse(*loaded.program, file, diagnostics))
        return out;
    if (train) {
        out.kind = "bundle";
        out.runnable = std::make_unique<RunnableProgram>(
            BundlePrograms::paddleTrainProgram(*bundle, std::move(loaded.program), f));
        return out;
    }
    out.kind = "inference";
    RunnableProgram::Names n;
    for (const Operation *op : loaded.program->block().ops()) {
        if (ops::isData(*op))
            n.x.push_back(op->stringAttribute("name"));
        else if (ops::isShadowOutput(*op))
            n.out.push_back(op->stringAttribute("output_name"));
    }
    out.runnable = std::make_unique<RunnableProgram>(
        std::move(loaded.program), std::move(n), std::nullopt, std::nullopt, f);
    return out;
}

} // namespace ps
