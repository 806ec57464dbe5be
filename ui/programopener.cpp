#include "ui/programopener.h"

#include <QFile>

namespace ps {

std::shared_ptr<const PipelineSource> ProgramOpener::open(const QString &path, DiagnosticList &diagnostics)
{
    if (!path.startsWith(QLatin1Char(':')))
        return PipelineSource::open(path.toStdString(), diagnostics);
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
