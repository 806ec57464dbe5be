#include "core/io/jsonemitter.h"

#include "core/io/jsonsyntaxcheck.h"

#include <charconv>
#include <cmath>
#include <simdjson.h>

namespace ps {

void JsonEmitter::newline()
{
    m_out += '\n';
    m_out.append(m_levels.size() * size_t(m_indent), ' ');
}

void JsonEmitter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_levels.empty())
        return;
    Level &level = m_levels.back();
    if (!level.first)
        m_out += ',';
    level.first = false;
    if (m_pretty)
        newline();
}

void JsonEmitter::beginObject()
{
    beforeValue();
    m_out += '{';
    m_levels.push_back({ true });
}

void JsonEmitter::endObject()
{
    const bool empty = m_levels.back().first;
    m_levels.pop_back();
    if (m_pretty && !empty)
        newline();
    m_out += '}';
}

void JsonEmitter::beginArray()
{
    beforeValue();
    m_out += '[';
    m_levels.push_back({ true });
}

void JsonEmitter::endArray()
{
    endObject();
    m_out.back() = ']';
}

void JsonEmitter::key(std::string_view k)
{
    beforeValue();
    appendString(m_out, k);
    m_out += m_pretty ? ": " : ":";
    m_afterKey = true;
}

void JsonEmitter::string(std::string_view s)
{
    beforeValue();
    appendString(m_out, s);
}

void JsonEmitter::integer(int64_t v)
{
    beforeValue();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    m_out.append(buf, r.ptr);
}

void JsonEmitter::unsignedInteger(uint64_t v)
{
    beforeValue();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    m_out.append(buf, r.ptr);
}

void JsonEmitter::number(double v)
{
    beforeValue();
    if (!std::isfinite(v))
        m_out += "null";
    else
        appendDouble(m_out, v);
}

void JsonEmitter::boolean(bool v)
{
    beforeValue();
    m_out += v ? "true" : "false";
}

void JsonEmitter::null()
{
    beforeValue();
    m_out += "null";
}

void JsonEmitter::element(const simdjson::dom::element &e)
{
    using simdjson::dom::element_type;
    switch (e.type()) {
    case element_type::OBJECT:
        beginObject();
        for (const auto field : simdjson::dom::object(e.get_object().value_unsafe())) {
            key(field.key);
            element(field.value);
        }
        endObject();
        break;
    case element_type::ARRAY:
        beginArray();
        for (const auto item : simdjson::dom::array(e.get_array().value_unsafe()))
            element(item);
        endArray();
        break;
    case element_type::STRING:
        string(e.get_string().value_unsafe());
        break;
    case element_type::INT64:
        integer(e.get_int64().value_unsafe());
        break;
    case element_type::UINT64:
        unsignedInteger(e.get_uint64().value_unsafe());
        break;
    case element_type::DOUBLE:
        number(e.get_double().value_unsafe());
        break;
    case element_type::BOOL:
        boolean(e.get_bool().value_unsafe());
        break;
    case element_type::NULL_VALUE:
        null();
        break;
    }
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
