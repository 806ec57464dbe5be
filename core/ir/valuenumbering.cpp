#include "core/ir/valuenumbering.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirtextformat.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

namespace ps {

namespace {

/// Replays PirPrinter's traversal and names every value at its first appearance, exactly as
/// Paddle's IrPrinter does (results before operands; while-body arguments in the `^` line;
/// kwargs in the `^kw:` section; other block arguments at their first use).
class Namer
{
public:
    explicit Namer(std::unordered_map<Value, std::string> &names)
        : m_names(names)
    {
    }

    /// `header`: the printer writes the block's `^args` and `^kw:` lines before its ops.
    void block(const Block &b, bool header)
    {
        if (header) {
            for (size_t i = 0; i < b.numArguments(); ++i)
                name(b.argument(i));
            for (size_t i = 0; i < b.numKwargs(); ++i)
                name(b.kwargAt(i));
        }
        for (const Operation *op : b.ops())
            operation(*op);
    }

    void operation(const Operation &op)
    {
        if (op.name() == "cf.stack_create" && op.numResults() == 3 && !m_names.count(op.result(0))) {
            const std::string k = std::to_string(m_stacks++);
            m_names.emplace(op.result(0), "%stack_" + k);
            m_names.emplace(op.result(1), "%inlet_" + k);
            m_names.emplace(op.result(2), "%outlet_" + k);
        } else {
            for (unsigned i = 0; i < op.numResults(); ++i)
                name(op.result(i));
        }
        for (unsigned i = 0; i < op.numOperands(); ++i)
            name(op.operand(i));
        switch (PirTextFormat::opForm(op)) {
        case PirTextFormat::OpForm::While: {
            const Block &body = op.region(0).block(0);
            for (size_t i = 0; i < body.numArguments(); ++i)
                name(body.argument(i));
            block(body, false);
            break;
        }
        case PirTextFormat::OpForm::IfLike:
            for (unsigned r = 0; r < op.numRegions(); ++r)
                block(op.region(r).block(0), false);
            break;
        case PirTextFormat::OpForm::Generic:
            for (unsigned r = 0; r < op.numRegions(); ++r) {
                for (size_t b = 0; b < op.region(r).numBlocks(); ++b)
                    block(op.region(r).block(b), true);
            }
            break;
        }
    }

    /// Values the printer never shows (unused arguments of if/while blocks) still get names.
    void sweep(const Block &b)
    {
        for (size_t i = 0; i < b.numArguments(); ++i)
            name(b.argument(i));
        for (size_t i = 0; i < b.numKwargs(); ++i)
            name(b.kwargAt(i));
        for (const Operation *op : b.ops()) {
            for (unsigned r = 0; r < op->numRegions(); ++r) {
                for (size_t k = 0; k < op->region(r).numBlocks(); ++k)
                    sweep(op->region(r).block(k));
            }
        }
    }

private:
    void name(Value v)
    {
        if (!v || m_names.count(v))
            return;
        if (v.isOpResult())
            m_names.emplace(v, "%" + std::to_string(m_results++));
        else if (v.isKeywordArgument())
            m_names.emplace(v, "%kwarg_" + v.keyword());
        else
            m_names.emplace(v, "%arg_" + std::to_string(m_args++));
    }

    std::unordered_map<Value, std::string> &m_names;
    size_t m_results = 0;
    size_t m_args = 0;
    size_t m_stacks = 0;
};

} // namespace

ValueNumbering::ValueNumbering(const Program &program)
{
    m_names.reserve(program.numValues());
    Namer namer(m_names);
    namer.block(program.block(), true);
    namer.sweep(program.block());
    m_byName.reserve(m_names.size());
    for (const auto &[value, text] : m_names)
        m_byName.emplace(text, value);
}

std::string ValueNumbering::name(Value v) const
{
    if (!v)
        return "<<NULL VALUE>>";
    auto it = m_names.find(v);
    return it == m_names.end() ? std::string("%?") : it->second;
}

Value ValueNumbering::lookup(std::string_view id) const
{
    auto it = m_byName.find(std::string(id));
    return it == m_byName.end() ? Value() : it->second;
}

} // namespace ps
