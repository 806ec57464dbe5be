#pragma once

#include "core/io/loadresult.h"

#include <string>
#include <string_view>

namespace ps {

/// Reads a program file of any supported format: PIR JSON or PIR text (all generations).
/// The format is sniffed from the content (a JSON object starts with `{"`), not the extension.
/// Never throws; unreadable files give an error naming the path.
LoadResult loadProgram(const std::string &path);
LoadResult loadProgramFromString(std::string_view content, const std::string &fileName);
/// As loadProgramFromString, reading PIR JSON in place (no copy of the document) when
/// `content`'s capacity holds PirJsonReader::paddingBytes() past its end (InputFile::readAll
/// reserves them).
LoadResult loadProgramFromBuffer(const std::string &content, const std::string &fileName);
/// Sniffs content: PirJson when the first token after `{` is a string key.
LoadResult::Format sniffFormat(std::string_view content);

} // namespace ps
