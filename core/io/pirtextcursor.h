#pragma once

#include "core/io/pirtextlexer.h"
#include "core/ir/diagnostic.h"

#include <string>
#include <string_view>

namespace ps {

/// The token stream shared by the PIR text parsers: one token of lookahead (more through
/// peek()), positioned diagnostics (`file:line:col`) and an error budget. Once the budget is
/// spent the stream reports End, so every parse loop terminates quickly on garbage input.
class PirTextCursor
{
public:
    using Token = PirTextLexer::Token;
    using Kind = PirTextLexer::Kind;

    PirTextCursor(std::string_view text, std::string fileName, DiagnosticList &diagnostics);

    const Token &tok() const { return m_tok; }
    bool at(Kind k) const { return m_tok.kind == k; }
    /// The token `n` (>= 1) after the current one, without consuming anything.
    Token peek(int n = 1) const;
    /// Returns the current token and moves to the next one.
    Token take();
    void advance();
    bool accept(Kind k);
    /// Consumes a token of kind `k`, or reports "expected <what>" at the current token.
    bool expect(Kind k, std::string_view what);
    /// The raw spelling of a type that starts at the current token; moves past it.
    std::string_view takeTypeText();
    /// Moves to `p`, a position later on the current token's line, and reads the token there.
    void skipTo(const char *p);
    /// Restarts lexing at `p` (the start of line `line`) and reads the token there.
    void seek(const char *p, int line);
    /// Error recovery: skips tokens up to the first one that starts a new line (nothing when
    /// the current token already does).
    void skipToNextLine();
    /// The source text from the start of `first` to the end of `last`.
    std::string_view slice(const Token &first, const Token &last) const;

    SourceLocation location(const Token &t) const;
    SourceLocation location(int line, int column, long long offset) const;
    void error(const Token &t, std::string message);
    void warning(const Token &t, std::string message);
    void note(const Token &t, std::string message);
    /// Describes a token for messages: `'foo'`, `end of input`.
    static std::string describe(const Token &t);

    bool aborted() const { return m_aborted; }
    PirTextLexer &lexer() { return m_lexer; }
    const std::string &fileName() const { return m_fileName; }
    DiagnosticList &diagnostics() { return m_diags; }

private:
    static constexpr size_t kMaxErrors = 100;

    PirTextLexer m_lexer;
    Token m_tok;
    std::string m_fileName;
    DiagnosticList &m_diags;
    size_t m_errors = 0;
    bool m_aborted = false;
};

} // namespace ps
