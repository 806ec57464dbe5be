#include "core/io/yamlreader.h"

#include "core/io/inputfile.h"

#include <map>

namespace ps {
namespace {

/// One logical line: its indentation, its content without the comment and trailing blanks, and
/// the column (1-based) where the content starts in the file.
struct Line
{
    int indent = 0;
    std::string text;
    int number = 0;
    int column = 1;
};

struct YamlError
{
    int line;
    int column;
    std::string message;
};

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    return s;
}

/// The end of a quoted scalar starting at s[i] (a quote): the index after the closing quote, or
/// npos when it is not closed on this line.
size_t quotedEnd(std::string_view s, size_t i)
{
    const char quote = s[i];
    for (size_t k = i + 1; k < s.size(); ++k) {
        if (quote == '"' && s[k] == '\\') {
            ++k;
            continue;
        }
        if (s[k] != quote)
            continue;
        if (quote == '\'' && k + 1 < s.size() && s[k + 1] == '\'') {
            ++k; // '' is an escaped quote
            continue;
        }
        return k + 1;
    }
    return std::string_view::npos;
}

/// `s` without a trailing comment (a '#' at the start or after a blank, outside quotes). Quotes
/// only count where a scalar can start (line start, after ": ", "- ", '[', '{', ','): an
/// apostrophe inside a plain scalar ("don't") is text.
std::string_view stripComment(std::string_view s)
{
    bool scalarStart = true;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '#' && (i == 0 || isBlank(s[i - 1])))
            return s.substr(0, i);
        if ((c == '"' || c == '\'') && scalarStart) {
            const size_t end = quotedEnd(s, i);
            if (end == std::string_view::npos)
                return s;
            i = end - 1;
            scalarStart = false;
            continue;
        }
        if (isBlank(c))
            continue;
        scalarStart = c == '[' || c == '{' || c == ','
            || ((c == ':' || c == '-') && i + 1 < s.size() && isBlank(s[i + 1]));
    }
    return s;
}

class Parser
{
public:
    explicit Parser(std::vector<Line> lines)
        : m_lines(std::move(lines))
    {
    }

    YamlNode document()
    {
        YamlNode root = block(-1);
        if (m_pos < m_lines.size())
            fail(m_lines[m_pos], 1, "unexpected indentation");
        return root;
    }

private:
    [[noreturn]] void fail(const Line &line, int offset, const std::string &message) const
    {
        throw YamlError { line.number, line.column + offset - 1, message };
    }

    static bool isItem(const std::string &t)
    {
        return t == "-" || (t.size() > 1 && t[0] == '-' && t[1] == ' ');
    }

    /// The index of the ':' that ends a mapping key (followed by a blank or the end, outside
    /// quotes and flow brackets), or npos.
    static size_t keyColon(std::string_view t)
    {
        if (t.empty() || t[0] == '[' || t[0] == '{')
            return std::string_view::npos;
        size_t i = 0;
        if (t[0] == '"' || t[0] == '\'') {
            i = quotedEnd(t, 0);
            if (i == std::string_view::npos)
                return i;
        }
        for (; i < t.size(); ++i)
            if (t[i] == ':' && (i + 1 == t.size() || isBlank(t[i + 1])))
                return i;
        return std::string_view::npos;
    }

    /// Nesting deeper than this is refused (the parser recurses once per level).
    static constexpr int kMaxDepth = 256;

    struct Depth
    {
        Parser &parser;
        Depth(Parser &p, const Line &line, int column)
            : parser(p)
        {
            if (++parser.m_depth > kMaxDepth)
                parser.fail(line, column, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
        }
        ~Depth() { --parser.m_depth; }
    };

    YamlNode block(int parentIndent)
    {
        if (m_pos < m_lines.size() && m_lines[m_pos].indent > parentIndent)
            return guardedBlock(parentIndent);
        return YamlNode { YamlNode::Kind::Null, {}, false, {}, {},
            m_pos < m_lines.size() ? m_lines[m_pos].number : 0 };
    }

