#include "ui/debugger/memorylimitsetting.h"

#include "core/io/memorybudget.h"
#include "core/ir/shapesize.h"

#include <QSettings>

namespace ps {
namespace {

const QString kKey = QStringLiteral("debugger/maxMemory");

} // namespace

QString MemoryLimitSetting::stored()
{
    return QSettings().value(kKey).toString();
}

bool MemoryLimitSetting::apply(const QString &text, QString *error)
{
    const QString trimmed = text.trimmed();
    uint64_t bytes = 0;
    if (!trimmed.isEmpty()) {
        std::string why;
        const std::optional<uint64_t> parsed = MemoryBudget::parseSize(trimmed.toStdString(), why);
        if (!parsed) {
            if (error)
                *error = QObject::tr("Memory limit: %1").arg(QString::fromStdString(why));
            return false;
        }
        bytes = *parsed;
    }
    MemoryBudget::setLimit(bytes);
    QSettings settings;
    if (trimmed.isEmpty())
        settings.remove(kKey);
    else
        settings.setValue(kKey, trimmed);
    return true;
}

void MemoryLimitSetting::restore()
{
    std::string why;
    const std::optional<uint64_t> bytes = MemoryBudget::parseSize(stored().toStdString(), why);
    MemoryBudget::setLimit(stored().isEmpty() || !bytes ? 0 : *bytes);
}

QString MemoryLimitSetting::defaultText()
{
    return QObject::tr("default: %1")
        .arg(QString::fromStdString(ShapeSize::formatBytes(MemoryBudget::defaultLimit())));
}

QString MemoryLimitSetting::defaultNote()
{
    return QObject::tr("Empty: 75% of the memory available at start (%1; %2 of RAM). 4G, 512M or 50%.")
        .arg(QString::fromStdString(ShapeSize::formatBytes(MemoryBudget::defaultLimit())),
            QString::fromStdString(ShapeSize::formatBytes(MemoryBudget::physicalMemory())));
}

QString MemoryLimitSetting::currentText()
{
    return QString::fromStdString(ShapeSize::formatBytes(MemoryBudget::limit()));
}

} // namespace ps
