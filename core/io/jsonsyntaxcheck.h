#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ps {

/// The first syntax error of a JSON text: its byte offset and what is wrong there.
struct JsonSyntaxError
{
    size_t offset = 0;
    std::string message;
};

/// Finds the first syntax error of `json` with the rules simdjson applies (RFC 8259, valid
/// UTF-8, paired surrogates, 64-bit integers, finite numbers, nesting up to `maxDepth`).
/// Used on the error path only, to give positions simdjson's DOM parser does not report.
/// O(n); recursion depth is bounded by `maxDepth`.
std::optional<JsonSyntaxError> findJsonSyntaxError(std::string_view json, size_t maxDepth = 1024);

/// 1-based line and column (in bytes) of `offset` in `text`.
void lineAndColumn(std::string_view text, size_t offset, int &line, int &column);

/// Length of the valid UTF-8 sequence that starts at `s[i]` (1 for ASCII), or 0 when invalid.
size_t utf8SequenceLength(std::string_view s, size_t i);

} // namespace ps
