#include "ui/common/dialogdirectory.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace ps {

namespace {

QString key(const QString &kind)
{
    return QStringLiteral("directories/") + kind;
}

} // namespace

QString DialogDirectory::get(const QString &kind)
{
    const QString dir = QSettings().value(key(kind)).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

void DialogDirectory::remember(const QString &kind, const QString &path)
{
    if (path.isEmpty() || path.startsWith(QLatin1Char(':')))
        return;
    const QFileInfo info(path);
    QSettings().setValue(key(kind), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString DialogDirectory::suggest(const QString &kind, const QString &fileName)
{
    return QDir(get(kind)).filePath(fileName);
}

} // namespace ps