    YamlNode guardedBlock(int parentIndent)
    {
        const Depth depth(*this, m_lines[m_pos], 1);
        if (m_pos >= m_lines.size() || m_lines[m_pos].indent <= parentIndent)
            return YamlNode { YamlNode::Kind::Null, {}, false, {}, {},
                m_pos < m_lines.size() ? m_lines[m_pos].number : 0 };
        const Line &line = m_lines[m_pos];
        if (line.text == "?" || line.text.rfind("? ", 0) == 0)
            fail(line, 1, "complex mapping keys ('? ') are not supported");
        if (isItem(line.text))
            return sequence(line.indent);
        if (keyColon(line.text) != std::string_view::npos)
            return mapping(line.indent);
        ++m_pos;
        YamlNode node = inlineValue(line, line.text, 0);
        continuePlain(node, parentIndent);
        return node;
    }

    YamlNode sequence(int indent)
    {
        YamlNode node;
        node.kind = YamlNode::Kind::Sequence;
        node.line = m_lines[m_pos].number;
        while (m_pos < m_lines.size() && m_lines[m_pos].indent == indent && isItem(m_lines[m_pos].text)) {
            Line &line = m_lines[m_pos];
            size_t skip = 1;
            while (skip < line.text.size() && line.text[skip] == ' ')
                ++skip;
            if (skip >= line.text.size()) {
                ++m_pos;
                node.items.push_back(block(indent));
                continue;
            }
            // "- rest": the rest is a node at its own column; its following lines continue it.
            line.text.erase(0, skip);
            line.indent += int(skip);
            line.column += int(skip);
            node.items.push_back(block(indent));
        }
        return node;
    }

    YamlNode mapping(int indent)
    {
        YamlNode node;
        node.kind = YamlNode::Kind::Mapping;
        node.line = m_lines[m_pos].number;
        while (m_pos < m_lines.size() && m_lines[m_pos].indent == indent) {
            const Line &line = m_lines[m_pos];
            if (isItem(line.text))
                fail(line, 1, "a sequence item where a mapping key was expected");
            if (line.text.rfind("? ", 0) == 0)
                fail(line, 1, "complex mapping keys ('? ') are not supported");
            const size_t colon = keyColon(line.text);
            if (colon == std::string_view::npos)
                fail(line, 1, "expected 'key: value'");
            const std::string key = scalarText(line, trim(std::string_view(line.text).substr(0, colon)), 1);
            std::string_view value = trim(std::string_view(line.text).substr(colon + 1));
            const int valueOffset = int(line.text.size() - value.size()) + 1;
            ++m_pos;
            std::string anchor;
            if (!value.empty() && value[0] == '&') {
                const size_t end = value.find(' ');
                anchor = std::string(value.substr(1, end == std::string_view::npos ? end : end - 1));
                value = end == std::string_view::npos ? std::string_view() : trim(value.substr(end));
            }
            YamlNode child;
            if (value.empty()) {
                if (m_pos < m_lines.size() && m_lines[m_pos].indent > indent)
                    child = block(indent);
                else if (m_pos < m_lines.size() && m_lines[m_pos].indent == indent
                    && isItem(m_lines[m_pos].text))
                    child = sequence(indent); // PyYAML puts a key's sequence at the key's column
                else
                    child.line = line.number;
            } else if (value[0] == '|' || value[0] == '>') {
                child = blockScalar(indent, value[0] == '|');
                child.line = line.number;
            } else {
                child = inlineValue(line, value, valueOffset);
                continuePlain(child, indent);
            }
            if (!anchor.empty())
                m_anchors[anchor] = child;
            node.entries.push_back(YamlEntry { key, std::move(child) });
        }
        return node;
    }

    /// A plain scalar continues on more indented lines (folded with a space).
    void continuePlain(YamlNode &node, int parentIndent)
    {
        if (node.kind != YamlNode::Kind::Scalar || node.quoted)
            return;
        while (m_pos < m_lines.size() && m_lines[m_pos].indent > parentIndent) {
            node.scalar += ' ' + m_lines[m_pos].text;
            ++m_pos;
        }
    }

    YamlNode blockScalar(int parentIndent, bool literal)
    {
        YamlNode node;
        node.kind = YamlNode::Kind::Scalar;
        node.quoted = true;
        while (m_pos < m_lines.size() && m_lines[m_pos].indent > parentIndent) {
            if (!node.scalar.empty())
                node.scalar += literal ? '\n' : ' ';
            node.scalar += m_lines[m_pos].text;
            ++m_pos;
        }
        return node;
    }

