#include "core/session/passlogopener.h"

#include "core/io/paddlepasslog.h"
#include "core/io/passdumpfolder.h"

#include <filesystem>

namespace ps {

std::shared_ptr<const PassLogIndex> PassLogOpener::index(const std::string &path, DiagnosticList &diagnostics)
{
    std::error_code ec;
    return std::filesystem::is_directory(path, ec) ? PassDumpFolder::index(path, diagnostics)
                                                   : PaddlePassLog::index(path, diagnostics);
}

} // namespace ps
