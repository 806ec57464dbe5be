#include "core/io/atomicfile.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace ps {
namespace {

namespace fs = std::filesystem;

std::string why(const std::string &path, const std::string &what)
{
    return path + ": " + what + ": " + std::strerror(errno);
}

/// A name no other writer picks: the process, a counter and the clock.
std::string temporaryName(const std::string &target)
{
    static std::atomic<uint64_t> counter { 0 };
    const auto ticks = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    return "." + target.substr(0, 160) + ".tmp-" + std::to_string(::getpid()) + "-"
        + std::to_string(counter++) + "-" + std::to_string(ticks % 1000000007);
}

bool writeAll(int fd, std::string_view bytes)
{
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += size_t(n);
    }
    return true;
}

} // namespace

bool AtomicFile::write(const std::string &path, std::string_view bytes, std::string &error)
{
    const fs::path target(path);
    const std::string name = target.filename().string();
    if (name.empty() || name == "." || name == "..") {
        error = path + ": not a file name";
        return false;
    }
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat st
    {
    };
    if (::stat(folder.c_str(), &st) != 0) {
        error = why(folder.string(), "cannot use the folder");
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        error = folder.string() + ": not a directory";
        return false;
    }
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        error = path + ": is a directory";
        return false;
    }
    std::string temporary;
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
        temporary = (folder / temporaryName(name)).string();
        fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            error = why(temporary, "cannot create");
            return false;
        }
    }
    if (fd < 0) {
        error = why(temporary, "cannot create");
        return false;
    }
    const bool written = writeAll(fd, bytes);
    const int writeErrno = errno;
    const bool closed = ::close(fd) == 0;
    if (!written || !closed) {
        errno = written ? errno : writeErrno;
        error = why(path, "write failed");
        ::unlink(temporary.c_str());
        return false;
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        error = why(path, "cannot replace");
        ::unlink(temporary.c_str());
        return false;
    }
    return true;
}

} // namespace ps
