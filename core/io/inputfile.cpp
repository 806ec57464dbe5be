#include "core/io/inputfile.h"

#include "core/io/memorybudget.h"
#include "core/ir/diagnostic.h"
#include "core/ir/shapesize.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ps {
namespace {

/// simdjson's SIMDJSON_PADDING (PirJsonReader::paddingBytes()); smaller only costs the copy back.
constexpr size_t kReadPadding = 64;

namespace fs = std::filesystem;

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "is a directory, not a file";
    if (S_ISFIFO(mode))
        return "is a FIFO (named pipe), not a regular file";
    if (S_ISCHR(mode))
        return "is a character device, not a regular file";
    if (S_ISBLK(mode))
        return "is a block device, not a regular file";
    if (S_ISSOCK(mode))
        return "is a socket, not a regular file";
    return "is not a regular file";
}

} // namespace

std::string InputFile::displayName(const std::string &path)
{
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(path, ec)))
        return path;
    const fs::path resolved = fs::canonical(path, ec);
    if (ec)
        return path + " (a symlink to " + fs::read_symlink(path, ec).string() + ")";
    return path + " (-> " + resolved.string() + ")";
}

std::string InputFile::splitError(const std::string &error, std::string &file)
{
    // Messages are "NAME: what"; NAME may itself hold ": " only inside "(-> ...)".
    size_t from = 0;
    if (const size_t arrow = error.find(" (-> "); arrow != std::string::npos)
        from = error.find(')', arrow);
    const size_t colon = error.find(": ", from == std::string::npos ? 0 : from);
    if (colon == std::string::npos)
        return error;
    file = error.substr(0, colon);
    return error.substr(colon + 2);
}

void InputFile::report(const std::string &error, const std::string &path, DiagnosticList &diagnostics)
{
    SourceLocation loc;
    loc.file = path;
    std::string message = splitError(error, loc.file);
    diagnostics.error(std::move(loc), std::move(message));
}

InputFile::InputFile(int fd, std::string path, uint64_t size)
    : m_fd(fd)
    , m_path(std::move(path))
    , m_size(size)
{
}

InputFile::InputFile(InputFile &&other) noexcept
    : m_fd(std::exchange(other.m_fd, -1))
    , m_path(std::move(other.m_path))
    , m_size(other.m_size)
    , m_position(other.m_position)
{
}

InputFile &InputFile::operator=(InputFile &&other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = std::exchange(other.m_fd, -1);
        m_path = std::move(other.m_path);
        m_size = other.m_size;
        m_position = other.m_position;
    }
    return *this;
}

InputFile::~InputFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

std::optional<InputFile> InputFile::open(const std::string &path, std::string &error)
{
    if (path.empty()) {
        error = "no file name given";
        return std::nullopt;
    }
    // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting for one.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        const int e = errno;
        if (e == ELOOP)
            error = path + ": is a symlink loop (too many levels of symbolic links)";
        else if (e == ENOENT)
            error = displayName(path) + ": does not exist";
        else if (e == ENOTDIR)
            error = path + ": a part of the path is not a directory";
        else
            error = displayName(path) + ": cannot be opened: " + std::strerror(e);
        return std::nullopt;
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0) {
        error = displayName(path) + ": cannot be read: " + std::strerror(errno);
        ::close(fd);
        return std::nullopt;
    }
    if (!S_ISREG(st.st_mode)) {
        error = displayName(path) + ": " + kindOf(st.st_mode);
        ::close(fd);
        return std::nullopt;
    }
    // Back to blocking reads for the regular file.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return InputFile(fd, path, uint64_t(st.st_size));
}

bool InputFile::readAt(uint64_t offset, void *out, uint64_t n, std::string &error)
{
    m_position = std::min(offset, m_size);
    return read(out, n, error);
}

bool InputFile::read(void *out, uint64_t n, std::string &error)
{
    if (n > remaining()) {
        error = displayName(m_path) + ": reading " + std::to_string(n) + " bytes at byte "
            + std::to_string(m_position) + " passes the end of the file (" + std::to_string(m_size)
            + " bytes)";
        return false;
    }
    auto *p = static_cast<char *>(out);
    uint64_t left = n;
    while (left > 0) {
        const size_t chunk = size_t(std::min<uint64_t>(left, uint64_t(1) << 30));
        const ssize_t got = ::pread(m_fd, p, chunk, off_t(m_position));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            error = displayName(m_path) + ": "
                + (got == 0
                        ? "the file ended at byte " + std::to_string(m_position) + " (it shrank while read)"
                        : std::string("read failed: ") + std::strerror(errno));
            return false;
        }
        p += got;
        left -= uint64_t(got);
        m_position += uint64_t(got);
    }
    return true;
}

bool InputFile::fitsInMemory(uint64_t maxBytes, std::string &error) const
{
    if (m_size > maxBytes) {
        error = displayName(m_path) + ": " + ShapeSize::formatBytes(m_size) + ", more than the "
            + ShapeSize::formatBytes(maxBytes) + " such a file may have";
        return false;
    }
    std::string why;
    if (!MemoryBudget::fits(m_size, why)) {
        error = displayName(m_path) + ": reading it " + why;
        return false;
    }
    return true;
}

std::optional<std::string> InputFile::readAll(const std::string &path, uint64_t maxBytes, std::string &error)
{
    std::optional<InputFile> file = open(path, error);
    if (!file)
        return std::nullopt;
    if (!file->fitsInMemory(maxBytes, error))
        return std::nullopt;
    // Room for simdjson's padding past the end, so PIR JSON is parsed where it lies
    // (loadProgramFromBuffer) instead of being copied into a padded buffer.
    // The padding is zeroed (allocated by a longer size, then cut): never uninitialised memory.
    std::string content(size_t(file->size()) + kReadPadding, '\0');
    content.resize(size_t(file->size()));
    if (!file->read(content.data(), content.size(), error))
        return std::nullopt;
    return content;
}

} // namespace ps
