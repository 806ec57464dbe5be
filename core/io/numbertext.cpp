#include "core/io/numbertext.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace ps {
namespace {

std::string numberText(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v);
    return buffer;
}

} // namespace

std::string NumberText::quote(std::string_view text, size_t maxChars)
{
    if (text.size() <= maxChars)
        return "'" + std::string(text) + "'";
    return "'" + std::string(text.substr(0, maxChars)) + "...' (" + std::to_string(text.size())
        + " characters)";
}

std::optional<uint64_t> NumberText::parseUnsigned(std::string_view text, uint64_t max, std::string &error)
{
    return parseUnsigned(text, 0, max, error);
}

std::optional<uint64_t> NumberText::parseUnsigned(
    std::string_view text, uint64_t min, uint64_t max, std::string &error)
{
    const std::string range
        = min == 0 ? "a non-negative integer" : "an integer of at least " + std::to_string(min);
    if (text.empty()) {
        error = "expected " + range + ", got an empty value";
        return std::nullopt;
    }
    if (text.front() == '-') {
        error = "expected " + range + ", got " + quote(text);
        return std::nullopt;
    }
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc::result_out_of_range) {
        error = quote(text) + " is out of range (at most " + std::to_string(max) + ")";
        return std::nullopt;
    }
    if (ec != std::errc() || end != text.data() + text.size()) {
        error = "expected " + range + ", got " + quote(text);
        return std::nullopt;
    }
    if (v > max || v < min) {
        error = quote(text) + " is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")";
        return std::nullopt;
    }
    return v;
}

std::optional<double> NumberText::parseFinite(
    std::string_view text, double min, double max, std::string &error)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size()) {
        error = "expected a number, got " + (text.empty() ? std::string("an empty value") : quote(text));
        return std::nullopt;
    }
    if (ec == std::errc::result_out_of_range || !std::isfinite(v)) {
        error = "expected a finite number, got " + quote(text);
        return std::nullopt;
    }
    if (v < min || v > max) {
        error = quote(text) + " is out of range (" + numberText(min) + " to " + numberText(max) + ")";
        return std::nullopt;
    }
    return v;
}

} // namespace ps
