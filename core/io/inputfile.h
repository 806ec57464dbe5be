#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ps {

class DiagnosticList;

/// The one way PIRScope opens a file it reads (programs, manifests, .npy, .pdiparams, images):
/// regular files only, size known before the first byte is read, reads bounded by that size, a
/// per-kind limit and the MemoryBudget. Anything else is an error that names the path (and the
/// symlink target it resolves to) and says what it is: "is a directory", "is a FIFO (named pipe)",
/// "is a character device", "is a symlink loop", "does not exist", "cannot be read: Permission
/// denied". Opening never blocks: FIFOs and devices are refused after a non-blocking open.
/// Qt-free; move-only (owns a file descriptor).
class InputFile
{
public:
    /// Per-kind size limits (bytes) the readers pass to readAll().
    static constexpr uint64_t kProgramLimit = uint64_t(4) << 30; ///< simdjson's maximum document
    static constexpr uint64_t kManifestLimit = uint64_t(64) << 20;
    static constexpr uint64_t kImageLimit = uint64_t(1) << 30;
    static constexpr uint64_t kNoLimit = UINT64_MAX; ///< the MemoryBudget alone limits

    InputFile(InputFile &&other) noexcept;
    InputFile &operator=(InputFile &&other) noexcept;
    InputFile(const InputFile &) = delete;
    InputFile &operator=(const InputFile &) = delete;
    ~InputFile();

    /// Opens `path` for reading; nullopt with `error` ("PATH: is a directory") when it is not a
    /// readable regular file.
    static std::optional<InputFile> open(const std::string &path, std::string &error);
    /// The whole file when it is at most `maxBytes` and fits the MemoryBudget; nullopt with
    /// `error` ("PATH: 5.2 GB, more than the 4.3 GB a program file may have") otherwise.
    static std::optional<std::string> readAll(const std::string &path, uint64_t maxBytes, std::string &error);
    /// "PATH" or "PATH (-> TARGET)" when PATH is a symlink: how errors name a file.
    static std::string displayName(const std::string &path);
    /// An error of this class split for a Diagnostic: the file part ("PATH (-> TARGET)") in
    /// `file`, the rest returned ("is a directory, not a file").
    static std::string splitError(const std::string &error, std::string &file);
    /// Adds `error` (from this class, about `path`) to `diagnostics` as an error at that file.
    static void report(const std::string &error, const std::string &path, DiagnosticList &diagnostics);

    const std::string &path() const { return m_path; }
    /// The size when opened.
    uint64_t size() const { return m_size; }
    /// Bytes read so far (the offset of the next read).
    uint64_t position() const { return m_position; }
    uint64_t remaining() const { return m_size - m_position; }
    /// Whether the whole file may be read into memory: at most `maxBytes` and within the
    /// MemoryBudget; false with `error` ("PATH: 5.2 GB, more than the 4.3 GB such a file may have").
    bool fitsInMemory(uint64_t maxBytes, std::string &error) const;
    /// Reads exactly `n` bytes into `out` (n <= remaining()); false with `error` when the file
    /// ends early (it shrank) or the read fails.
    bool read(void *out, uint64_t n, std::string &error);
    /// Reads exactly `n` bytes at `offset` into `out`; the next read() continues after them.
    bool readAt(uint64_t offset, void *out, uint64_t n, std::string &error);

private:
    InputFile(int fd, std::string path, uint64_t size);

    int m_fd = -1;
    std::string m_path;
    uint64_t m_size = 0;
    uint64_t m_position = 0;
};

} // namespace ps
