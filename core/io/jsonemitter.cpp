#include "core/io/jsonemitter.h"

#include "core/io/jsonsyntaxcheck.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <simdjson.h>

namespace ps {

JsonEmitter::JsonEmitter(std::string &out, Format format)
    : m_out(out)
    , m_format(format)
{
}

JsonEmitter::JsonEmitter(std::ostream &out, Format format)
    : m_out(m_pending)
    , m_stream(&out)
    , m_format(format)
{
}

JsonEmitter &JsonEmitter::flush()
{
    if (m_stream) {
        m_stream->write(m_pending.data(), std::streamsize(m_pending.size()));
        m_pending.clear();
    }
    return *this;
}

void JsonEmitter::newline()
{
    if (m_format == Format::Compact)
        return;
    m_out += '\n';
    m_out.append(m_first.size() * (m_format == Format::Report ? 2 : 4), ' ');
}

void JsonEmitter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_first.empty())
        return;
    if (!m_first.back())
        m_out += ',';
    m_first.back() = false;
    newline();
}

JsonEmitter &JsonEmitter::beginObject()
{
    beforeValue();
    m_out += '{';
    m_first.push_back(true);
    return flush();
}

void JsonEmitter::close(char bracket)
{
    const bool empty = m_first.back();
    m_first.pop_back();
    if (!empty)
        newline();
    m_out += bracket;
}

JsonEmitter &JsonEmitter::endObject()
{
    close('}');
    return flush();
}

JsonEmitter &JsonEmitter::beginArray()
{
    beforeValue();
    m_out += '[';
    m_first.push_back(true);
    return flush();
}

JsonEmitter &JsonEmitter::endArray()
{
    close(']');
    return flush();
}

JsonEmitter &JsonEmitter::key(std::string_view k)
{
    beforeValue();
    appendString(m_out, k);
    m_out += m_format == Format::Compact ? ":" : ": ";
    m_afterKey = true;
    return flush();
}

JsonEmitter &JsonEmitter::value(std::string_view s)
{
    beforeValue();
    appendString(m_out, s);
    return flush();
}

JsonEmitter &JsonEmitter::value(int64_t v)
{
    beforeValue();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    m_out.append(buf, r.ptr);
    return flush();
}

JsonEmitter &JsonEmitter::value(uint64_t v)
{
    beforeValue();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    m_out.append(buf, r.ptr);
    return flush();
}

JsonEmitter &JsonEmitter::value(double v)
{
    beforeValue();
    if (!std::isfinite(v)) {
        m_out += "null";
    } else if (m_format == Format::Report) {
        char buf[32];
        const int n = std::snprintf(buf, sizeof buf, "%.6g", v);
        m_out.append(buf, size_t(n));
    } else {
        appendDouble(m_out, v);
    }
    return flush();
}

JsonEmitter &JsonEmitter::value(bool v)
{
    beforeValue();
    m_out += v ? "true" : "false";
    return flush();
}

JsonEmitter &JsonEmitter::null()
{
    beforeValue();
    m_out += "null";
    return flush();
}

void JsonEmitter::finish()
{
    m_out += '\n';
    flush();
}

JsonEmitter &JsonEmitter::element(const simdjson::dom::element &e)
{
    using simdjson::dom::element_type;
    switch (e.type()) {
    case element_type::OBJECT:
        beginObject();
        for (const auto field : simdjson::dom::object(e.get_object().value_unsafe())) {
            key(field.key);
            element(field.value);
        }
        return endObject();
    case element_type::ARRAY:
        beginArray();
        for (const auto item : simdjson::dom::array(e.get_array().value_unsafe()))
            element(item);
        return endArray();
    case element_type::STRING:
        return value(e.get_string().value_unsafe());
    case element_type::INT64:
        return value(e.get_int64().value_unsafe());
    case element_type::UINT64:
        return value(e.get_uint64().value_unsafe());
    case element_type::DOUBLE:
        return value(e.get_double().value_unsafe());
    case element_type::BOOL:
        return value(e.get_bool().value_unsafe());
    case element_type::NULL_VALUE:
        return null();
    }
    return *this;
}

void JsonEmitter::appendString(std::string &out, std::string_view s)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    size_t runStart = 0;
    size_t i = 0;
    const auto flush = [&] { out.append(s.data() + runStart, i - runStart); };
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            ++i;
            continue;
        }
        if (c >= 0x80) {
            const size_t len = utf8SequenceLength(s, i);
            if (len != 0) {
                i += len;
                continue;
            }
            flush();
            out += "\\ufffd";
            runStart = ++i;
            continue;
        }
        flush();
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
            break;
        }
        runStart = ++i;
    }
    flush();
    out += '"';
}

void JsonEmitter::appendDouble(std::string &out, double v)
{
    if (std::signbit(v)) {
        out += '-';
        v = -v;
    }
    if (v == 0) {
        out += "0.0";
        return;
    }
    // Shortest round-trip digits; std::to_chars and nlohmann's Grisu2 agree on them for the
    // values Paddle writes, and the layout below is nlohmann's format_buffer().
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string_view sci(buf, size_t(r.ptr - buf));
    const size_t ePos = sci.find('e');
    char digits[24];
    int k = 0;
    for (size_t i = 0; i < ePos; ++i) {
        if (sci[i] != '.')
            digits[k++] = sci[i];
    }
    int exp10 = 0;
    std::from_chars(sci.data() + ePos + 1 + (sci[ePos + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exp10);
    const int n = exp10 + 1; // position of the decimal point relative to the first digit
    constexpr int kMinExp = -4;
    constexpr int kMaxExp = 15;
    if (k <= n && n <= kMaxExp) {
        out.append(digits, size_t(k));
        out.append(size_t(n - k), '0');
        out += ".0";
    } else if (0 < n && n <= kMaxExp) {
        out.append(digits, size_t(n));
        out += '.';
        out.append(digits + n, size_t(k - n));
    } else if (kMinExp < n && n <= 0) {
        out += "0.";
        out.append(size_t(-n), '0');
        out.append(digits, size_t(k));
    } else {
        out += digits[0];
        if (k > 1) {
            out += '.';
            out.append(digits + 1, size_t(k - 1));
        }
        out += 'e';
        int e = n - 1;
        out += e < 0 ? '-' : '+';
        e = e < 0 ? -e : e;
        if (e < 10)
            out += '0';
        out += std::to_string(e);
    }
}

} // namespace ps