    /// A value on one line: alias, anchor, flow collection, quoted or plain scalar. `offset` is
    /// the 1-based position of `text` within the line's content, for messages.
    YamlNode inlineValue(const Line &line, std::string_view text, int offset)
    {
        offset = std::max(offset, 1);
        if (text[0] == '*') {
            auto it = m_anchors.find(std::string(text.substr(1)));
            if (it == m_anchors.end())
                fail(line, offset, "unknown alias '" + std::string(text) + "'");
            YamlNode copy = it->second;
            copy.line = line.number;
            return copy;
        }
        if (text[0] == '!')
            fail(line, offset, "tags ('!') are not supported");
        if (text[0] == '&') {
            const size_t end = text.find(' ');
            if (end == std::string_view::npos)
                fail(line, offset, "an anchor without a value");
            YamlNode node = inlineValue(line, trim(text.substr(end)), offset + int(end) + 1);
            m_anchors[std::string(text.substr(1, end - 1))] = node;
            return node;
        }
        if (text[0] == '[' || text[0] == '{') {
            size_t i = 0;
            YamlNode node = flow(line, text, i, offset);
            skipBlanks(text, i);
            if (i != text.size())
                fail(line, offset + int(i), "unexpected text after a flow collection");
            return node;
        }
        YamlNode node;
        node.line = line.number;
        node.kind = YamlNode::Kind::Scalar;
        if (text[0] == '"' || text[0] == '\'') {
            const size_t end = quotedEnd(text, 0);
            if (end != text.size())
                fail(line, offset,
                    end == std::string_view::npos ? "an unterminated quoted scalar"
                                                  : "unexpected text after a quoted scalar");
            node.scalar = scalarText(line, text, offset);
            node.quoted = true;
            return node;
        }
        node.scalar = std::string(text);
        if (text == "~" || text == "null" || text == "Null" || text == "NULL")
            node.kind = YamlNode::Kind::Null;
        return node;
    }

    static void skipBlanks(std::string_view s, size_t &i)
    {
        while (i < s.size() && isBlank(s[i]))
            ++i;
    }

    YamlNode flow(const Line &line, std::string_view s, size_t &i, int offset)
    {
        const Depth depth(*this, line, offset + int(i));
        skipBlanks(s, i);
        if (i >= s.size())
            fail(line, offset + int(i), "a flow collection that continues on the next line is not supported");
        YamlNode node;
        node.line = line.number;
        const char open = s[i];
        if (open == '[' || open == '{') {
            const char close = open == '[' ? ']' : '}';
            node.kind = open == '[' ? YamlNode::Kind::Sequence : YamlNode::Kind::Mapping;
            ++i;
            for (;;) {
                skipBlanks(s, i);
                if (i >= s.size())
                    fail(line, offset + int(i),
                        "a flow collection that continues on the next line is not supported");
                if (s[i] == close) {
                    ++i;
                    return node;
                }
                if (node.kind == YamlNode::Kind::Sequence) {
                    node.items.push_back(flow(line, s, i, offset));
                } else {
                    YamlNode key = flow(line, s, i, offset);
                    skipBlanks(s, i);
                    if (i >= s.size() || s[i] != ':')
                        fail(line, offset + int(i), "expected ':' in a flow mapping");
                    ++i;
                    node.entries.push_back(YamlEntry { key.scalar, flow(line, s, i, offset) });
                }
                skipBlanks(s, i);
                if (i >= s.size())
                    fail(line, offset + int(i),
                        "a flow collection that continues on the next line is not supported");
                if (s[i] == ',')
                    ++i;
                else if (s[i] != close)
                    fail(line, offset + int(i), std::string("expected ',' or '") + close + "'");
            }
        }
        node.kind = YamlNode::Kind::Scalar;
        if (open == '"' || open == '\'') {
            const size_t end = quotedEnd(s, i);
            if (end == std::string_view::npos)
                fail(line, offset + int(i), "an unterminated quoted scalar");
            node.scalar = scalarText(line, s.substr(i, end - i), offset + int(i));
            node.quoted = true;
            i = end;
            return node;
        }
        const size_t start = i;
        while (i < s.size() && s[i] != ',' && s[i] != ']' && s[i] != '}'
            && !(s[i] == ':' && (i + 1 == s.size() || isBlank(s[i + 1]))))
            ++i;
        node.scalar = std::string(trim(s.substr(start, i - start)));
        if (node.scalar.empty() || node.scalar == "~" || node.scalar == "null")
            node.kind = YamlNode::Kind::Null;
        return node;
    }

