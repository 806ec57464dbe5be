#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simdjson::dom {
class element;
}

namespace ps {

/// Appends JSON text to a string, compact (`{"a":[1,2]}`) or pretty with a fixed indent, in
/// exactly the byte format of nlohmann::json's `dump()` / `dump(4)` (which Paddle uses to write
/// PIR JSON): shortest round-trip doubles with `.0` on integral values and `e-06` exponents,
/// `\u00xx` escapes for control characters, raw UTF-8 otherwise.
///
/// The caller emits keys in the order it wants (Paddle's files have sorted keys).
class JsonEmitter
{
public:
    explicit JsonEmitter(std::string &out, bool pretty = false, int indent = 4)
        : m_out(out)
        , m_pretty(pretty)
        , m_indent(indent)
    {
    }

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    /// Emits `"key":` inside an object; the next call emits its value.
    void key(std::string_view k);

    void string(std::string_view s);
    void integer(int64_t v);
    void unsignedInteger(uint64_t v);
    /// Non-finite values are written as `null`, like nlohmann.
    void number(double v);
    void boolean(bool v);
    void null();
    /// Re-emits a parsed element (object keys in document order) in this emitter's style.
    void element(const simdjson::dom::element &e);

    /// Appends `s` as a quoted JSON string. Invalid UTF-8 bytes become U+FFFD.
    static void appendString(std::string &out, std::string_view s);
    /// Appends a finite double in nlohmann's format: "1.0", "0.5", "9.999999747378752e-06", "3.4e+38".
    static void appendDouble(std::string &out, double v);

private:
    void beforeValue();
    void newline();

    struct Level
    {
        bool first;
    };
    std::string &m_out;
    bool m_pretty;
    int m_indent;
    bool m_afterKey = false;
    std::vector<Level> m_levels;
};

} // namespace ps
