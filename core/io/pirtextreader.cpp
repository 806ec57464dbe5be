#include "core/io/pirtextreader.h"

#include "core/io/pirtextparser.h"
#include "core/ir/block.h" // region.h needs Block complete

#include <fstream>
#include <sstream>

namespace ps {

LoadResult PirTextReader::readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        LoadResult result;
        result.format = LoadResult::Format::PirText;
        SourceLocation loc;
        loc.file = path;
        result.diagnostics.error(loc, "cannot open file");
        return result;
    }
    std::string text;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    if (size > 0) {
        text.resize(size_t(size));
        in.read(text.data(), size);
        text.resize(size_t(in.gcount()));
    } else {
        std::ostringstream buffer;
        buffer << in.rdbuf();
        text = buffer.str();
    }
    return readString(text, path);
}

LoadResult PirTextReader::readString(std::string_view text, const std::string &fileName)
{
    PirTextParser parser(text, fileName);
    return parser.parse();
}

Generation PirTextReader::detectGeneration(std::string_view text)
{
    return PirTextParser::detectGeneration(text);
}

} // namespace ps
