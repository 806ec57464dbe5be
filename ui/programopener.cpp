#include "ui/programopener.h"

#include <QFile>

namespace ps {

namespace {

bool isResource(const QString &path)
{
    return path.startsWith(QLatin1Char(':'));
}

} // namespace

PathKind ProgramOpener::kindOf(const QString &path)
{
    return isResource(path) ? PathKind::Program : classifyPath(path.toStdString());
}

std::shared_ptr<const PipelineSource> ProgramOpener::open(
    const QString &path, PathKind kind, DiagnosticList &diagnostics)
{
    if (!isResource(path))
        return PipelineSource::open(path.toStdString(), kind, diagnostics);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        diagnostics.error(SourceLocation { path.toStdString(), 0, 0, {}, -1 }, "cannot open resource");
        return nullptr;
    }
    const QByteArray bytes = file.readAll();
    return PipelineSource::openBytes(
        std::string_view(bytes.constData(), size_t(bytes.size())), path.toStdString(), diagnostics);
}

} // namespace ps
