#pragma once

#include "core/io/loadresult.h"

#include <string>
#include <string_view>

namespace ps {

/// Reads Paddle's PIR JSON serialization (`paddle.jit.save` `*.json`, versions 1..6) into a Program.
///
/// A document as Paddle writes it is read in one pass with simdjson On-Demand (PirJsonFastReader);
/// any other, and any that would get a diagnostic, is validated by simdjson's DOM parser and
/// read from its DOM. Every diagnostic names the JSON path of the offending element
/// (`program.regions[0].blocks[0].ops[12].O[0].TT`); syntax errors also carry the byte offset and
/// line:column. Unknown type and attribute kinds are kept verbatim (as their compact JSON text)
/// with a warning, so they still round-trip through PirJsonWriter. Older versions are upgraded
/// with Paddle's patch rules (PirJsonUpgrader) unless Options::upgrade is false.
/// Never throws; thread-safe (no shared mutable state besides the process-wide interners).
class PirJsonReader
{
public:
    struct Options
    {
        /// Apply Paddle's version patches (2.yaml, 3.yaml, 4.yaml) to files older than them.
        bool upgrade = true;
        /// Try PirJsonFastReader (simdjson On-Demand) first; the DOM reader below reads what it
        /// gives up on. Off: the DOM reader reads every document (tests compare the two).
        bool fastPath = true;
    };

    static LoadResult readFile(const std::string &path);
    static LoadResult readFile(const std::string &path, const Options &options);
    /// `fileName` is only used in diagnostics. Cost: one copy of `json` into a padded buffer.
    static LoadResult readString(std::string_view json, const std::string &fileName);
    static LoadResult readString(std::string_view json, const std::string &fileName, const Options &options);
    /// As readString, reading `json` where it lies when the `readable` bytes from json.data()
    /// (json itself included) hold paddingBytes() past its end; otherwise it is copied.
    static LoadResult readString(std::string_view json, size_t readable, const std::string &fileName);
    /// The readable bytes simdjson needs past the end of a document it reads in place.
    static size_t paddingBytes();
};

} // namespace ps
