#include "core/session/pathkind.h"

#include "core/io/paddlepasslog.h"
#include "core/io/paddlerunlog.h"
#include "core/io/passdumpfolder.h"
#include "core/io/tracebundle.h"

#include <filesystem>

namespace ps {

PathKind classifyPath(const std::string &path)
{
    if (TraceBundle::isBundlePath(path))
        return PathKind::TraceBundle;
    if (PaddleRunLog::looksLikeRunLogPath(path))
        return PathKind::RunLog;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return PassDumpFolder::isDumpFolder(path) ? PathKind::PassDumpFolder : PathKind::Program;
    return PaddlePassLog::looksLikeLogFile(path) ? PathKind::PassLog : PathKind::Program;
}

bool opensAsTimeline(PathKind kind)
{
    return kind == PathKind::PassLog || kind == PathKind::PassDumpFolder;
}

} // namespace ps
