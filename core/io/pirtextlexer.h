#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ps {

/// Hand-written tokenizer for Paddle's PIR text print format (all three generations).
///
/// Works directly on the caller's buffer (tokens are views into it), tracks 1-based line and
/// column, and skips whitespace plus whole-line `#` and `//` comments (hand-edited docs, test
/// fixtures). Copyable: a copy is a cheap save point for arbitrary lookahead. Types are not
/// tokenized (`tensor<-1x3xf32>` would split badly); the parser takes them raw with
/// scanTypeText().
class PirTextLexer
{
public:
    enum class Kind : unsigned char {
        End,
        LParen,
        RParen,
        LBrace,
        RBrace,
        LBracket,
        RBracket,
        Less,
        Greater,
        Comma,
        Colon,
        Equal,
        Arrow, ///< `->`
        Caret, ///< `^`
        ValueId, ///< `%0`, `%arg_1`, `%kwarg_x.y`, `%stack_0`
        String, ///< `"..."`, raw (quotes and `\"` escapes kept)
        Number, ///< `12`, `-1`, `1e-05`, `0.9`, `-inf`, `-nan`, `0x7f00`
        Ident, ///< `[A-Za-z_][A-Za-z0-9_.]*`
        NullValue, ///< `<<NULL VALUE>>`
        NullType, ///< `<<NULL TYPE>>`
        AttrNull, ///< `<#AttrNull>`
        UnprintableAttribute, ///< Paddle's placeholder for an attribute its printer cannot write
        Unknown, ///< any other character (one byte), or an unterminated string
    };

    struct Token
    {
        Kind kind = Kind::End;
        bool firstOnLine = true; ///< no other token precedes it on its line
        uint32_t length = 0;
        const char *begin = nullptr;
        int line = 1;
        int column = 1;

        std::string_view text() const { return { begin, length }; }
        bool is(Kind k) const { return kind == k; }
        bool isIdent(std::string_view s) const { return kind == Kind::Ident && text() == s; }
    };

    explicit PirTextLexer(std::string_view text);

    Token next()
    {
        Token t;
        lex(t);
        return t;
    }
    /// Reads the next token into `t` (written in place: no temporary to copy).
    void lex(Token &t);
    /// Moves the cursor back to the start of `tok` (which this lexer produced).
    void rewind(const Token &tok);
    /// Scans a type spelling starting at `tok`: up to the first `,`, `)`, `]`, `{`, `}` or
    /// whitespace outside `<>`, `[]`, `()`. Leaves the cursor after it. Never crosses a line.
    std::string_view scanTypeText(const Token &tok);
    /// At `lparen` (a `(` token): if the text is `(Name)` with Name made of identifier
    /// characters, stores Name in `kind`, leaves the cursor after `)` and returns true.
    bool scanKindPrefix(const Token &lparen, std::string_view &kind);
    /// True when the text right after `tok` starts with `s` (no whitespace skipped).
    bool followedBy(const Token &tok, std::string_view s) const;
    /// Skips the rest of the current line (error recovery).
    void skipLine();

    /// Byte offset of `p` in the text.
    long long offsetOf(const char *p) const { return p - m_begin; }
    std::string_view source() const { return { m_begin, size_t(m_end - m_begin) }; }

    /// Decodes a String token (with its quotes): `\"` becomes `"`, everything else is literal.
    static std::string decodeString(std::string_view raw);

private:
    void skipSpaceAndComments();

    const char *m_begin;
    const char *m_cur;
    const char *m_end;
    const char *m_lineStart;
    int m_line = 1;
    bool m_newLine = true;
};

} // namespace ps
