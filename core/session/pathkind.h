#pragma once

#include <string>

namespace ps {

/// What a path names, decided in one place for the GUI and every CLI command: the kind says
/// which reader opens it. A new kind of input is one more enumerator here and one more test in
/// classifyPath.
enum class PathKind {
    /// A PIR program file (JSON or text), or anything the other kinds do not claim (a missing
    /// file, a folder without files): the program reader says why it cannot be read.
    Program,
    /// A trace bundle: a folder holding manifest.json, or a path whose file name is
    /// manifest.json (TraceBundle::isBundlePath).
    TraceBundle,
    /// A Paddle pass log (FLAGS_print_ir output): a file whose first 64 KiB look like one
    /// (PaddlePassLog::looksLikeLogFile).
    PassLog,
    /// A folder of per-pass program dumps: a folder with at least one file that is not a trace
    /// bundle (PassDumpFolder::isDumpFolder).
    PassDumpFolder,
    /// A Paddle run log (FLAGS_check_nan_inf_level=3 `[PRECISION]` records): a file whose first
    /// 64 KiB hold a record, or a folder of `worker_*` files that set_nan_inf_debug_path wrote
    /// (PaddleRunLog::looksLikeRunLogPath). It is read beside a program or bundle of the same run.
    RunLog,
};

/// The kind of `path`, tested in the order TraceBundle, RunLog, PassDumpFolder, PassLog, Program. Cost:
/// a few stat calls; a regular file is opened and its first 64 KiB read (FIFOs and devices are
/// not read: Program).
PathKind classifyPath(const std::string &path);
/// Whether `kind` opens as a pass timeline (the Passes tab, `pirscope-cli passlog`), not as a
/// program: PassLog and PassDumpFolder.
bool opensAsTimeline(PathKind kind);

} // namespace ps
