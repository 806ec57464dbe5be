#pragma once

#include <cstdint>
#include <optional>
#include <simdjson.h>
#include <string>

namespace ps {

/// Reads a JSON file through InputFile (regular files only, at most `maxBytes`, within the
/// MemoryBudget) straight into simdjson's padded buffer, with no second copy. nullopt with `error`
/// ("PATH: is a directory, not a file") otherwise.
std::optional<simdjson::padded_string> readPaddedFile(
    const std::string &path, uint64_t maxBytes, std::string &error);

} // namespace ps
