#include "core/io/pirtextattributeparser.h"

#include "core/dialect/opinfo.h"
#include "core/dialect/ops.h"
#include "core/io/pirtexttypeparser.h"
#include "core/ir/datatype.h"
#include "core/ir/place.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace ps {

namespace {

using Kind = PirTextLexer::Kind;
constexpr int kMaxDepth = 64;

constexpr std::string_view kLayouts[] = { "NCHW", "NHWC", "NCDHW", "NDHWC", "ONEDNN", "SPARSE_COO",
    "SPARSE_CSR", "PSTRING_UNION", "STRIDED", "ANY", "ALL_LAYOUT", "MKLDNN", "kNCHW", "kNHWC" };

/// The registry type of attribute `name` of `op`. The search starts at `next` (the entry after
/// the previous match, as printed maps follow the registry's order) and wraps around; names
/// are unique within an op.
std::string_view yamlTypeOf(const OpInfo *op, std::string_view name, int &next)
{
    if (!op || op->numAttributes == 0)
        return {};
    for (int k = 0; k < op->numAttributes; ++k) {
        const int i = (next + k) % op->numAttributes;
        if (op->attributes[i].name == name) {
            next = i + 1;
            return op->attributes[i].type;
        }
    }
    return {};
}

/// The YAML type of one element of an array-typed attribute.
std::string_view elementHint(std::string_view hint)
{
    if (hint == "IntArray")
        return "int64_t";
    if (hint == "Scalar[]")
        return "Scalar(double)";
    if (hint.ends_with("[]"))
        return hint.substr(0, hint.size() - 2);
    return {};
}

std::optional<DataType> exactPhiName(std::string_view w)
{
    for (int i = 0; i <= int(DataType::Index); ++i) {
        if (phiName(DataType(i)) == w)
            return DataType(i);
    }
    return std::nullopt;
}

bool isLayoutWord(std::string_view w)
{
    for (std::string_view l : kLayouts) {
        if (l == w)
            return true;
    }
    return false;
}

/// `Place(name)` or `Place(name:digits)` with an identifier-like device name.
bool isPlaceSpelling(std::string_view s)
{
    s = s.substr(6, s.size() - 7); // inside "Place(...)"
    const size_t colon = s.find(':');
    const std::string_view name = s.substr(0, colon);
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum((unsigned char)c) || c == '_';
        }))
        return false;
    if (colon == std::string_view::npos)
        return true;
    const std::string_view id = s.substr(colon + 1);
    return !id.empty() && id.size() < 10
        && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isFloatText(std::string_view s)
{
    return s.find_first_of(".eEin") != std::string_view::npos;
}

bool isHexText(std::string_view s)
{
    if (!s.empty() && (s[0] == '-' || s[0] == '+'))
        s.remove_prefix(1);
    return s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

double parseDouble(std::string_view s)
{
    bool negative = false;
    std::string_view body = s;
    if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
        negative = body[0] == '-';
        body.remove_prefix(1);
    }
    if (body == "inf" || body == "infinity")
        return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    if (body == "nan")
        return negative ? -std::numeric_limits<double>::quiet_NaN()
                        : std::numeric_limits<double>::quiet_NaN();
    double d = 0;
    auto r = std::from_chars(body.data(), body.data() + body.size(), d);
    if (r.ec == std::errc::result_out_of_range)
        d = std::strtod(std::string(body).c_str(), nullptr); // overflow: HUGE_VAL, underflow: ~0
    return negative ? -d : d;
}

/// double → float without the undefined behaviour of an out-of-range conversion.
float toFloat(double d)
{
    if (std::isfinite(d) && std::fabs(d) > double(std::numeric_limits<float>::max()))
        return d < 0 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    return float(d);
}

