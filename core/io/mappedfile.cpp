#include "core/io/mappedfile.h"

#include "core/io/inputfile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace ps {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string &path, std::string &error)
{
    // InputFile refuses what is not a regular file (a FIFO would block, /dev/zero never ends)
    // and names it; only then is the file mapped.
    std::optional<InputFile> checked = InputFile::open(path, error);
    if (!checked)
        return nullptr;
    std::shared_ptr<MappedFile> file(new MappedFile);
    file->m_path = path;
    if (checked->size() == 0)
        return file;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0) {
        void *p = ::mmap(nullptr, size_t(checked->size()), PROT_READ, MAP_PRIVATE, fd, 0);
        ::close(fd);
        if (p != MAP_FAILED) {
            ::madvise(p, size_t(checked->size()), MADV_SEQUENTIAL);
            file->m_data = static_cast<const char *>(p);
            file->m_size = size_t(checked->size());
            file->m_mapped = true;
            return file;
        }
    }
    std::optional<std::string> bytes = InputFile::readAll(path, InputFile::kNoLimit, error);
    if (!bytes)
        return nullptr;
    file->m_copy = std::move(*bytes);
    file->m_data = file->m_copy.data();
    file->m_size = file->m_copy.size();
    return file;
}

std::shared_ptr<const MappedFile> MappedFile::fromString(std::string bytes, std::string name)
{
    std::shared_ptr<MappedFile> file(new MappedFile);
    file->m_path = std::move(name);
    file->m_copy = std::move(bytes);
    file->m_data = file->m_copy.data();
    file->m_size = file->m_copy.size();
    return file;
}

MappedFile::~MappedFile()
{
    if (m_mapped)
        ::munmap(const_cast<char *>(m_data), m_size);
}

} // namespace ps
