#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ps {

/// Strict parsing of numbers typed by a user (command-line options, positions, sizes): the whole
/// text must be the number, nothing before or after it. "12abc", "1.5" for an integer, "0x10",
/// "-1" for an unsigned value, "nan" and "inf", and values past the range are errors whose message
/// echoes the text (cut to a readable length) and says what was expected.
class NumberText
{
public:
    /// Decimal digits only, at most `max`.
    static std::optional<uint64_t> parseUnsigned(std::string_view text, uint64_t max, std::string &error);
    /// Like parseUnsigned, also at least `min`.
    static std::optional<uint64_t> parseUnsigned(
        std::string_view text, uint64_t min, uint64_t max, std::string &error);
    /// A finite decimal number in [min, max] ("1e-5", "0.5", "-2"; no nan, inf or hex).
    static std::optional<double> parseFinite(
        std::string_view text, double min, double max, std::string &error);
    /// `text` quoted for a message, cut to `maxChars` with "..." and its length when longer.
    static std::string quote(std::string_view text, size_t maxChars = 40);
};

} // namespace ps
