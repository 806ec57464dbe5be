#pragma once

#include <string>
#include <string_view>

namespace ps {

/// Writes a whole file so that a reader never sees a torn one and the folder's contents cannot
/// redirect the write: the bytes go to a new, uniquely named file in the target's folder (opened
/// with O_CREAT | O_EXCL | O_NOFOLLOW, so never an existing file, a symlink or a FIFO planted
/// there), which is then renamed over the target. rename() replaces whatever has the target's
/// name, a symlink included (the file it pointed to stays untouched), and is atomic: two writers
/// of one path leave one complete file. The temporary file is removed on every failure.
class AtomicFile
{
public:
    /// False with `error` ("path: why") when the folder is not a directory, the target is a
    /// directory, or creating, writing or renaming fails.
    static bool write(const std::string &path, std::string_view bytes, std::string &error);
};

} // namespace ps
