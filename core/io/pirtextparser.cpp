#include "core/io/pirtextparser.h"

#include "core/dialect/opregistry.h"
#include "core/io/numbertext.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/opnames.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iterator>

namespace ps {

namespace {

constexpr int kMaxRegionDepth = 128;

bool sameType(Type a, Type b)
{
    return a == b || (a.isNull() && b.isNull());
}

} // namespace

PirTextParser::PirTextParser(
    std::string_view text, std::string fileName, std::unordered_map<const Operation *, int64_t> *opIds)
    : m_text(text)
    , m_opIds(opIds)
    , m_cur(text, std::move(fileName), m_result.diagnostics)
    , m_attrs(m_cur, m_types)
    , m_generation(detectGeneration(text))
    , m_values(text.size() / 8 + 1024)
{
}

Generation PirTextParser::detectGeneration(std::string_view text)
{
    // Generation A spells `pd_op.tensor<` or `(Array)`, B `builtin.tensor<` or a `(Int32)`-style
    // kind prefix, C neither; any A spelling makes it A, whatever comes before it. '(' and '<'
    // are on every op line, so each is found with memchr and settled by the byte next to it
    // (a byte-by-byte scan cost 3% of a text load).
    const std::string_view s = text.substr(0, 256 * 1024);
    const char *const begin = s.data();
    const char *const end = begin + s.size();
    bool generationB = false;
    for (const char *p = begin; (p = static_cast<const char *>(std::memchr(p, '(', size_t(end - p)))); ++p) {
        const char n = p + 1 < end ? p[1] : '\0';
        if (n != 'A' && n != 'I' && n != 'F' && n != 'D' && n != 'p')
            continue;
        const std::string_view rest(p, size_t(end - p));
        if (rest.starts_with("(Array)"))
            return Generation::A;
        generationB = generationB || rest.starts_with("(Int32)") || rest.starts_with("(Int64)")
            || rest.starts_with("(Float)") || rest.starts_with("(Double)") || rest.starts_with("(pd_op.");
    }
    for (const char *p = begin; (p = static_cast<const char *>(std::memchr(p, '<', size_t(end - p)))); ++p) {
        const std::string_view upTo(begin, size_t(p - begin) + 1);
        if (!upTo.ends_with("tensor<"))
            continue;
        if (upTo.ends_with("pd_op.tensor<"))
            return Generation::A;
        generationB = generationB || upTo.ends_with("builtin.tensor<");
    }
    return generationB ? Generation::B : Generation::C;
}

LoadResult PirTextParser::parse()
{
    m_result.format = LoadResult::Format::PirText;
    auto program = std::make_unique<Program>();
    m_program = program.get();
    if (m_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        m_result.diagnostics.error(m_cur.location(1, 1, 0), "empty input: no PIR program");
    } else if (!seekProgramStart()) {
        m_result.diagnostics.error(m_cur.location(1, 1, 0),
            "no PIR program found (expected '{' or an op line like '(%0) = \"pd_op.data\" ...')");
    } else if (m_cur.at(Kind::LBrace)) {
        const Token open = m_cur.take();
        parseBlock(program->block(), true, open, 0, nullptr);
        if (!m_cur.at(Kind::End))
            m_cur.warning(m_cur.tok(), "text after the end of the program is ignored");
    } else {
        parseBlock(program->block(), false, m_cur.tok(), 0, nullptr);
    }
    reportUndefined();
    m_result.program = std::move(program);
    return std::move(m_result);
}

bool PirTextParser::seekProgramStart()
{
    const char *p = m_text.data();
    const char *end = p + m_text.size();
    if (m_text.starts_with("\xEF\xBB\xBF"))
        p += 3;
    int line = 1;
    int skipped = 0;
    auto startAt = [&](const char *lineStart) {
        if (skipped)
            m_result.diagnostics.note(m_cur.location(1, 1, 0),
                "skipped " + std::to_string(skipped) + " line(s) of text before the program");
        m_cur.seek(lineStart, line);
        return true;
    };
    while (p < end) {
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
            ++q;
        if (q < end && *q == '{')
            return startAt(p);
        if (q < end && *q == '(') {
            const char *r = q + 1;
            while (r < end && *r == ' ')
                ++r;
            if (r < end && (*r == '%' || *r == ')' || std::string_view(r, size_t(end - r)).starts_with("<<")))
                return startAt(p);
        }
        const bool blank = q >= end || *q == '\n';
        const bool comment = q < end && (*q == '#' || std::string_view(q, size_t(end - q)).starts_with("//"));
        if (!blank && !comment)
            ++skipped;
        const void *nl = std::memchr(q, '\n', size_t(end - q));
        if (!nl)
            break;
        p = static_cast<const char *>(nl) + 1;
        ++line;
    }
    return false;
}

void PirTextParser::parseBlock(
    Block &block, bool braced, const Token &open, int depth, const std::vector<Type> *argTypes)
{
    parseBlockHeader(block);
    if (argTypes) {
        for (size_t i = 0; i < block.numArguments() && i < argTypes->size(); ++i) {
            Value arg = block.argument(i);
            if (arg.type().isNull())
                arg.setType((*argTypes)[i]);
        }
    }
    for (;;) {
        const Token t = m_cur.tok();
        switch (t.kind) {
        case Kind::End:
            if (braced && !m_cur.aborted())
                m_cur.error(t, "missing '}' to close the block opened at line " + std::to_string(open.line));
            return;
        case Kind::RBrace:
            m_cur.advance();
            if (braced)
                return;
            m_cur.error(t, "unmatched '}'");
            continue;
        case Kind::LParen:
            parseOp(block, depth);
            continue;
        case Kind::LBrace:
            if (atShapeAnnotation()) {
                noteShapeAnnotation();
            } else {
                m_cur.error(t, "unexpected '{' (a block must follow an operation)");
            }
            skipBraces();
            continue;
        default:
            m_cur.error(t,
                "expected an operation (a line like '(%0) = \"pd_op.relu\" ...'), found "
                    + PirTextCursor::describe(t));
            m_cur.advance();
            m_cur.skipToNextLine();
            continue;
        }
    }
}

void PirTextParser::parseBlockHeader(Block &block)
{
    while (m_cur.at(Kind::Caret)) {
        m_cur.advance();
        if (m_cur.tok().isIdent("kw") && m_cur.peek().is(Kind::Colon)) {
            m_cur.advance();
            m_cur.advance();
            while (m_cur.at(Kind::ValueId)) {
                const Token nameTok = m_cur.take();
                const bool hasAttrs = m_cur.at(Kind::LBrace) && !m_cur.tok().firstOnLine;
                if (hasAttrs) {
                    m_valueAttrs.clear();
                    m_attrs.parseMap(m_valueAttrs, nullptr, false);
                }
                const std::string_view name = nameTok.text();
                if (!name.starts_with("%kwarg_")) {
                    m_cur.error(nameTok,
                        "expected a kwarg like %kwarg_x in the ^kw: section, found " + std::string(name));
                } else if (block.kwarg(name.substr(7))) {
                    m_cur.error(nameTok, "duplicate kwarg " + std::string(name));
                } else {
                    const Value kw = block.addKwarg(std::string(name.substr(7)), Type());
                    if (hasAttrs)
                        block.setValueAttributes(kw, m_valueAttrs);
                    define(name, kw, nameTok, nullptr);
                }
                m_cur.accept(Kind::Comma);
            }
            continue;
        }
        while (m_cur.at(Kind::ValueId)) {
            const Token nameTok = m_cur.take();
            const Value arg = block.addArgument(Type());
            if (m_cur.at(Kind::LBrace) && !m_cur.tok().firstOnLine) {
                m_valueAttrs.clear();
                m_attrs.parseMap(m_valueAttrs, nullptr, false);
                block.setValueAttributes(arg, m_valueAttrs);
            }
            define(nameTok.text(), arg, nameTok, nullptr);
            if (!m_cur.accept(Kind::Comma))
                break;
        }
    }
}

void PirTextParser::parseOp(Block &block, int depth)
{
    m_cur.advance(); // '('
    m_resultNames.clear();
    m_operands.clear();
    m_operandTypes.clear();
    m_operandTypeToks.clear();
    m_resultTypes.clear();
    m_resultTypeToks.clear();
    auto fail = [&](std::string message) {
        m_cur.error(m_cur.tok(), std::move(message) + ", found " + PirTextCursor::describe(m_cur.tok()));
        m_cur.skipToNextLine();
    };

    if (!m_cur.accept(Kind::RParen)) {
        for (;;) {
            if (!m_cur.at(Kind::ValueId))
                return fail("expected a result name like %0");
            m_resultNames.push_back(m_cur.take());
            if (m_cur.accept(Kind::Comma))
                continue;
            if (m_cur.accept(Kind::RParen))
                break;
            return fail("expected ',' or ')' in the result list");
        }
    }
    // A 2023 WhileOp printer wrote `(%r) "pd_op.while" ...` without the '='.
    const bool missingEqual = !m_cur.accept(Kind::Equal);
    if (missingEqual && !m_cur.at(Kind::String))
        return fail("expected '=' after the result list");

    const Token nameTok = m_cur.tok();
    std::string decodedName;
    std::string_view opName;
    if (nameTok.is(Kind::String)) {
        // Op names hold no escapes: a view avoids a heap string for names over 15 characters.
        const std::string_view raw = nameTok.text();
        if (raw.size() >= 2 && raw.back() == '"' && raw.find('\\') == std::string_view::npos) {
            opName = raw.substr(1, raw.size() - 2);
        } else {
            decodedName = PirTextLexer::decodeString(raw);
            opName = decodedName;
        }
    } else if (nameTok.is(Kind::Ident)) {
        opName = nameTok.text();
    }
    if (opName.empty())
        return fail("expected an op name like \"pd_op.relu\"");
    if (missingEqual && !opName.ends_with("while"))
        m_cur.warning(nameTok, "missing '=' after the result list");
    m_cur.advance();

    int64_t paddleId = -1;
    if (m_cur.at(Kind::LBracket) && m_cur.peek().isIdent("id")) {
        m_cur.advance();
        m_cur.advance();
        if (!m_cur.accept(Kind::Colon) || !m_cur.at(Kind::Number))
            return fail("expected '[id:N]'");
        const std::string_view digits = m_cur.take().text();
        std::from_chars(digits.data(), digits.data() + digits.size(), paddleId);
        if (!m_cur.accept(Kind::RBracket))
            return fail("expected '[id:N]'");
    }
    if (!m_cur.at(Kind::LParen))
        return fail("expected '(' before the operand list");
    bool whileForm = m_cur.lexer().followedBy(m_cur.tok(), "cond=");
    if (!parseOperandList(block, whileForm))
        return m_cur.skipToNextLine();
    if (!whileForm && opName.ends_with("while") && m_cur.at(Kind::LBracket) && !m_cur.tok().firstOnLine) {
        // Early WhileOp printer: `"pd_op.while"(%cond) [%a, %b] { ^%arg_0, %arg_1 ...`.
        m_cur.advance();
        while (!m_cur.at(Kind::RBracket)) {
            if (!parseOperand(block, m_operands))
                return m_cur.skipToNextLine();
            if (!m_cur.accept(Kind::Comma))
                break;
        }
        if (!m_cur.at(Kind::RBracket))
            return fail("expected ']' after the while inputs");
        m_cur.advance();
        whileForm = true;
    }

    // One lookup per op for the interned name and the registry entry (keys are interned views).
    const size_t opNameHash = textHash(opName);
    const OpName *known = m_opNames.find(opName, opNameHash);
    if (!known) {
        const std::string_view interned = internOpName(opName);
        m_opNames.add(interned, opNameHash, OpName { interned, OpRegistry::instance().lookup(interned) });
        known = m_opNames.find(interned, opNameHash);
    }
    opName = known->interned;
    const OpInfo *info = known->info;
    m_attrScratch.clear();
    bool generic = true;
    if (whileForm) {
        if (!m_cur.at(Kind::LBrace))
            return fail("expected '{' to open the while body");
        for (size_t i = 1; i < m_operands.size(); ++i)
            m_resultTypes.push_back(m_operands[i].value.type());
    } else {
        if (m_cur.at(Kind::LBrace) && !m_cur.tok().firstOnLine) {
            m_attrs.parseMap(m_attrScratch, info, opName.starts_with("pd_op."));
        }
        if (m_cur.accept(Kind::Colon)) {
            if (!parseTypeList(m_operandTypes, m_operandTypeToks, true))
                return m_cur.skipToNextLine();
            if (!m_cur.at(Kind::Arrow))
                return fail("expected '->' before the result types");
            m_cur.advance();
        } else if (m_cur.accept(Kind::Arrow)) {
            generic = false;
        } else {
            return fail("expected ':' or '->' after the attributes");
        }
        if (!parseTypeList(m_resultTypes, m_resultTypeToks, false))
            return m_cur.skipToNextLine();
    }

    const size_t numResults = m_resultNames.size();
    if (whileForm) {
        if (m_resultTypes.size() != numResults)
            m_cur.warning(nameTok,
                "pd_op.while has " + std::to_string(numResults) + " result(s) but "
                    + std::to_string(m_resultTypes.size()) + " loop input(s)");
    } else if (m_resultTypes.size() != numResults) {
        m_cur.error(nameTok,
            std::string(opName) + " has " + std::to_string(numResults) + " result name(s) but "
                + std::to_string(m_resultTypes.size()) + " result type(s)");
    }
    m_resultTypes.resize(numResults);
    if (generic && !whileForm && m_operandTypes.size() != m_operands.size())
        m_cur.error(nameTok,
            std::string(opName) + " has " + std::to_string(m_operands.size()) + " operand(s) but "
                + std::to_string(m_operandTypes.size()) + " operand type(s)");

    m_operandValues.clear();
    for (const Operand &o : m_operands)
        m_operandValues.push_back(o.value);
    Operation *op = Operation::create(
        m_program->arena(), opName, m_operandValues, m_resultTypes, std::span(m_attrScratch), 0);
    block.push_back(op);
    if (paddleId >= 0 && m_opIds)
        m_opIds->emplace(op, paddleId);
    for (size_t i = 0; i < numResults; ++i)
        define(m_resultNames[i].text(), op->result(unsigned(i)), m_resultNames[i],
            i < m_resultTypeToks.size() ? &m_resultTypeToks[i] : nullptr);
    const bool typed = generic && !whileForm;
    for (size_t i = 0; i < m_operands.size(); ++i) {
        const Operand &o = m_operands[i];
        const bool hasType = typed && i < m_operandTypes.size();
        if (o.pending) {
            m_values.addPending(o.tok.text(),
                { op, unsigned(i), o.tok, hasType ? m_operandTypes[i] : Type(), hasType,
                    hasType ? m_operandTypeToks[i] : o.tok });
        } else if (hasType) {
            checkOperandType(op, unsigned(i), o.value, m_operandTypes[i], m_operandTypeToks[i], o.tok.text());
        }
    }

    if (whileForm) {
        parseWhileBody(op, nameTok, depth);
    } else if (generic) {
        parseRegionsGeneric(op, depth);
    } else {
        parseRegionsIfForm(op, depth);
    }
    finishOpLine();
}

void PirTextParser::parseWhileBody(Operation *op, const Token &nameTok, int depth)
{
    std::vector<Type> argTypes;
    for (size_t i = 1; i < m_operands.size(); ++i)
        argTypes.push_back(m_operands[i].value.type());
    const size_t numInputs = argTypes.size();
    if (depth >= kMaxRegionDepth) {
        m_cur.error(m_cur.tok(), "regions nested too deeply");
        skipBraces();
        return;
    }
    const Token open = m_cur.take();
    Block &body = op->addRegion().addBlock();
    parseBlock(body, true, open, depth + 1, &argTypes);
    // Loop-carried arguments have their input's type, also those declared implicitly; a
    // result whose input had no type yet (a kwarg typed by a later use) takes its argument's.
    for (size_t i = 0; i < body.numArguments() && i < numInputs; ++i) {
        if (!argTypes[i].isNull())
            body.argument(i).setType(argTypes[i]);
        if (i < op->numResults() && op->result(unsigned(i)).type().isNull())
            op->result(unsigned(i)).setType(body.argument(i).type());
    }
    if (body.numArguments() != numInputs)
        m_cur.warning(nameTok,
            "pd_op.while body has " + std::to_string(body.numArguments()) + " block argument(s) but "
                + std::to_string(numInputs) + " loop input(s)");
}

bool PirTextParser::parseOperandList(Block &block, bool whileForm)
{
    auto fail = [&](std::string message) {
        m_cur.error(m_cur.tok(), std::move(message) + ", found " + PirTextCursor::describe(m_cur.tok()));
        return false;
    };
    m_cur.advance();
    if (whileForm) {
        m_cur.advance();
        m_cur.advance();
        if (!parseOperand(block, m_operands))
            return false;
        if (m_cur.accept(Kind::Comma)) {
            if (!m_cur.tok().isIdent("inputs") || !m_cur.peek().is(Kind::Equal))
                return fail("expected 'inputs=' in the while operands");
            m_cur.advance();
            m_cur.advance();
            while (!m_cur.at(Kind::RParen)) {
                if (!parseOperand(block, m_operands))
                    return false;
                if (!m_cur.accept(Kind::Comma))
                    break;
            }
        }
        if (!m_cur.at(Kind::RParen))
            return fail("expected ')' after the while operands");
        m_cur.advance();
    } else if (!m_cur.accept(Kind::RParen)) {
        for (;;) {
            if (!parseOperand(block, m_operands))
                return false;
            if (m_cur.accept(Kind::Comma))
                continue;
            if (m_cur.accept(Kind::RParen))
                break;
            return fail("expected ',' or ')' in the operand list");
        }
    }
    return true;
}

bool PirTextParser::parseOperand(Block &block, std::vector<Operand> &out)
{
    const Token t = m_cur.tok();
    if (t.is(Kind::NullValue)) {
        m_cur.advance();
        out.push_back({ Value(), t, false });
        return true;
    }
    if (!t.is(Kind::ValueId) || t.length < 2) {
        m_cur.error(t,
            "expected an operand (a value like %3 or <<NULL VALUE>>), found " + PirTextCursor::describe(t));
        return false;
    }
    m_cur.advance();
    bool suffix = false;
    if (m_cur.at(Kind::LBrace)) {
        m_valueAttrs.clear();
        m_attrs.parseMap(m_valueAttrs, nullptr, false);
        suffix = true;
    }
    bool pending = false;
    Value v = resolve(t, suffix, block, pending);
    // The first use of a block argument that no header declared carries its attributes.
    if (suffix && v && !v.isOpResult() && v.parentBlock()->valueAttributes(v).empty())
        v.parentBlock()->setValueAttributes(v, m_valueAttrs);
    out.push_back({ v, t, pending });
    return true;
}

bool PirTextParser::parseTypeList(std::vector<Type> &types, std::vector<Token> &toks, bool parenthesised)
{
    types.clear();
    toks.clear();
    if (parenthesised) {
        if (!m_cur.expect(Kind::LParen, "'(' before the operand types"))
            return false;
        if (m_cur.accept(Kind::RParen))
            return true;
        for (;;) {
            if (!parseOneType(types, toks))
                return false;
            if (m_cur.accept(Kind::Comma))
                continue;
            if (m_cur.accept(Kind::RParen))
                return true;
            m_cur.error(m_cur.tok(),
                "expected ',' or ')' in the operand types, found " + PirTextCursor::describe(m_cur.tok()));
            return false;
        }
    }
    const Token &t = m_cur.tok();
    if (t.is(Kind::End) || t.firstOnLine || t.is(Kind::LBrace) || t.is(Kind::RBrace))
        return true;
    for (;;) {
        if (!parseOneType(types, toks))
            return false;
        if (!m_cur.at(Kind::Comma) || m_cur.tok().firstOnLine)
            return true;
        m_cur.advance();
    }
}

bool PirTextParser::parseOneType(std::vector<Type> &types, std::vector<Token> &toks)
{
    const Token t = m_cur.tok();
    std::string_view text;
    if (!t.is(Kind::End) && !t.is(Kind::Comma) && !t.is(Kind::RParen) && !t.is(Kind::RBrace)
        && !t.is(Kind::LBrace))
        text = m_cur.takeTypeText();
    if (text.empty()) {
        m_cur.error(t, "expected a type, found " + PirTextCursor::describe(t));
        return false;
    }
    std::string error;
    Type type = m_types.parse(text, error);
    if (!error.empty())
        m_cur.error(t, error + " in type " + NumberText::quote(text, 80));
    types.push_back(type);
    toks.push_back(t);
    return true;
}

void PirTextParser::parseRegionsGeneric(Operation *op, int depth)
{
    while (m_cur.at(Kind::LBrace) && m_cur.tok().firstOnLine) {
        if (atShapeAnnotation()) {
            noteShapeAnnotation();
            skipBraces();
            continue;
        }
        if (depth >= kMaxRegionDepth) {
            m_cur.error(m_cur.tok(), "regions nested too deeply");
            skipBraces();
            continue;
        }
        const Token open = m_cur.take();
        parseBlock(op->addRegion().addBlock(), true, open, depth + 1, nullptr);
    }
}

void PirTextParser::parseRegionsIfForm(Operation *op, int depth)
{
    if (!m_cur.at(Kind::LBrace)) {
        m_cur.error(m_cur.tok(),
            "expected '{' to open the first block of " + std::string(op->name()) + ", found "
                + PirTextCursor::describe(m_cur.tok()));
        return;
    }
    if (depth >= kMaxRegionDepth) {
        m_cur.error(m_cur.tok(), "regions nested too deeply");
        skipBraces();
        return;
    }
    for (;;) {
        const Token open = m_cur.take();
        parseBlock(op->addRegion().addBlock(), true, open, depth + 1, nullptr);
        // `} else {` (IfOp); `} do {` separated the cond and body blocks of the 2023 WhileOp.
        const bool next = m_cur.tok().isIdent("else") || m_cur.tok().isIdent("do");
        if (next && !m_cur.tok().firstOnLine && m_cur.peek().is(Kind::LBrace)) {
            m_cur.advance();
            continue;
        }
        return;
    }
}

bool PirTextParser::atShapeAnnotation() const
{
    if (!m_cur.at(Kind::LBrace))
        return false;
    const Token a = m_cur.peek(1);
    const Token b = m_cur.peek(2);
    return a.is(Kind::LParen) && !a.firstOnLine && b.is(Kind::Ident)
        && (b.text() == "shape" || b.text() == "data");
}

void PirTextParser::noteShapeAnnotation()
{
    if (!m_notedAnnotation)
        m_cur.note(m_cur.tok(), "symbolic shape annotations '{ (shape[...], data[...]) }' are ignored");
    m_notedAnnotation = true;
}

void PirTextParser::skipBraces()
{
    int depth = 0;
    while (!m_cur.at(Kind::End)) {
        const Kind k = m_cur.take().kind;
        if (k == Kind::LBrace)
            ++depth;
        else if (k == Kind::RBrace && --depth <= 0)
            return;
    }
}

void PirTextParser::finishOpLine()
{
    const Token &t = m_cur.tok();
    if (t.is(Kind::End) || t.firstOnLine || t.is(Kind::RBrace))
        return;
    m_cur.error(t, "unexpected " + PirTextCursor::describe(t) + " after the operation");
    m_cur.skipToNextLine();
}

void PirTextParser::define(std::string_view name, Value v, const Token &nameTok, const Token *typeTok)
{
    PirTextValueTable::Entry &e = m_values.slot(name);
    if (e.value) {
        m_cur.error(nameTok,
            "redefinition of " + std::string(name) + " (first defined at "
                + m_cur.location(e.line, e.column, -1).toString() + ")");
    }
    e.value = v;
    e.line = typeTok ? typeTok->line : nameTok.line;
    e.column = typeTok ? typeTok->column : nameTok.column;
    // Only op results can be printed after a use (Paddle prints ops in block order but names
    // values at first appearance); a block argument never comes later than its uses.
    if (!v.isOpResult())
        return;
    for (const PirTextValueTable::PendingUse &p : m_values.takePending(name)) {
        p.op->setOperand(p.index, v);
        m_cur.warning(p.use,
            std::string(name) + " is used before its definition at "
                + m_cur.location(nameTok.line, nameTok.column, -1).toString());
        if (p.hasPrintedType)
            checkOperandType(p.op, p.index, v, p.printedType, p.typeTok, name);
    }
}

Value PirTextParser::resolve(const Token &nameTok, bool hadSuffix, Block &block, bool &pending)
{
    const std::string_view name = nameTok.text();
    if (const PirTextValueTable::Entry *e = m_values.find(name); e && e->value)
        return e->value;
    if (name.starts_with("%arg_")) {
        Value v = block.addArgument(Type());
        define(name, v, nameTok, nullptr);
        if (!hadSuffix)
            m_cur.warning(nameTok,
                "block argument " + std::string(name)
                    + " was not declared; it is added to the enclosing block");
        return v;
    }
    if (name.starts_with("%kwarg_") && !block.kwarg(name.substr(7))) {
        Value v = block.addKwarg(std::string(name.substr(7)), Type());
        define(name, v, nameTok, nullptr);
        m_cur.warning(nameTok,
            "kwarg " + std::string(name)
                + " was not declared in a ^kw: section; it is added to the enclosing block");
        return v;
    }
    pending = true;
    return {};
}

void PirTextParser::checkOperandType(
    Operation *op, unsigned index, Value v, Type printed, const Token &typeTok, std::string_view valueName)
{
    auto what = [&] { return "operand " + std::to_string(index) + " of " + std::string(op->name()); };
    if (!v) {
        if (!printed.isNull())
            m_cur.warning(
                typeTok, what() + " is <<NULL VALUE>> but is printed with type " + typeText(printed));
        return;
    }
    const Type actual = v.type();
    if (actual.isNull() && !v.isOpResult()) {
        v.setType(printed);
        return;
    }
    if (sameType(actual, printed))
        return;
    std::string where = "?";
    if (const PirTextValueTable::Entry *e = m_values.find(valueName); e && e->line > 0)
        where = m_cur.location(e->line, e->column, -1).toString();
    m_cur.warning(typeTok,
        "type mismatch for " + what() + ": printed here as " + typeText(printed) + ", but "
            + std::string(valueName) + " is defined with type " + typeText(actual) + " at " + where);
}

void PirTextParser::reportUndefined()
{
    for (const auto &[name, use] : m_values.takeAllPending())
        m_cur.error(use.use, "undefined value " + std::string(name));
}

} // namespace ps