bool parseInt(std::string_view s, int64_t &out)
{
    if (!s.empty() && s[0] == '+')
        s.remove_prefix(1);
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool fitsInt32(int64_t v)
{
    return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

bool isFloatHint(std::string_view h)
{
    return h == "float" || h == "Scalar" || h == "Scalar(float)";
}

bool isDoubleHint(std::string_view h)
{
    return h == "double" || h == "Scalar(double)";
}

} // namespace

PirTextAttributeParser::PirTextAttributeParser(PirTextCursor &cursor, PirTextTypeParser &types)
    : m_cur(cursor)
    , m_types(types)
{
}

bool PirTextAttributeParser::parseMap(std::vector<NamedAttribute> &out, const OpInfo *op, bool pdOp)
{
    m_cur.advance(); // '{'
    m_failed = false;
    int nextRegistryAttribute = 0;
    if (m_cur.accept(Kind::RBrace))
        return true;
    for (;;) {
        if (!m_cur.at(Kind::Ident)) {
            m_cur.error(
                m_cur.tok(), "expected an attribute name, found " + PirTextCursor::describe(m_cur.tok()));
            break;
        }
        const char *rawBegin = m_cur.tok().begin;
        const char *rawEnd = rawAttributeEnd();
        const ValueKey key { op, pdOp, std::string_view(rawBegin, rawEnd ? size_t(rawEnd - rawBegin) : 0) };
        const size_t keyHash = rawEnd ? m_valueCache.hashOf(key) : 0;
        if (rawEnd) {
            if (const Attribute *cached = m_valueCache.find(key, keyHash)) {
                out.emplace_back(NamedAttribute { std::string(m_cur.tok().text()), *cached });
                m_cur.skipTo(rawEnd);
                if (m_cur.accept(Kind::Comma))
                    continue;
                if (m_cur.accept(Kind::RBrace))
                    return true;
            }
        }
        const size_t diagnosticsBefore = m_cur.diagnostics().size();
        std::string_view name = m_cur.take().text();
        if (!m_cur.expect(Kind::Colon, "':' after attribute name"))
            break;
        Context ctx { yamlTypeOf(op, name, nextRegistryAttribute), name, pdOp };
        Attribute value = parseValue(ctx, 0);
        if (m_failed)
            break;
        // Paddle prints a ConstantTensorOp's TensorNameAttribute as a plain string.
        if (op && op->name == ops::kConstant && name == "value" && value.kind() == Attribute::Kind::String)
            value = Attribute::tensorName(value.asString());
        if (rawEnd && m_cur.tok().begin == rawEnd && m_cur.diagnostics().size() == diagnosticsBefore)
            m_valueCache.add(key, keyHash, value);
        out.emplace_back(NamedAttribute { std::string(name), std::move(value) });
        if (m_cur.accept(Kind::Comma))
            continue;
        if (m_cur.accept(Kind::RBrace))
            return true;
        m_cur.error(m_cur.tok(),
            "expected ',' or '}' in attribute map, found " + PirTextCursor::describe(m_cur.tok()));
        break;
    }
    // Recovery: skip to the '}' that closes this map, but never into the next op line.
    int depth = 0;
    while (!m_cur.at(Kind::End)) {
        const auto &t = m_cur.tok();
        if (depth == 0 && t.firstOnLine && t.is(Kind::LParen))
            break;
        if (t.is(Kind::LBrace) || t.is(Kind::LBracket) || t.is(Kind::LParen)) {
            ++depth;
        } else if (t.is(Kind::RBrace) || t.is(Kind::RBracket) || t.is(Kind::RParen)) {
            if (depth == 0) {
                const bool close = t.is(Kind::RBrace);
                m_cur.advance();
                if (close)
                    break;
                continue;
            }
            --depth;
        }
        m_cur.advance();
    }
    m_failed = false;
    return false;
}

const char *PirTextAttributeParser::rawAttributeEnd() const
{
    const PirTextCursor::Token &name = m_cur.tok();
    const std::string_view source = m_cur.lexer().source();
    const char *end = source.data() + source.size();
    const char *p = name.begin + name.length;
    if (p >= end || *p != ':')
        return nullptr;
    // The bytes the scan stops at; every other byte is skipped by one table test.
    static constexpr auto kStops = [] {
        std::array<bool, 256> t {};
        for (unsigned char c : { '"', '(', '[', '<', '{', ')', ']', '>', '}', ',', '\n', '\r' })
            t[c] = true;
        return t;
    }();
    int depth = 0;
    for (++p; p < end; ++p) {
        while (p < end && !kStops[static_cast<unsigned char>(*p)])
            ++p;
        if (p >= end)
            break;
        switch (*p) {
        case '"':
            for (++p; p < end && *p != '"'; ++p) {
                if (*p == '\\' && p + 1 < end && p[1] == '"')
                    ++p; // the lexer's only escape
                else if (*p == '\n')
                    return nullptr;
            }
            if (p >= end)
                return nullptr;
            break;
        case '(':
        case '[':
        case '<':
        case '{':
            ++depth;
            break;
        case ')':
        case ']':
        case '>':
            if (depth == 0)
                return nullptr;
            --depth;
            break;
        case '}':
            if (depth == 0)
                return p;
            --depth;
            break;
        case ',':
            if (depth == 0)
                return p;
            break;
        case '\n':
        case '\r':
            return nullptr;
        default:
            break;
        }
    }
    return nullptr;
}

Attribute PirTextAttributeParser::parseValue(const Context &ctx, int depth)
{
    if (depth > kMaxDepth) {
        m_cur.error(m_cur.tok(), "attribute value nested too deeply");
        m_failed = true;
        return {};
    }
    const PirTextCursor::Token t = m_cur.tok();
    switch (t.kind) {
    case Kind::LParen: {
        std::string_view kind;
        if (m_cur.lexer().scanKindPrefix(t, kind)) {
            m_cur.advance();
            return parsePrefixed(kind, ctx, depth);
        }
        if (m_cur.peek(1).is(Kind::Number) && m_cur.peek(2).is(Kind::Comma)) {
            m_cur.advance();
            const double re = parseDouble(m_cur.take().text());
            m_cur.advance();
            if (!m_cur.at(Kind::Number)) {
                m_cur.error(m_cur.tok(), "expected the imaginary part of a complex value");
                m_failed = true;
                return {};
            }
            const double im = parseDouble(m_cur.take().text());
            if (!m_cur.expect(Kind::RParen, "')' after complex value")) {
                m_failed = true;
                return {};
            }
            return Attribute::complex128({ re, im });
        }
        return takeUnknown("", true, "unrecognised attribute value");
    }
    case Kind::LBracket:
        return parseArray(ctx, depth);
    case Kind::String:
        m_cur.advance();
        return Attribute::string(PirTextLexer::decodeString(t.text()));
    case Kind::Number:
        m_cur.advance();
        return parseNumber(t, ctx.yamlType);
    case Kind::Ident:
        return parseWord(ctx);
    case Kind::AttrNull:
        m_cur.advance();
        return {};
    case Kind::UnprintableAttribute:
        m_cur.advance();
        m_cur.warning(t,
            "attribute '" + std::string(ctx.name) + "' has no value: Paddle printed it as "
                + std::string(t.text()) + " (an attribute its printer cannot write)");
        return Attribute::unknown("", std::string(t.text()));
    case Kind::NullType:
        m_cur.advance();
        return Attribute::type(Type());
    case Kind::Less:
        // The kernel dialect's KernelAttribute (after pd_op_to_kernel_pass):
        // `kernel_key:<backend:CPU|layout:NCHW|dtype:float32>`, kept verbatim (printed back as is).
        return takeUnknown("", false, {});
    case Kind::End:
    case Kind::Comma:
    case Kind::RBrace:
    case Kind::RBracket:
        m_cur.error(t, "expected an attribute value, found " + PirTextCursor::describe(t));
        m_failed = true;
        return {};
    default:
        if (t.is(Kind::Unknown) && t.length > 0 && t.begin[0] == '"') {
            m_cur.error(t, "unterminated string");
            m_failed = true;
            return {};
        }
        return takeUnknown("", true, "unrecognised attribute value");
    }
}

Attribute PirTextAttributeParser::parsePrefixed(std::string_view kind, const Context &ctx, int depth)
{
    const PirTextCursor::Token t = m_cur.tok();
    auto fail = [&](std::string message) {
        m_cur.error(t, std::move(message));
        m_failed = true;
        return Attribute();
    };
    if (kind == "Int32" || kind == "Int64" || kind == "Index") {
        int64_t v = 0;
        if (!t.is(Kind::Number) || isFloatText(t.text()) || !parseInt(t.text(), v))
            return fail(
                "expected an integer after (" + std::string(kind) + "), found " + PirTextCursor::describe(t));
        m_cur.advance();
        if (kind == "Int32") {
            if (fitsInt32(v))
                return Attribute::int32(int32_t(v));
            m_cur.error(t, "value " + std::string(t.text()) + " does not fit (Int32); kept as Int64");
            return Attribute::int64(v);
        }
        return kind == "Int64" ? Attribute::int64(v) : Attribute::index(v);
    }
    if (kind == "Float" || kind == "Double") {
        const bool word
            = t.is(Kind::Ident) && (t.text() == "inf" || t.text() == "nan" || t.text() == "infinity");
        if (!t.is(Kind::Number) && !word)
            return fail(
                "expected a number after (" + std::string(kind) + "), found " + PirTextCursor::describe(t));
        m_cur.advance();
        const double d = parseDouble(t.text());
        return kind == "Float" ? Attribute::f32(toFloat(d)) : Attribute::f64(d);
    }
    if (kind == "Bool") {
        if (!t.isIdent("true") && !t.isIdent("false"))
            return fail("expected true or false after (Bool)");
        m_cur.advance();
        return Attribute::boolean(t.text() == "true");
    }
    if (kind == "Array") {
        if (!t.is(Kind::LBracket))
            return fail("expected '[' after (Array), found " + PirTextCursor::describe(t));
        return parseArray(Context { {}, {}, false }, depth);
    }
    if (kind == "pd_op.IntArray") {
        if (!t.is(Kind::LBracket))
            return fail("expected '[' after (pd_op.IntArray), found " + PirTextCursor::describe(t));
        Attribute a = parseArray(Context { "IntArray", ctx.name, ctx.pdOp }, depth);
        if (m_failed || a.kind() == Attribute::Kind::IntArray)
            return a;
        return fail("(pd_op.IntArray) needs a list of integers");
    }
    if (kind == "pd_op.DataType") {
        if (t.is(Kind::Ident)) {
            if (auto dt = dataTypeFromPhiName(t.text())) {
                m_cur.advance();
                if (*dt == DataType::Undefined && m_cur.at(Kind::LParen) && m_cur.peek(2).is(Kind::RParen)) {
                    m_cur.advance();
                    m_cur.advance();
                    m_cur.advance();
                }
                return Attribute::dataType(*dt);
            }
        }
        return takeUnknown(std::string(kind), true, "unknown data type");
    }
    if (kind == "pd_op.Place") {
        if (t.isIdent("Place") && m_cur.peek().is(Kind::LParen))
            return parsePlace();
        return takeUnknown(std::string(kind), true, "unrecognised place");
    }
    if (kind == "pd_op.DataLayout") {
        if (t.is(Kind::Ident)) {
            if (t.text() == "Undefined" && m_cur.peek().is(Kind::LParen) && m_cur.peek(3).is(Kind::RParen)) {
                const auto last = m_cur.peek(3);
                m_cur.advance();
                m_cur.advance();
                m_cur.advance();
                m_cur.advance();
                return Attribute::dataLayout(std::string(m_cur.slice(t, last)));
            }
            m_cur.advance();
            return Attribute::dataLayout(std::string(t.text()));
        }
        return takeUnknown(std::string(kind), true, "unrecognised data layout");
    }
    if (kind == "String" || kind == "Str") {
        if (!t.is(Kind::String))
            return fail("expected a string after (" + std::string(kind) + ")");
        m_cur.advance();
        return Attribute::string(PirTextLexer::decodeString(t.text()));
    }
    if (kind == "Pointer")
        return takeUnknown("Pointer", false, {});
    return takeUnknown(
        std::string(kind), true, "unknown attribute kind (" + std::string(kind) + ") with value");
}

Attribute PirTextAttributeParser::parseArray(const Context &ctx, int depth)
{
    m_cur.advance(); // '['
    Context elemCtx { elementHint(ctx.yamlType), {}, ctx.pdOp };
    // Sized once (parseValue stops at kMaxDepth): growing it here would move the buffers of the
    // arrays that enclose this one while they are being filled.
    if (m_arrayScratch.empty())
        m_arrayScratch.resize(kMaxDepth + 2);
    std::vector<Attribute> &elements = m_arrayScratch[size_t(depth)];
    elements.clear();
    if (!m_cur.accept(Kind::RBracket)) {
        for (;;) {
            elements.push_back(parseValue(elemCtx, depth + 1));
            if (m_failed)
                return {};
            if (m_cur.accept(Kind::Comma))
                continue;
            if (m_cur.accept(Kind::RBracket))
                break;
            m_cur.error(
                m_cur.tok(), "expected ',' or ']' in array, found " + PirTextCursor::describe(m_cur.tok()));
            m_failed = true;
            return {};
        }
    }
    const bool wantIntArray
        = ctx.yamlType == "IntArray" || (ctx.yamlType.empty() && ctx.pdOp && ctx.name == "shape");
    if (wantIntArray) {
        std::vector<int64_t> ints;
        ints.reserve(elements.size());
        for (const Attribute &e : elements) {
            if (!e.isInteger())
                return Attribute::array(takeElements(elements));
            ints.push_back(e.asInt());
        }
        return Attribute::intArray(std::move(ints));
    }
    return Attribute::array(takeElements(elements));
}

std::vector<Attribute> PirTextAttributeParser::takeElements(std::vector<Attribute> &scratch)
{
    return std::vector<Attribute>(
        std::make_move_iterator(scratch.begin()), std::make_move_iterator(scratch.end()));
}

Attribute PirTextAttributeParser::parseNumber(const PirTextCursor::Token &t, std::string_view hint)
{
    std::string_view s = t.text();
    if (isHexText(s))
        return Attribute::unknown("Pointer", std::string(s));
    int64_t v = 0;
    if (!isFloatText(s) && parseInt(s, v)) {
        if (isFloatHint(hint))
            return Attribute::f32(toFloat(double(v)));
        if (isDoubleHint(hint))
            return Attribute::f64(double(v));
        if (hint == "int64_t" || hint == "Scalar(int64_t)")
            return Attribute::int64(v);
        return fitsInt32(v) ? Attribute::int32(int32_t(v)) : Attribute::int64(v);
    }
    const double d = parseDouble(s);
    if (isFloatHint(hint))
        return Attribute::f32(toFloat(d));
    return Attribute::f64(d);
}

Attribute PirTextAttributeParser::parseWord(const Context &ctx)
{
    const PirTextCursor::Token t = m_cur.tok();
    const std::string_view w = t.text();
    if (w == "true" || w == "false") {
        m_cur.advance();
        return Attribute::boolean(w == "true");
    }
    if (w == "inf" || w == "nan" || w == "infinity") {
        m_cur.advance();
        return parseNumber(t, ctx.yamlType);
    }
    if (w == "Place" && m_cur.peek().is(Kind::LParen))
        return parsePlace();
    if (w == "Undefined" && m_cur.peek().is(Kind::LParen) && m_cur.peek(2).is(Kind::Ident)
        && m_cur.peek(3).is(Kind::RParen)) {
        const auto inner = m_cur.peek(2);
        const auto last = m_cur.peek(3);
        for (int i = 0; i < 4; ++i)
            m_cur.advance();
        if (inner.text() == "ALL_DTYPE")
            return Attribute::dataType(DataType::Undefined);
        return Attribute::dataLayout(std::string(m_cur.slice(t, last)));
    }
    if (auto dt = exactPhiName(w)) {
        m_cur.advance();
        return Attribute::dataType(*dt);
    }
    if (isLayoutWord(w)) {
        m_cur.advance();
        return Attribute::dataLayout(std::string(w));
    }
    if (m_cur.lexer().followedBy(t, "<") || (w == "vec" && m_cur.lexer().followedBy(t, "["))
        || dataTypeFromIrName(w))
        return parseTypeValue();
    return takeUnknown("", true, "unrecognised attribute value");
}

Attribute PirTextAttributeParser::parsePlace()
{
    const PirTextCursor::Token first = m_cur.take(); // Place
    PirTextCursor::Token last = m_cur.take(); // (
    // Up to the first ')', never past the end of the attribute (a bad place stays one value).
    while (!m_cur.at(Kind::End) && !m_cur.tok().firstOnLine) {
        const Kind k = m_cur.tok().kind;
        if (k == Kind::Comma || k == Kind::RBrace || k == Kind::RBracket || k == Kind::Unknown)
            break;
        last = m_cur.take();
        if (k == Kind::RParen)
            break;
    }
    std::string text(m_cur.slice(first, last));
    Place p;
    if (last.is(Kind::RParen) && isPlaceSpelling(text) && Place::parse(text, p))
        return Attribute::place(std::move(p));
    m_cur.warning(first, "unrecognised place '" + text + "' kept as an unknown attribute");
    return Attribute::unknown("", std::move(text));
}

Attribute PirTextAttributeParser::parseTypeValue()
{
    const PirTextCursor::Token t = m_cur.tok();
    std::string_view text = m_cur.takeTypeText();
    std::string error;
    Type type = m_types.parse(text, error);
    if (!error.empty())
        m_cur.error(t, error);
    return Attribute::type(type);
}

Attribute PirTextAttributeParser::takeUnknown(std::string kindId, bool warn, std::string_view why)
{
    const PirTextCursor::Token first = m_cur.tok();
    PirTextCursor::Token last = first;
    bool any = false;
    int depth = 0;
    while (!m_cur.at(Kind::End)) {
        const auto &t = m_cur.tok();
        if (depth == 0
            && (t.is(Kind::Comma) || t.is(Kind::RBrace) || t.is(Kind::RBracket) || t.is(Kind::RParen)))
            break;
        if (depth == 0 && any && t.firstOnLine)
            break;
        if (t.is(Kind::Unknown) && t.length > 0 && t.begin[0] == '"') {
            // Where an unterminated string ends depends on the text after it: never keep one.
            m_cur.error(t, "unterminated string");
            m_failed = true;
            return {};
        }
        if (t.is(Kind::LParen) || t.is(Kind::LBracket) || t.is(Kind::LBrace))
            ++depth;
        else if (t.is(Kind::RParen) || t.is(Kind::RBracket) || t.is(Kind::RBrace))
            --depth;
        last = t;
        any = true;
        m_cur.advance();
    }
    if (!any) {
        m_cur.error(first, "expected an attribute value, found " + PirTextCursor::describe(first));
        m_failed = true;
        return {};
    }
    std::string text(m_cur.slice(first, last));
    if (warn)
        m_cur.warning(first, std::string(why) + " '" + text + "' kept as an unknown attribute");
    return Attribute::unknown(std::move(kindId), std::move(text));
}

} // namespace ps
