#pragma once

#include <QString>

namespace ps {

/// The folder each kind of file dialog starts in: the one last used for that kind (kept in
/// QSettings under "directories/<kind>"), else the user's home. Kinds: "programs" (open a program
/// or bundle), "images" (graph exports), "arrays" (.npy export, comparison, provided outputs),
/// "inputs" (the debugger's input and parameter sources).
struct DialogDirectory
{
    static QString get(const QString &kind);
    /// Remembers the folder of `path` (a file, or a folder itself).
    static void remember(const QString &kind, const QString &path);
    /// `fileName` inside get(kind), for save dialogs.
    static QString suggest(const QString &kind, const QString &fileName);
};

} // namespace ps
