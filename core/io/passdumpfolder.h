#pragma once

#include "core/io/passlogindex.h"

#include <memory>
#include <string>

namespace ps {

/// Reads a folder of per-pass dumps into a PassLogIndex: one file per program, in natural
/// name order (`2_x` before `10_x`). A file's name says what it holds: after a leading number,
/// `before_P` / `after_P` (also `P.before` / `P.after`) is the program before / after pass P,
/// any other name is the program after a pass of that name (the first file is the input).
/// A file that is itself a pass log (PaddlePassLog::looksLikeLog) is read as one. Hidden files
/// and files without a program are skipped with a note.
class PassDumpFolder
{
public:
    /// Whether `path` is a folder holding at least one regular file.
    static bool isDumpFolder(const std::string &path);
    /// Null with the reason in `diagnostics` when the folder cannot be read or has no program.
    static std::shared_ptr<const PassLogIndex> index(const std::string &path, DiagnosticList &diagnostics);
    /// Orders names as people number files: digit runs compare by value.
    static bool naturalLess(const std::string &a, const std::string &b);
};

} // namespace ps
