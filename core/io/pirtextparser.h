#pragma once

#include "core/io/loadresult.h"
#include "core/io/pirtextattributeparser.h"
#include "core/io/pirtextcursor.h"
#include "core/io/pirtexttypeparser.h"
#include "core/io/pirtextvaluetable.h"
#include "core/io/readcache.h"
#include "core/io/texthash.h"
#include "core/ir/pirtextformat.h"
#include "core/ir/value.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class Block;
class Operation;
struct OpInfo;

/// Recursive-descent parser for one PIR text program (the engine behind PirTextReader).
///
/// Grammar handled (PADDLE_PIR.md §1): optional text before the program, an optional `{ }`
/// wrapper, `^kw:` kwarg sections, generic op lines with optional `[id:N]`, generic regions
/// (`{...}` blocks after the op line), the if/pylayer form (`-> types {` ... `} else {` ...
/// `}`, quoted or not), the while form (`(cond=%c, inputs=%a, %b) {` + `^%arg_0 {..}, ...`).
/// Values are resolved by name; uses before the definition are patched with a warning, names
/// never defined are errors. Types missing from the text (kwargs, while results and block
/// arguments) are taken from the loop inputs or from the first use's printed operand type.
/// One pass, no backtracking beyond a few tokens of lookahead.
class PirTextParser
{
public:
    /// `opIds`, when given, receives the `[id:N]` of every op that has one.
    PirTextParser(std::string_view text, std::string fileName,
        std::unordered_map<const Operation *, int64_t> *opIds = nullptr);
    LoadResult parse();

    /// Guesses the print generation from the first 256 KiB (prefix spellings).
    static Generation detectGeneration(std::string_view text);

private:
    using Token = PirTextCursor::Token;
    using Kind = PirTextLexer::Kind;

    struct Operand
    {
        Value value;
        Token tok;
        bool pending = false;
    };

    bool seekProgramStart();
    void parseBlock(
        Block &block, bool braced, const Token &open, int depth, const std::vector<Type> *argTypes);
    void parseBlockHeader(Block &block);
    void parseOp(Block &block, int depth);
    bool parseOperandList(Block &block, bool whileForm);
    bool parseOperand(Block &block, std::vector<Operand> &out);
    void parseWhileBody(Operation *op, const Token &nameTok, int depth);
    bool parseTypeList(std::vector<Type> &types, std::vector<Token> &toks, bool parenthesised);
    bool parseOneType(std::vector<Type> &types, std::vector<Token> &toks);
    void parseRegionsGeneric(Operation *op, int depth);
    void parseRegionsIfForm(Operation *op, int depth);
    bool atShapeAnnotation() const;
    void noteShapeAnnotation();
    void skipBraces();
    void finishOpLine();

    void define(std::string_view name, Value v, const Token &nameTok, const Token *typeTok);
    Value resolve(const Token &nameTok, bool hadSuffix, Block &block, bool &pending);
    void checkOperandType(Operation *op, unsigned index, Value v, Type printed, const Token &typeTok,
        std::string_view valueName);
    void reportUndefined();
    std::string typeText(Type t) const { return PirTextFormat::typeText(t, m_generation); }

    std::string_view m_text;
    LoadResult m_result;
    std::unordered_map<const Operation *, int64_t> *m_opIds = nullptr;
    PirTextCursor m_cur;
    PirTextTypeParser m_types;
    PirTextAttributeParser m_attrs;
    Generation m_generation;
    Program *m_program = nullptr;

    PirTextValueTable m_values;
    bool m_notedAnnotation = false;

    // Per-op scratch, reused to avoid allocations (regions are parsed after it is consumed).
    std::vector<Token> m_resultNames;
    std::vector<Operand> m_operands;
    std::vector<Type> m_operandTypes;
    std::vector<Token> m_operandTypeToks;
    std::vector<Type> m_resultTypes;
    std::vector<Token> m_resultTypeToks;
    std::vector<Value> m_operandValues;
    std::vector<NamedAttribute> m_attrScratch;
    struct OpName
    {
        std::string_view interned;
        const OpInfo *info = nullptr;
    };
    ReadCache<std::string_view, OpName, TextHash> m_opNames { 256 }; ///< by op name spelling, keys interned
    std::vector<NamedAttribute> m_valueAttrs; ///< block-argument attributes being parsed
};

} // namespace ps
