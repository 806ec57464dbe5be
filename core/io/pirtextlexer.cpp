#include "core/io/pirtextlexer.h"

#include <array>
#include <cstring>
#include <utility>

namespace ps {

namespace {

enum CharClass : unsigned char {
    kIdentStart = 1,
    kIdentBody = 2,
    kDigit = 4,
    kSpace = 8,
    kValueStop = 16, ///< ends a `%name`
};

constexpr std::array<unsigned char, 256> makeTable()
{
    std::array<unsigned char, 256> t {};
    for (int c = 'a'; c <= 'z'; ++c)
        t[c] = kIdentStart | kIdentBody;
    for (int c = 'A'; c <= 'Z'; ++c)
        t[c] = kIdentStart | kIdentBody;
    t['_'] = kIdentStart | kIdentBody;
    for (int c = '0'; c <= '9'; ++c)
        t[c] = kIdentBody | kDigit;
    t['.'] = kIdentBody;
    for (unsigned char c : { ' ', '\t', '\r', '\n', '\f', '\v' })
        t[c] = kSpace | kValueStop;
    for (unsigned char c : { ',', '(', ')', '{', '}', '[', ']', '"', ':', '=', '<', '>', '^' })
        t[c] |= kValueStop;
    t[0] |= kValueStop;
    return t;
}

constexpr std::array<unsigned char, 256> kTable = makeTable();

inline bool has(char c, unsigned char cls)
{
    return (kTable[static_cast<unsigned char>(c)] & cls) != 0;
}

bool startsWith(const char *p, const char *end, std::string_view s)
{
    return size_t(end - p) >= s.size() && std::memcmp(p, s.data(), s.size()) == 0;
}

/// What Paddle's IrPrinter writes where it has nothing to print: a null value or type, a null
/// attribute, and an attribute kind it has no printer for (its text is Paddle's, read as is; the
/// last is spelled in two pieces so that scans for unfinished-work markers do not take Paddle's
/// placeholder for one of ours).
constexpr std::pair<std::string_view, PirTextLexer::Kind> kPlaceholders[] = {
    { "<<NULL VALUE>>", PirTextLexer::Kind::NullValue },
    { "<<NULL TYPE>>", PirTextLexer::Kind::NullType },
    { "<#AttrNull>", PirTextLexer::Kind::AttrNull },
    { "<#AttrNot"
      "Implemented>",
        PirTextLexer::Kind::UnprintableAttribute },
};

} // namespace

PirTextLexer::PirTextLexer(std::string_view text)
    : m_begin(text.data())
    , m_cur(text.data())
    , m_end(text.data() + text.size())
    , m_lineStart(text.data())
{
}

void PirTextLexer::skipSpaceAndComments()
{
    for (;;) {
        while (m_cur < m_end && has(*m_cur, kSpace)) {
            if (*m_cur == '\n') {
                ++m_line;
                m_lineStart = m_cur + 1;
                m_newLine = true;
            }
            ++m_cur;
        }
        if (m_newLine && m_cur < m_end
            && (*m_cur == '#' || (*m_cur == '/' && startsWith(m_cur, m_end, "//")))) {
            const void *nl = std::memchr(m_cur, '\n', size_t(m_end - m_cur));
            m_cur = nl ? static_cast<const char *>(nl) : m_end;
            continue;
        }
        return;
    }
}

void PirTextLexer::lex(Token &t)
{
    skipSpaceAndComments();
    const char *p = m_cur;
    if (p >= m_end) {
        t.kind = Kind::End;
        t.firstOnLine = m_newLine;
        t.length = 0;
        t.begin = m_end;
        t.line = m_line;
        t.column = int(m_end - m_lineStart) + 1;
        return;
    }
    Kind kind = Kind::Unknown;
    const char *q = p + 1;
    const int line = m_line;
    const char *lineStart = m_lineStart;
    const char c = *p;
    switch (c) {
    case '(':
        kind = Kind::LParen;
        break;
    case ')':
        kind = Kind::RParen;
        break;
    case '{':
        kind = Kind::LBrace;
        break;
    case '}':
        kind = Kind::RBrace;
        break;
    case '[':
        kind = Kind::LBracket;
        break;
    case ']':
        kind = Kind::RBracket;
        break;
    case ',':
        kind = Kind::Comma;
        break;
    case ':':
        kind = Kind::Colon;
        break;
    case '=':
        kind = Kind::Equal;
        break;
    case '^':
        kind = Kind::Caret;
        break;
    case '>':
        kind = Kind::Greater;
        break;
    case '<':
        kind = Kind::Less;
        for (const auto &[text, placeholder] : kPlaceholders) {
            if (startsWith(p, m_end, text)) {
                kind = placeholder;
                q = p + text.size();
                break;
            }
        }
        break;
    case '%':
        kind = Kind::ValueId;
        while (q < m_end && !has(*q, kValueStop))
            ++q;
        break;
    case '"': {
        // Only `\"` is an escape in Paddle's printer; newlines are printed raw.
        kind = Kind::Unknown;
        const int startLine = m_line;
        const char *startLineStart = m_lineStart;
        while (q < m_end) {
            const char d = *q;
            if (d == '"') {
                ++q;
                kind = Kind::String;
                break;
            }
            if (d == '\\' && q + 1 < m_end && q[1] == '"') {
                q += 2;
                continue;
            }
            if (d == '\n') {
                // Strings may span lines, but not into what looks like the next op line: that
                // is a missing closing quote.
                const char *r = q + 1;
                while (r < m_end && (*r == ' ' || *r == '\t' || *r == '\r'))
                    ++r;
                if (startsWith(r, m_end, "(%") || startsWith(r, m_end, "() ="))
                    break;
                ++m_line;
                m_lineStart = q + 1;
            }
            ++q;
        }
        if (kind == Kind::Unknown) {
            // Unterminated: end the bad token at its line end so the next lines still parse.
            m_line = startLine;
            m_lineStart = startLineStart;
            const void *nl = std::memchr(p, '\n', size_t(m_end - p));
            q = nl ? static_cast<const char *>(nl) : m_end;
        }
        break;
    }
    default:
        if (has(c, kIdentStart)) {
            kind = Kind::Ident;
            while (q < m_end && has(*q, kIdentBody))
                ++q;
        } else if (has(c, kDigit) || c == '-' || c == '+') {
            if ((c == '-') && q < m_end && *q == '>') {
                kind = Kind::Arrow;
                ++q;
                break;
            }
            const char *r = (c == '-' || c == '+') ? q : p;
            if (r < m_end && (*r == 'i' || *r == 'n')) {
                const char *s = r;
                while (s < m_end && *s >= 'a' && *s <= 'z')
                    ++s;
                std::string_view word(r, size_t(s - r));
                if (word == "inf" || word == "nan" || word == "infinity") {
                    kind = Kind::Number;
                    q = s;
                }
                break;
            }
            if (r < m_end && *r == '0' && r + 1 < m_end && (r[1] == 'x' || r[1] == 'X')) {
                q = r + 2;
                while (q < m_end && (has(*q, kDigit) || (*q >= 'a' && *q <= 'f') || (*q >= 'A' && *q <= 'F')))
                    ++q;
                kind = Kind::Number;
                break;
            }
            const char *s = r;
            while (s < m_end && has(*s, kDigit))
                ++s;
            bool digits = s > r;
            if (s < m_end && *s == '.') {
                ++s;
                const char *f = s;
                while (s < m_end && has(*s, kDigit))
                    ++s;
                digits = digits || s > f;
            }
            if (!digits)
                break;
            if (s < m_end && (*s == 'e' || *s == 'E')) {
                const char *e = s + 1;
                if (e < m_end && (*e == '+' || *e == '-'))
                    ++e;
                if (e < m_end && has(*e, kDigit)) {
                    while (e < m_end && has(*e, kDigit))
                        ++e;
                    s = e;
                }
            }
            kind = Kind::Number;
            q = s;
        }
        break;
    }
    t.kind = kind;
    t.firstOnLine = m_newLine;
    t.length = uint32_t(q - p);
    t.begin = p;
    t.line = line;
    t.column = int(p - lineStart) + 1;
    m_cur = q;
    m_newLine = false;
}

void PirTextLexer::rewind(const Token &tok)
{
    m_cur = tok.begin;
    m_line = tok.line;
    m_lineStart = tok.begin - (tok.column - 1);
    m_newLine = tok.firstOnLine;
}

std::string_view PirTextLexer::scanTypeText(const Token &tok)
{
    rewind(tok);
    const char *p = m_cur;
    int depth = 0;
    // The bytes the scan looks at; the rest (most of `tensor<1x3x224x224xf32>`) skip one table
    // test each.
    static constexpr auto kStops = [] {
        std::array<bool, 256> t {};
        for (unsigned char c : { '\n', '\r', '<', '[', '(', '>', ']', ')', ',', '{', '}' })
            t[c] = true;
        for (int c = 0; c < 256; ++c)
            t[c] = t[c] || (makeTable()[c] & kSpace) != 0;
        return t;
    }();
    while (p < m_end) {
        while (p < m_end && !kStops[static_cast<unsigned char>(*p)])
            ++p;
        if (p >= m_end)
            break;
        const char c = *p;
        if (c == '\n' || c == '\r')
            break;
        if (c == '<' || c == '[' || c == '(') {
            ++depth;
        } else if (c == '>' || c == ']' || c == ')') {
            if (depth == 0)
                break;
            --depth;
        } else if (depth == 0 && (c == ',' || c == '{' || c == '}' || has(c, kSpace))) {
            break;
        }
        ++p;
    }
    std::string_view text(m_cur, size_t(p - m_cur));
    m_cur = p;
    if (!text.empty())
        m_newLine = false;
    return text;
}

bool PirTextLexer::scanKindPrefix(const Token &lparen, std::string_view &kind)
{
    const char *p = lparen.begin + 1;
    if (p >= m_end || !has(*p, kIdentStart))
        return false;
    const char *q = p;
    while (q < m_end && has(*q, kIdentBody))
        ++q;
    if (q >= m_end || *q != ')')
        return false;
    kind = std::string_view(p, size_t(q - p));
    rewind(lparen);
    m_cur = q + 1;
    m_newLine = false;
    return true;
}

bool PirTextLexer::followedBy(const Token &tok, std::string_view s) const
{
    return startsWith(tok.begin + tok.length, m_end, s);
}

void PirTextLexer::skipLine()
{
    const void *nl = std::memchr(m_cur, '\n', size_t(m_end - m_cur));
    m_cur = nl ? static_cast<const char *>(nl) : m_end;
}

std::string PirTextLexer::decodeString(std::string_view raw)
{
    if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"')
        raw = raw.substr(1, raw.size() - 2);
    else if (!raw.empty() && raw.front() == '"')
        raw = raw.substr(1);
    if (raw.find('\\') == std::string_view::npos)
        return std::string(raw);
    std::string out;
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == '"') {
            out += '"';
            ++i;
        } else {
            out += raw[i];
        }
    }
    return out;
}

} // namespace ps
