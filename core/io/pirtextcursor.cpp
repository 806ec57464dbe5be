#include "core/io/pirtextcursor.h"

namespace ps {

PirTextCursor::PirTextCursor(std::string_view text, std::string fileName, DiagnosticList &diagnostics)
    : m_lexer(text)
    , m_fileName(std::move(fileName))
    , m_diags(diagnostics)
{
    m_lexer.lex(m_tok);
}

PirTextCursor::Token PirTextCursor::peek(int n) const
{
    PirTextLexer copy = m_lexer;
    Token t = m_tok;
    for (int i = 0; i < n && !t.is(Kind::End); ++i)
        t = copy.next();
    return t;
}

PirTextCursor::Token PirTextCursor::take()
{
    Token t = m_tok;
    advance();
    return t;
}

void PirTextCursor::advance()
{
    if (m_aborted) {
        m_tok.kind = Kind::End;
        m_tok.length = 0;
        return;
    }
    m_lexer.lex(m_tok);
}

bool PirTextCursor::accept(Kind k)
{
    if (m_tok.kind != k)
        return false;
    advance();
    return true;
}

bool PirTextCursor::expect(Kind k, std::string_view what)
{
    if (accept(k))
        return true;
    error(m_tok, "expected " + std::string(what) + ", found " + describe(m_tok));
    return false;
}

std::string_view PirTextCursor::takeTypeText()
{
    if (m_tok.is(Kind::End))
        return {};
    std::string_view text = m_lexer.scanTypeText(m_tok);
    advance();
    return text;
}

void PirTextCursor::skipTo(const char *p)
{
    Token at;
    at.begin = p;
    at.line = m_tok.line;
    at.column = m_tok.column + int(p - m_tok.begin);
    at.firstOnLine = false;
    m_lexer.rewind(at);
    advance();
}

void PirTextCursor::seek(const char *p, int line)
{
    Token at;
    at.begin = p;
    at.line = line;
    at.column = 1;
    at.firstOnLine = true;
    m_lexer.rewind(at);
    advance();
}

void PirTextCursor::skipToNextLine()
{
    if (m_tok.is(Kind::End) || m_tok.firstOnLine)
        return;
    m_lexer.skipLine();
    advance();
    while (!m_tok.is(Kind::End) && !m_tok.firstOnLine)
        advance();
}

std::string_view PirTextCursor::slice(const Token &first, const Token &last) const
{
    const char *end = last.begin + last.length;
    if (end < first.begin)
        return {};
    return { first.begin, size_t(end - first.begin) };
}

SourceLocation PirTextCursor::location(const Token &t) const
{
    return location(t.line, t.column, m_lexer.offsetOf(t.begin));
}

SourceLocation PirTextCursor::location(int line, int column, long long offset) const
{
    SourceLocation loc;
    loc.file = m_fileName;
    loc.line = line;
    loc.column = column;
    loc.byteOffset = offset;
    return loc;
}

void PirTextCursor::error(const Token &t, std::string message)
{
    if (m_aborted)
        return;
    m_diags.error(location(t), std::move(message));
    if (++m_errors >= kMaxErrors) {
        m_diags.error(location(t), "too many errors; giving up");
        m_aborted = true;
        m_tok.kind = Kind::End;
        m_tok.length = 0;
    }
}

void PirTextCursor::warning(const Token &t, std::string message)
{
    if (!m_aborted)
        m_diags.warning(location(t), std::move(message));
}

void PirTextCursor::note(const Token &t, std::string message)
{
    if (!m_aborted)
        m_diags.note(location(t), std::move(message));
}

std::string PirTextCursor::describe(const Token &t)
{
    if (t.is(Kind::End))
        return "end of input";
    std::string_view s = t.text();
    if (s.size() > 40)
        s = s.substr(0, 40);
    std::string out = "'";
    for (char c : s)
        out += (c == '\n') ? ' ' : c;
    if (t.length > 40)
        out += "...";
    out += "'";
    return out;
}

} // namespace ps
