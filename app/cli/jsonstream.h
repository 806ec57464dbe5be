#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

/// A tiny streaming JSON writer for the CLI's `--json` output (the documented contract):
/// objects and arrays nest, commas are inserted automatically, strings are escaped.
class JsonStream
{
public:
    explicit JsonStream(std::ostream &out, bool pretty = true)
        : m_out(out)
        , m_pretty(pretty)
    {
    }

    JsonStream &beginObject();
    JsonStream &endObject();
    JsonStream &beginArray();
    JsonStream &endArray();
    /// Writes `"name":`; the next value belongs to it.
    JsonStream &key(std::string_view name);
    JsonStream &value(std::string_view s);
    JsonStream &value(const char *s) { return value(std::string_view(s)); }
    JsonStream &value(int64_t v);
    JsonStream &value(int v) { return value(int64_t(v)); }
    JsonStream &value(size_t v) { return value(int64_t(v)); }
    JsonStream &value(double v);
    JsonStream &value(bool v);
    JsonStream &null();
    /// Ends the document with a newline.
    void finish();

    static void writeEscaped(std::ostream &out, std::string_view s);

private:
    void separate();
    void newline();

    std::ostream &m_out;
    bool m_pretty;
    std::vector<bool> m_first; ///< per open container: no element written yet
    bool m_afterKey = false;
};
