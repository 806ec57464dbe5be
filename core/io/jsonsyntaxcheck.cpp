#include "core/io/jsonsyntaxcheck.h"

#include <charconv>
#include <cstdint>
#include <vector>

namespace ps {

size_t utf8SequenceLength(std::string_view s, size_t i)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80)
        return 1;
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (i + len > s.size())
        return 0;
    for (size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    if (overlong || surrogate || cp > 0x10FFFF)
        return 0;
    return len;
}

void lineAndColumn(std::string_view text, size_t offset, int &line, int &column)
{
    line = 1;
    size_t lineStart = 0;
    const size_t end = offset < text.size() ? offset : text.size();
    for (size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    column = int(offset - lineStart) + 1;
}

namespace {

class SyntaxChecker
{
public:
    SyntaxChecker(std::string_view json, size_t maxDepth)
        : m_s(json)
        , m_maxDepth(maxDepth)
    {
    }

    std::optional<JsonSyntaxError> run()
    {
        skipSpace();
        if (m_pos >= m_s.size())
            return fail("empty document: no JSON value found");
        if (!value())
            return m_error;
        while (!m_stack.empty()) {
            if (!afterValue())
                return m_error;
        }
        skipSpace();
        if (m_pos < m_s.size())
            return fail("unexpected content after the end of the JSON document");
        return std::nullopt;
    }

private:
    std::optional<JsonSyntaxError> fail(std::string message)
    {
        m_error = JsonSyntaxError { m_pos, std::move(message) };
        return m_error;
    }
    bool failAt(size_t pos, std::string message)
    {
        m_pos = pos;
        fail(std::move(message));
        return false;
    }
    bool atEnd() const { return m_pos >= m_s.size(); }
    void skipSpace()
    {
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                break;
            ++m_pos;
        }
    }

    /// Parses one value; containers are opened and left on the stack for afterValue().
    bool value()
    {
        skipSpace();
        if (atEnd())
            return failAt(m_pos, "unexpected end of input: expected a value");
        const char c = m_s[m_pos];
        switch (c) {
        case '{':
        case '[':
            if (m_stack.size() >= m_maxDepth)
                return failAt(m_pos, "nesting too deep");
            m_stack.push_back(c);
            ++m_pos;
            skipSpace();
            if (!atEnd() && m_s[m_pos] == (c == '{' ? '}' : ']')) {
                ++m_pos;
                m_stack.pop_back();
                return true;
            }
            return c == '{' ? member() : value();
        case '"':
            return string();
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            if (c == '-' || (c >= '0' && c <= '9'))
                return number();
            return failAt(m_pos, std::string("unexpected character '") + c + "': expected a value");
        }
    }

    /// Parses `"key": value` inside an object.
    bool member()
    {
        skipSpace();
        if (atEnd())
            return failAt(m_pos, "unexpected end of input: expected an object key");
        if (m_s[m_pos] != '"')
            return failAt(m_pos, "expected a string key");
        if (!string())
            return false;
        skipSpace();
        if (atEnd() || m_s[m_pos] != ':')
            return failAt(m_pos, "expected ':' after the object key");
        ++m_pos;
        return value();
    }

    /// After a complete value inside the innermost container: `,` or the closing bracket.
    bool afterValue()
    {
        skipSpace();
        const char open = m_stack.back();
        const char close = open == '{' ? '}' : ']';
        if (atEnd())
            return failAt(m_pos, std::string("unexpected end of input: expected ',' or '") + close + "'");
        const char c = m_s[m_pos];
        if (c == close) {
            ++m_pos;
            m_stack.pop_back();
            return true;
        }
        if (c != ',')
            return failAt(m_pos, std::string("expected ',' or '") + close + "'");
        ++m_pos;
        return open == '{' ? member() : value();
    }

    bool literal(std::string_view word)
    {
        if (m_s.substr(m_pos, word.size()) != word)
            return failAt(m_pos, "invalid literal (expected true, false or null)");
        m_pos += word.size();
        return true;
    }

    static int hexValue(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    /// Reads `\uXXXX` at m_pos (pointing at the backslash); -1 on error.
    long unicodeEscape()
    {
        if (m_pos + 6 > m_s.size() || m_s[m_pos + 1] != 'u')
            return -1;
        long v = 0;
        for (size_t k = 2; k < 6; ++k) {
            const int h = hexValue(m_s[m_pos + k]);
            if (h < 0)
                return -1;
            v = v * 16 + h;
        }
        m_pos += 6;
        return v;
    }

    bool string()
    {
        const size_t start = m_pos;
        ++m_pos;
        while (true) {
            if (atEnd())
                return failAt(start, "unterminated string");
            const unsigned char c = static_cast<unsigned char>(m_s[m_pos]);
            if (c == '"') {
                ++m_pos;
                return true;
            }
            if (c < 0x20)
                return failAt(m_pos, "unescaped control character in a string");
            if (c == '\\') {
                if (m_pos + 1 >= m_s.size())
                    return failAt(start, "unterminated string");
                const char e = m_s[m_pos + 1];
                if (e == 'u') {
                    const size_t escStart = m_pos;
                    const long cp = unicodeEscape();
                    if (cp < 0)
                        return failAt(escStart, "invalid \\u escape");
                    if (cp >= 0xDC00 && cp <= 0xDFFF)
                        return failAt(escStart, "unpaired low surrogate in \\u escape");
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        const long low = (m_pos < m_s.size() && m_s[m_pos] == '\\') ? unicodeEscape() : -1;
                        if (low < 0xDC00 || low > 0xDFFF)
                            return failAt(escStart, "unpaired high surrogate in \\u escape");
                    }
                    continue;
                }
                if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r'
                    && e != 't')
                    return failAt(m_pos, "invalid escape sequence in a string");
                m_pos += 2;
                continue;
            }
            if (c >= 0x80) {
                const size_t len = utf8SequenceLength(m_s, m_pos);
                if (len == 0)
                    return failAt(m_pos, "invalid UTF-8 in a string");
                m_pos += len;
                continue;
            }
            ++m_pos;
        }
    }

    bool number()
    {
        const size_t start = m_pos;
        const auto digit = [&] { return !atEnd() && m_s[m_pos] >= '0' && m_s[m_pos] <= '9'; };
        if (m_s[m_pos] == '-')
            ++m_pos;
        if (!digit())
            return failAt(m_pos, "invalid number: expected a digit");
        if (m_s[m_pos] == '0') {
            ++m_pos;
            if (digit())
                return failAt(start, "invalid number: leading zero");
        } else {
            while (digit())
                ++m_pos;
        }
        bool integral = true;
        if (!atEnd() && m_s[m_pos] == '.') {
            integral = false;
            ++m_pos;
            if (!digit())
                return failAt(m_pos, "invalid number: expected a digit after '.'");
            while (digit())
                ++m_pos;
        }
        if (!atEnd() && (m_s[m_pos] == 'e' || m_s[m_pos] == 'E')) {
            integral = false;
            ++m_pos;
            if (!atEnd() && (m_s[m_pos] == '+' || m_s[m_pos] == '-'))
                ++m_pos;
            if (!digit())
                return failAt(m_pos, "invalid number: expected a digit in the exponent");
            while (digit())
                ++m_pos;
        }
        const char *first = m_s.data() + start;
        const char *last = m_s.data() + m_pos;
        if (integral) {
            std::from_chars_result r;
            if (*first == '-') {
                int64_t v;
                r = std::from_chars(first, last, v);
            } else {
                uint64_t v;
                r = std::from_chars(first, last, v);
            }
            if (r.ec != std::errc())
                return failAt(start, "integer does not fit in 64 bits");
        } else {
            // from_chars is locale-independent; out_of_range also covers underflow, which
            // simdjson accepts (rounds to 0): only a non-negative exponent means overflow.
            double v;
            const auto r = std::from_chars(first, last, v);
            const std::string_view text(first, size_t(last - first));
            const bool negativeExponent
                = text.find("e-") != std::string_view::npos || text.find("E-") != std::string_view::npos;
            if (r.ec == std::errc::result_out_of_range && !negativeExponent)
                return failAt(start, "number out of range");
        }
        return true;
    }

    std::string_view m_s;
    size_t m_maxDepth;
    size_t m_pos = 0;
    std::vector<char> m_stack;
    std::optional<JsonSyntaxError> m_error;
};

} // namespace

std::optional<JsonSyntaxError> findJsonSyntaxError(std::string_view json, size_t maxDepth)
{
    return SyntaxChecker(json, maxDepth).run();
}

} // namespace ps
