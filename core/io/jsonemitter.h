#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace simdjson::dom {
class element;
}

namespace ps {

/// The one JSON writer: appends JSON text to a string or writes it to a stream as it goes, in
/// one of three layouts (Format). Strings are always escaped the same way: `\u00xx` for
/// control characters, raw UTF-8 otherwise, U+FFFD for invalid UTF-8 bytes.
///
/// Calls chain (`json.key("ops").value(12)`); the caller emits keys in the order it wants
/// (Paddle's files have sorted keys).
class JsonEmitter
{
public:
    enum class Format {
        /// One line, byte for byte nlohmann::json's `dump()`: doubles as the shortest text that
        /// reads back the same, with `.0` on integral values and `e-06` exponents.
        Compact,
        /// nlohmann's `dump(4)` (Paddle's pretty PIR JSON): Compact's numbers, four-space indent.
        Indented,
        /// pirscope-cli's `--json` reports (README's contract): two-space indent, doubles as
        /// printf's `%.6g` ("1", "0.5", "1e-06").
        Report,
    };

    explicit JsonEmitter(std::string &out, Format format = Format::Compact);
    /// Writes each call's text to `out` before returning, so the JSON interleaves correctly
    /// with anything else written to `out`.
    JsonEmitter(std::ostream &out, Format format);
    JsonEmitter(const JsonEmitter &) = delete;
    JsonEmitter &operator=(const JsonEmitter &) = delete;

    JsonEmitter &beginObject();
    JsonEmitter &endObject();
    JsonEmitter &beginArray();
    JsonEmitter &endArray();
    /// Emits `"key":` inside an object; the next call emits its value.
    JsonEmitter &key(std::string_view k);

    JsonEmitter &value(std::string_view s);
    JsonEmitter &value(const char *s) { return value(std::string_view(s)); }
    JsonEmitter &value(int64_t v);
    JsonEmitter &value(int v) { return value(int64_t(v)); }
    JsonEmitter &value(uint64_t v);
    /// Non-finite values are written as `null`, like nlohmann.
    JsonEmitter &value(double v);
    JsonEmitter &value(bool v);
    JsonEmitter &null();
    /// Re-emits a parsed element (object keys in document order) in this emitter's format.
    JsonEmitter &element(const simdjson::dom::element &e);
    /// Ends the document with a newline.
    void finish();

    /// Appends `s` as a quoted JSON string. Invalid UTF-8 bytes become U+FFFD.
    static void appendString(std::string &out, std::string_view s);
    /// Appends a finite double in nlohmann's format: "1.0", "0.5", "9.999999747378752e-06", "3.4e+38".
    static void appendDouble(std::string &out, double v);

private:
    void beforeValue();
    void newline();
    void close(char bracket);
    /// Hands the text written so far to the stream, if there is one.
    JsonEmitter &flush();

    std::string m_pending; ///< a stream emitter's text not yet written
    std::string &m_out;
    std::ostream *m_stream = nullptr;
    Format m_format;
    bool m_afterKey = false;
    /// Per open container: no element written in it yet.
    std::vector<bool> m_first;
};

} // namespace ps
