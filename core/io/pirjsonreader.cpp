#include "core/io/pirjsonreader.h"

#include "core/io/inputfile.h"
#include "core/io/jsonsyntaxcheck.h"
#include "core/io/paddedfile.h"
#include "core/io/pirjsonelementreader.h"
#include "core/io/pirjsonfastreader.h"
#include "core/io/pirjsonprogrambuilder.h"
#include "core/io/pirjsonupgrader.h"
#include "core/ir/block.h"

#include <cstring>
#include <memory>
#include <simdjson.h>
#include <vector>

namespace ps {

namespace {

using simdjson::dom::element;

LoadResult readPadded(
    simdjson::padded_string_view json, const std::string &fileName, const PirJsonReader::Options &options)
{
    LoadResult result;
    result.format = LoadResult::Format::PirJson;
    if (options.fastPath) {
        int version = 0;
        if (std::unique_ptr<Program> program = PirJsonFastReader(fileName).read(json, version)) {
            if (options.upgrade)
                PirJsonUpgrader::upgrade(*program, version);
            result.program = std::move(program);
            return result;
        }
    }
    // A parser's buffers cost more to allocate and fault in than a parse of a few MB, so each
    // thread keeps one for documents up to kReuseLimit (its memory is ~8x the document size).
    constexpr size_t kReuseLimit = size_t(32) << 20;
    thread_local simdjson::dom::parser sharedParser;
    std::unique_ptr<simdjson::dom::parser> ownParser;
    if (json.size() > kReuseLimit)
        ownParser = std::make_unique<simdjson::dom::parser>();
    simdjson::dom::parser &parser = ownParser ? *ownParser : sharedParser;
    element root;
    const simdjson::error_code err = parser.parse(json).get(root);
    if (err != simdjson::SUCCESS) {
        const std::string_view text(json.data(), json.size());
        SourceLocation loc;
        loc.file = fileName;
        std::string message = std::string("invalid JSON: ") + simdjson::error_message(err);
        if (const auto syntax = findJsonSyntaxError(text)) {
            loc.byteOffset = (long long)syntax->offset;
            lineAndColumn(text, syntax->offset, loc.line, loc.column);
            message = "invalid JSON: " + syntax->message;
        }
        result.diagnostics.error(std::move(loc), std::move(message));
        return result;
    }
    auto program = std::make_unique<Program>();
    PirJsonElementReader reader(fileName, result.diagnostics);
    PirJsonProgramBuilder builder(reader, *program);
    if (!builder.readDocument(root))
        return result;
    if (reader.errorCount() == 0 && options.upgrade)
        PirJsonUpgrader::upgrade(*program, builder.version());
    result.program = std::move(program);
    return result;
}

} // namespace

LoadResult PirJsonReader::readFile(const std::string &path)
{
    return readFile(path, Options());
}

LoadResult PirJsonReader::readFile(const std::string &path, const Options &options)
{
    std::string error;
    std::optional<simdjson::padded_string> content = readPaddedFile(path, InputFile::kProgramLimit, error);
    if (!content) {
        LoadResult result;
        result.format = LoadResult::Format::PirJson;
        InputFile::report(error, path, result.diagnostics);
        return result;
    }
    return readPadded(*content, path, options);
}

LoadResult PirJsonReader::readString(std::string_view json, const std::string &fileName)
{
    return readString(json, fileName, Options());
}

LoadResult PirJsonReader::readString(
    std::string_view json, const std::string &fileName, const Options &options)
{
    // simdjson reads up to SIMDJSON_PADDING bytes past the end, so the text is copied. Into a
    // buffer this thread keeps (like its parser) for documents up to kReuseLimit: a fresh one
    // for every load cost an allocation and the page faults of touching it.
    constexpr size_t kReuseLimit = size_t(32) << 20;
    if (json.size() > kReuseLimit) {
        const simdjson::padded_string padded(json);
        return readPadded(padded, fileName, options);
    }
    thread_local std::vector<char> buffer;
    buffer.resize(json.size() + simdjson::SIMDJSON_PADDING);
    std::memcpy(buffer.data(), json.data(), json.size());
    std::memset(buffer.data() + json.size(), 0, simdjson::SIMDJSON_PADDING);
    return readPadded(
        simdjson::padded_string_view(buffer.data(), json.size(), buffer.size()), fileName, options);
}

LoadResult PirJsonReader::readString(std::string_view json, size_t readable, const std::string &fileName)
{
    if (readable < json.size() + simdjson::SIMDJSON_PADDING)
        return readString(json, fileName);
    return readPadded(simdjson::padded_string_view(json.data(), json.size(), readable), fileName, Options());
}

size_t PirJsonReader::paddingBytes()
{
    return simdjson::SIMDJSON_PADDING;
}

} // namespace ps
