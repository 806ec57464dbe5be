#include "core/io/paddedfile.h"

#include "core/io/inputfile.h"

namespace ps {

std::optional<simdjson::padded_string> readPaddedFile(
    const std::string &path, uint64_t maxBytes, std::string &error)
{
    std::optional<InputFile> file = InputFile::open(path, error);
    if (!file)
        return std::nullopt;
    if (!file->fitsInMemory(maxBytes, error))
        return std::nullopt;
    simdjson::padded_string content(size_t(file->size()));
    if (!file->read(content.data(), file->size(), error))
        return std::nullopt;
    return content;
}

} // namespace ps
