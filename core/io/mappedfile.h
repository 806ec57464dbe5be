#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace ps {

/// A file's bytes, read-only, mapped into memory (POSIX mmap) so that a large log opens without
/// copying it: pages are read when first touched. Regular files only (InputFile's checks and
/// messages); falls back to reading the file into memory where mapping fails (a file system
/// without mmap), within the MemoryBudget. Thread-safe to read; shared by
/// whoever keeps a std::shared_ptr to it.
class MappedFile
{
public:
    /// Null with `error` set ("PATH: is a FIFO (named pipe), not a file") on failure.
    static std::shared_ptr<const MappedFile> open(const std::string &path, std::string &error);
    /// Bytes held in memory under a name (tests, generated text).
    static std::shared_ptr<const MappedFile> fromString(std::string bytes, std::string name);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    std::string_view bytes() const { return { m_data, m_size }; }
    size_t size() const { return m_size; }
    const std::string &path() const { return m_path; }

private:
    MappedFile() = default;

    std::string m_path;
    const char *m_data = nullptr;
    size_t m_size = 0;
    bool m_mapped = false;
    std::string m_copy; ///< the bytes when the file could not be mapped
};

} // namespace ps
