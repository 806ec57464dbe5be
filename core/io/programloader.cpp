#include "core/io/programloader.h"

#include "core/io/inputfile.h"
#include "core/io/pirjsonreader.h"
#include "core/io/pirtextreader.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

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

namespace {

// The first byte in the first 64 KiB that text never holds (a control byte other than the
// white-space ones): an image, a .pdiparams or random bytes under a program's name.
std::optional<size_t> firstBinaryByte(std::string_view content)
{
    const size_t n = std::min<size_t>(content.size(), 64 * 1024);
    for (size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(content[i]);
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f)
            return i;
    }
    return std::nullopt;
}

SourceLocation locationOf(std::string_view content, size_t offset, const std::string &fileName)
{
    SourceLocation loc { fileName, 1, 1, {}, static_cast<long long>(offset) };
    for (size_t i = 0; i < offset; ++i) {
        if (content[i] == '\n') {
            ++loc.line;
            loc.column = 1;
        } else {
            ++loc.column;
        }
    }
    return loc;
}

std::string hexByte(unsigned char c)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    return std::string("0x") + kDigits[c >> 4] + kDigits[c & 15];
}

} // namespace

LoadResult loadProgramFromString(std::string_view content, const std::string &fileName)
{
    if (sniffFormat(content) == LoadResult::Format::PirJson)
        return PirJsonReader::readString(content, fileName);
    if (const std::optional<size_t> binary = firstBinaryByte(content)) {
        LoadResult result;
        result.format = LoadResult::Format::PirText;
        result.diagnostics.error(locationOf(content, *binary, fileName),
            "binary data (byte " + hexByte(static_cast<unsigned char>(content[*binary]))
                + "), not a PIR program: PIR JSON starts with '{\"', PIR text with an op line");
        return result;
    }
    LoadResult result = PirTextReader::readString(content, fileName);
    if (result.diagnostics.hasErrors() && fileName.ends_with(".json")) {
        const size_t start = std::min(content.find_first_not_of(" \t\r\n"), content.size());
        const std::string_view head
            = content.substr(start, 24).substr(0, content.substr(start, 24).find('\n'));
        result.diagnostics.note(locationOf(content, start, fileName),
            "named .json but not JSON: it starts with '" + std::string(head) + "', not '{\"'");
    }
    return result;
}

LoadResult loadProgramFromBuffer(const std::string &content, const std::string &fileName)
{
    if (sniffFormat(content) == LoadResult::Format::PirJson)
        return PirJsonReader::readString(content, content.capacity(), fileName);
    return loadProgramFromString(content, fileName);
}

LoadResult loadProgram(const std::string &path)
{
    std::string error;
    const std::optional<std::string> content = InputFile::readAll(path, InputFile::kProgramLimit, error);
    if (content)
        return loadProgramFromBuffer(*content, path);
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
