#include "core/io/pirtexttypeparser.h"

#include "core/io/typekeycache.h"
#include "core/ir/datatype.h"

#include <charconv>

namespace ps {

namespace {

constexpr int kMaxDepth = 64;

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/// Moves `pos` past a balanced `<...>` that starts at `pos`; false when it is not closed.
bool skipAngles(std::string_view s, size_t &pos)
{
    int depth = 0;
    for (; pos < s.size(); ++pos) {
        if (s[pos] == '<') {
            ++depth;
        } else if (s[pos] == '>' && --depth == 0) {
            ++pos;
            return true;
        }
    }
    return false;
}

/// Brackets balance the way PirTextLexer::scanTypeText counts them (all kinds together), so a
/// spelling kept verbatim is delimited the same way when it is read back.
bool balanced(std::string_view s)
{
    int depth = 0;
    for (char c : s) {
        if (c == '<' || c == '[' || c == '(')
            ++depth;
        else if ((c == '>' || c == ']' || c == ')') && --depth < 0)
            return false;
    }
    return depth == 0;
}

} // namespace

Type PirTextTypeParser::parse(std::string_view text, std::string &error)
{
    const size_t hash = textHash(text);
    if (const Type *t = m_seen.find(text, hash))
        return *t;
    TypeKeyCache &known = TypeKeyCache::forThread(TypeKeyCache::Format::PirText);
    if (const Type *t = known.find(text)) {
        m_seen.add(text, hash, *t);
        return *t;
    }
    size_t pos = 0;
    std::string err;
    Type t = parseAt(text, pos, err, 0);
    if (err.empty() && pos != text.size()) {
        if (t.kind() != Type::Kind::Opaque)
            err = "unexpected '" + std::string(text.substr(pos)) + "' after type";
        t = Type::opaque(std::string(text));
    }
    if (err.empty() && t.kind() == Type::Kind::Opaque && !balanced(text))
        err = "unbalanced brackets";
    if (!err.empty()) {
        error = err;
        return balanced(text) ? Type::opaque(std::string(text)) : Type();
    }
    known.add(text, t);
    m_seen.add(text, hash, t);
    return t;
}

Type PirTextTypeParser::parseAt(std::string_view s, size_t &pos, std::string &error, int depth)
{
    if (depth > kMaxDepth) {
        error = "type nested too deeply";
        return {};
    }
    std::string_view rest = s.substr(pos);
    if (rest.starts_with("<<NULL TYPE>>")) {
        pos += 13;
        return {};
    }
    if (rest.starts_with("vec[")) {
        pos += 4;
        std::vector<Type> elements;
        if (pos < s.size() && s[pos] == ']') {
            ++pos;
            return Type::vector({});
        }
        for (;;) {
            Type t = parseAt(s, pos, error, depth + 1);
            if (!error.empty())
                return {};
            elements.push_back(t);
            while (pos < s.size() && s[pos] == ' ')
                ++pos;
            if (pos < s.size() && s[pos] == ',') {
                ++pos;
                while (pos < s.size() && s[pos] == ' ')
                    ++pos;
                continue;
            }
            if (pos < s.size() && s[pos] == ']') {
                ++pos;
                return Type::vector(std::move(elements));
            }
            error = "expected ',' or ']' in vec[...] type";
            return {};
        }
    }
    const size_t start = pos;
    while (pos < s.size() && isNameChar(s[pos]))
        ++pos;
    std::string_view name = s.substr(start, pos - start);
    if (name.empty()) {
        error = "expected a type";
        return {};
    }
    if (pos < s.size() && s[pos] == '<') {
        const size_t dot = name.rfind('.');
        std::string_view base = dot == std::string_view::npos ? name : name.substr(dot + 1);
        std::string_view dialect = dot == std::string_view::npos ? std::string_view() : name.substr(0, dot);
        const bool paddleDialect = dialect.empty() || dialect == "builtin" || dialect == "pd_op";
        if (paddleDialect
            && (base == "tensor" || base == "selectedrows" || base == "tensor_array"
                || base.starts_with("sparse"))) {
            const size_t bodyStart = pos;
            std::string bodyError;
            Type t = parseTensorBody(s, pos, base, bodyError);
            if (bodyError.empty()) {
                if (base.starts_with("sparse")) {
                    std::string text(s.substr(start, pos - start));
                    return base.find("csr") != std::string_view::npos
                        ? Type::sparseCsr(t.dtype(), t.dims(), std::move(text))
                        : Type::sparseCoo(t.dtype(), t.dims(), std::move(text));
                }
                return t;
            }
            if (!base.starts_with("sparse")) {
                error = bodyError;
                return {};
            }
            pos = bodyStart;
        }
        if (!skipAngles(s, pos)) {
            error = "unterminated '<' in type";
            return {};
        }
        return Type::opaque(std::string(s.substr(start, pos - start)));
    }
    if (name.find('.') == std::string_view::npos) {
        if (auto dt = dataTypeFromIrName(name))
            return Type::element(*dt);
    }
    return Type::opaque(std::string(name));
}

Type PirTextTypeParser::parseTensorBody(
    std::string_view s, size_t &pos, std::string_view base, std::string &error)
{
    ++pos; // '<'
    std::vector<int64_t> dims;
    while (pos < s.size() && ((s[pos] >= '0' && s[pos] <= '9') || s[pos] == '-')) {
        int64_t d = 0;
        auto [ptr, ec] = std::from_chars(s.data() + pos, s.data() + s.size(), d);
        if (ec != std::errc()) {
            error = "bad dimension in tensor type";
            return {};
        }
        pos = size_t(ptr - s.data());
        if (pos >= s.size() || s[pos] != 'x') {
            error = "expected 'x' after dimension " + std::to_string(d) + " in tensor type";
            return {};
        }
        ++pos;
        dims.push_back(d);
    }
    const size_t elemStart = pos;
    while (pos < s.size() && isNameChar(s[pos]) && s[pos] != '.')
        ++pos;
    std::string_view elem = s.substr(elemStart, pos - elemStart);
    auto dt = dataTypeFromIrName(elem);
    if (!dt) {
        error = elem.empty() ? std::string("expected an element type in tensor type")
                             : "unknown element type '" + std::string(elem) + "'";
        return {};
    }
    std::string layout;
    if (pos < s.size() && s[pos] == ' ') {
        while (pos < s.size() && s[pos] == ' ')
            ++pos;
        const size_t layoutStart = pos;
        while (pos < s.size() && s[pos] != '>')
            ++pos;
        layout = std::string(s.substr(layoutStart, pos - layoutStart));
        while (!layout.empty() && layout.back() == ' ')
            layout.pop_back();
    }
    if (pos >= s.size() || s[pos] != '>') {
        error = "expected '>' to close tensor type";
        return {};
    }
    ++pos;
    if (layout.empty())
        layout = "NCHW";
    if (base == "selectedrows")
        return Type::selectedRows(*dt, std::move(dims), std::move(layout));
    if (base == "tensor_array")
        return Type::denseTensorArray(*dt, std::move(dims), std::move(layout));
    return Type::denseTensor(*dt, std::move(dims), std::move(layout));
}

} // namespace ps