    /// The text of a plain or quoted scalar (quotes removed, escapes resolved).
    std::string scalarText(const Line &line, std::string_view t, int offset) const
    {
        if (t.empty() || (t[0] != '"' && t[0] != '\''))
            return std::string(t);
        std::string out;
        const std::string_view body = t.substr(1, t.size() >= 2 ? t.size() - 2 : 0);
        for (size_t i = 0; i < body.size(); ++i) {
            const char c = body[i];
            if (t[0] == '\'') {
                out += c;
                if (c == '\'' && i + 1 < body.size() && body[i + 1] == '\'')
                    ++i;
                continue;
            }
            if (c != '\\' || i + 1 >= body.size()) {
                out += c;
                continue;
            }
            const char e = body[++i];
            switch (e) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case '0':
                out += '\0';
                break;
            case '\\':
            case '"':
            case '/':
                out += e;
                break;
            case 'u': {
                if (i + 4 >= body.size())
                    fail(line, offset + int(i), "a short \\u escape");
                unsigned cp = 0;
                for (size_t k = 1; k <= 4; ++k) {
                    const char h = body[i + k];
                    const int digit = h >= '0' && h <= '9' ? h - '0'
                        : h >= 'a' && h <= 'f'             ? h - 'a' + 10
                        : h >= 'A' && h <= 'F'             ? h - 'A' + 10
                                                           : -1;
                    if (digit < 0)
                        fail(line, offset + int(i), "a bad \\u escape");
                    cp = cp * 16 + unsigned(digit);
                }
                i += 4;
                if (cp < 0x80) {
                    out += char(cp);
                } else if (cp < 0x800) {
                    out += char(0xC0 | (cp >> 6));
                    out += char(0x80 | (cp & 0x3F));
                } else {
                    out += char(0xE0 | (cp >> 12));
                    out += char(0x80 | ((cp >> 6) & 0x3F));
                    out += char(0x80 | (cp & 0x3F));
                }
                break;
            }
            default:
                fail(line, offset + int(i), std::string("an unsupported escape '\\") + e + "'");
            }
        }
        return out;
    }

    std::vector<Line> m_lines;
    size_t m_pos = 0;
    std::map<std::string, YamlNode> m_anchors;
    int m_depth = 0;
};

} // namespace

std::optional<YamlNode> YamlReader::parse(
    std::string_view text, const std::string &file, DiagnosticList &diagnostics)
{
    std::vector<Line> lines;
    int number = 0;
    bool started = false;
    for (size_t pos = 0; pos <= text.size();) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view raw = text.substr(pos, end - pos);
        pos = end + 1;
        ++number;
        if (!raw.empty() && raw.back() == '\r')
            raw.remove_suffix(1);
        if (number == 1 && raw.substr(0, 3) == "\xEF\xBB\xBF")
            raw.remove_prefix(3);
        size_t indent = 0;
        while (indent < raw.size() && raw[indent] == ' ')
            ++indent;
        const std::string_view content = trim(stripComment(raw.substr(indent)));
        if (content.empty())
            continue;
        if (indent < raw.size() && raw[indent] == '\t') {
            diagnostics.error(SourceLocation { file, number, int(indent) + 1, {}, -1 },
                "a tab in the indentation (YAML indents with spaces)");
            return std::nullopt;
        }
        if (indent == 0 && (content == "---" || content.rfind("--- ", 0) == 0 || content == "...")) {
            if (started)
                break; // only the first document
            if (content.size() > 4)
                lines.push_back({ 0, std::string(trim(content.substr(4))), number, 5 });
            continue;
        }
        if (indent == 0 && content[0] == '%')
            continue; // a directive (%YAML 1.1)
        started = true;
        lines.push_back({ int(indent), std::string(content), number, int(indent) + 1 });
        if (pos > text.size())
            break;
    }
    try {
        return Parser(std::move(lines)).document();
    } catch (const YamlError &e) {
        diagnostics.error(SourceLocation { file, e.line, e.column, {}, -1 }, e.message);
    }
    return std::nullopt;
}

std::optional<YamlNode> YamlReader::read(const std::string &path, DiagnosticList &diagnostics)
{
    // Through InputFile: a .yml beside a program may be a FIFO, a device or a huge file.
    std::string error;
    std::optional<std::string> bytes = InputFile::readAll(path, InputFile::kManifestLimit, error);
    if (!bytes) {
        InputFile::report(error, path, diagnostics);
        return std::nullopt;
    }
    return parse(*bytes, path, diagnostics);
}

} // namespace ps
