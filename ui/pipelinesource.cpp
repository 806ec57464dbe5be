#include "ui/pipelinesource.h"

#include "core/io/programloader.h"
#include "core/ir/program.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

namespace ps {

namespace {

LoadResult loadAnyPath(const QString &path)
{
    if (!path.startsWith(QLatin1Char(':')))
        return loadProgram(path.toStdString());
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        LoadResult r;
        r.diagnostics.error(SourceLocation { path.toStdString(), 0, 0, {}, -1 }, "cannot open resource");
        return r;
    }
    const QByteArray bytes = file.readAll();
    return loadProgramFromString(
        std::string_view(bytes.constData(), size_t(bytes.size())), path.toStdString());
}

} // namespace

std::shared_ptr<const PipelineSource> PipelineSource::open(const QString &path, DiagnosticList &diagnostics)
{
    if (!path.startsWith(QLatin1Char(':')) && TraceBundle::isBundlePath(path.toStdString()))
        return fromBundle(path, diagnostics);
    QElapsedTimer timer;
    timer.start();
    LoadResult result = loadAnyPath(path);
    diagnostics.append(result.diagnostics);
    if (!result.ok())
        return nullptr;
    return fromProgram(std::move(result.program), path, result.format, timer.nsecsElapsed() / 1e9);
}

std::shared_ptr<const PipelineSource> PipelineSource::fromBundle(
    const QString &path, DiagnosticList &diagnostics)
{
    QElapsedTimer timer;
    timer.start();
    std::shared_ptr<const TraceBundle> bundle = TraceBundle::open(path.toStdString(), diagnostics);
    if (!bundle)
        return nullptr;
    LoadResult loaded = bundle->loadOrigin();
    diagnostics.append(loaded.diagnostics);
    if (!loaded.ok())
        return nullptr;
    const std::string file
        = bundle->filePath(loaded.format == LoadResult::Format::PirJson ? "program.json" : "program.txt");
    std::optional<ProgramRoles> roles = bundle->roles(*loaded.program, file, diagnostics);
    if (!roles)
        return nullptr;
    auto source = std::make_shared<PipelineSource>();
    source->kind = Kind::Bundle;
    source->path = QString::fromStdString(bundle->dir());
    source->title = QString::fromStdString(bundle->name());
    source->origin = std::move(loaded.program);
    source->format = loaded.format;
    source->roles = std::move(*roles);
    source->flavour = bundle->flavour();
    source->training = bundle->training();
    source->bundle = std::move(bundle);
    source->loadSeconds = timer.nsecsElapsed() / 1e9;
    return source;
}

std::shared_ptr<const PipelineSource> PipelineSource::fromProgram(
    std::unique_ptr<Program> program, const QString &path, LoadResult::Format format, double loadSeconds)
{
    auto source = std::make_shared<PipelineSource>();
    source->kind = Kind::Program;
    source->path = path;
    source->title = QFileInfo(path).fileName();
    source->roles = ProgramRoles::ofProgram(*program, ProgramRoles::OutputFallback::UnusedResults);
    source->origin = std::move(program);
    source->format = format;
    source->loadSeconds = loadSeconds;
    source->training = source->roles.trainLayout;
    return source;
}

} // namespace ps
