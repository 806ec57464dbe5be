#include "core/io/programloader.h"

#include "core/io/inputfile.h"
#include "core/io/pirjsonreader.h"
#include "core/io/pirtextreader.h"

#include <cctype>
#include <filesystem>

namespace ps {

LoadResult::Format sniffFormat(std::string_view content)
{
    size_t i = 0;
    auto skipSpace = [&] {
        while (i < content.size() && std::isspace(static_cast<unsigned char>(content[i])))
            ++i;
    };
    skipSpace();
    if (i < content.size() && content[i] == '{') {
        ++i;
        skipSpace();
        if (i < content.size() && content[i] == '"')
            return LoadResult::Format::PirJson;
    }
    return LoadResult::Format::PirText;
}

LoadResult loadProgramFromString(std::string_view content, const std::string &fileName)
{
    if (sniffFormat(content) == LoadResult::Format::PirJson)
        return PirJsonReader::readString(content, fileName);
    return PirTextReader::readString(content, fileName);
}

LoadResult loadProgram(const std::string &path)
{
    std::string error;
    const std::optional<std::string> content = InputFile::readAll(path, InputFile::kProgramLimit, error);
    if (content)
        return loadProgramFromString(*content, path);
    LoadResult result;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        error = path
            + ": is a directory without a manifest.json: neither a program file (.json, .txt) nor a "
              "trace bundle folder";
    InputFile::report(error, path, result.diagnostics);
    return result;
}

} // namespace ps
