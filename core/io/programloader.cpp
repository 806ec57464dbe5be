#include "core/io/programloader.h"

#include "core/io/pirjsonreader.h"
#include "core/io/pirtextreader.h"

#include <cctype>
#include <fstream>
#include <sstream>

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
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        LoadResult result;
        SourceLocation loc;
        loc.file = path;
        result.diagnostics.error(loc, "cannot open file");
        return result;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string content = buffer.str();
    return loadProgramFromString(content, path);
}

} // namespace ps
