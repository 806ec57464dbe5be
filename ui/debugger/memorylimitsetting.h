#pragma once

#include <QString>

namespace ps {

/// The host-memory budget (MemoryBudget) as a GUI setting, kept in QSettings
/// ("debugger/maxMemory": "8G", "50%", or empty for the default). The sources dialog edits it;
/// the application restores it at start (`pirscope --max-memory` overrides it for one run).
class MemoryLimitSetting
{
public:
    /// The stored text (empty: the default).
    static QString stored();
    /// Parses `text` (empty: the default), applies it to MemoryBudget and stores it; false with
    /// `error` set (nothing changed) when it is not a size.
    static bool apply(const QString &text, QString *error = nullptr);
    /// Applies the stored setting (a malformed stored value falls back to the default).
    static void restore();
    /// "default: 18 GB": short enough for a field's placeholder.
    static QString defaultText();
    /// "Empty: 75% of the memory available at start (18 GB; 32 GB of RAM). 4G, 512M or 50%.":
    /// the note under the field, wrapped.
    static QString defaultNote();
    /// The limit in force, "18 GB".
    static QString currentText();
};

} // namespace ps
