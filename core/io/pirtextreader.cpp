#include "core/io/pirtextreader.h"

#include "core/io/inputfile.h"
#include "core/io/pirtextparser.h"
#include "core/ir/block.h" // region.h needs Block complete

namespace ps {

LoadResult PirTextReader::readFile(const std::string &path)
{
    std::string error;
    const std::optional<std::string> text = InputFile::readAll(path, InputFile::kProgramLimit, error);
    if (text)
        return readString(*text, path);
    LoadResult result;
    result.format = LoadResult::Format::PirText;
    InputFile::report(error, path, result.diagnostics);
    return result;
}

LoadResult PirTextReader::readString(std::string_view text, const std::string &fileName)
{
    PirTextParser parser(text, fileName);
    return parser.parse();
}

LoadResult PirTextReader::readString(std::string_view text, const std::string &fileName, OpIdMap &opIds)
{
    PirTextParser parser(text, fileName, &opIds);
    return parser.parse();
}

Generation PirTextReader::detectGeneration(std::string_view text)
{
    return PirTextParser::detectGeneration(text);
}

} // namespace ps
