#include "core/io/mappedfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ps {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string &path, std::string &error)
{
    std::shared_ptr<MappedFile> file(new MappedFile);
    file->m_path = path;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = std::string("cannot open file: ") + std::strerror(errno);
        return nullptr;
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        error = "is a folder, not a file";
        return nullptr;
    }
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            ::madvise(p, size_t(st.st_size), MADV_SEQUENTIAL);
            file->m_data = static_cast<const char *>(p);
            file->m_size = size_t(st.st_size);
            file->m_mapped = true;
            ::close(fd);
            return file;
        }
    }
    ::close(fd);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read file";
        return nullptr;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    file->m_copy = buffer.str();
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
