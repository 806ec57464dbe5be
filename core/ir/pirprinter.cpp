#include "core/ir/pirprinter.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/ir/valuenumbering.h"

#include <algorithm>
#include <ostream>
#include <unordered_set>

namespace ps {

namespace {

constexpr size_t kFlushSize = 1 << 20;

/// One print call: the output buffer plus the set of block arguments already shown (Paddle
/// appends ` {attrs}` to a block argument the first time it prints it: its value attributes,
/// Block::valueAttributes, in their stored order).
class Writer
{
public:
    Writer(const ValueNumbering &names, Generation gen, std::string &out, std::ostream *os,
        std::vector<PirPrinter::PrintedOp> *printed = nullptr)
        : m_names(names)
        , m_gen(gen)
        , m_out(out)
        , m_os(os)
        , m_printed(printed)
    {
    }

    void block(const Block &b, int indent, bool topLevel)
    {
        m_out.append(size_t(indent), ' ');
        m_out += "{\n";
        if (b.numArguments() > 0) {
            m_out.append(size_t(indent + 4), ' ');
            m_out += '^';
            for (size_t i = 0; i < b.numArguments(); ++i) {
                if (i)
                    m_out += ", ";
                value(b.argument(i));
            }
            m_out += '\n';
        }
        if (b.numKwargs() > 0) {
            m_out.append(size_t(indent + 4), ' ');
            m_out += "^kw:\n";
            for (size_t i = 0; i < b.numKwargs(); ++i) {
                m_out.append(size_t(indent + 8), ' ');
                value(b.kwargAt(i));
                m_out += '\n';
            }
        }
        ops(b, indent + 4, topLevel);
        m_out.append(size_t(indent), ' ');
        m_out += "}\n";
    }

    void op(const Operation &op, int indent)
    {
        if (!m_printed) {
            opText(op, indent);
            return;
        }
        const size_t entry = m_printed->size();
        m_printed->push_back({ &op, line(), 0 });
        opText(op, indent);
        (*m_printed)[entry].lastLine = line();
    }

private:
    /// The line m_out ends on (counted incrementally; only with m_printed, which never flushes).
    uint32_t line()
    {
        m_line += uint32_t(std::count(m_out.begin() + std::ptrdiff_t(m_counted), m_out.end(), '\n'));
        m_counted = m_out.size();
        return m_line;
    }

    void opText(const Operation &op, int indent)
    {
        m_out.append(size_t(indent), ' ');
        m_out += '(';
        for (unsigned i = 0; i < op.numResults(); ++i) {
            if (i)
                m_out += ", ";
            m_out += m_names.name(op.result(i));
        }
        m_out += ") = ";
        PirTextFormat::appendQuoted(m_out, op.name());
        const PirTextFormat::OpForm form = PirTextFormat::opForm(op);
        if (form == PirTextFormat::OpForm::While) {
            whileBody(op, indent);
            return;
        }
        m_out += " (";
        for (unsigned i = 0; i < op.numOperands(); ++i) {
            if (i)
                m_out += ", ";
            value(op.operand(i));
        }
        m_out += ") ";
        attributes(op);
        if (form == PirTextFormat::OpForm::IfLike) {
            m_out += " -> ";
            resultTypes(op);
            m_out += " {\n";
            for (unsigned r = 0; r < op.numRegions(); ++r) {
                if (r) {
                    m_out.append(size_t(indent), ' ');
                    m_out += "} else {\n";
                }
                ops(op.region(r).block(0), indent + 4, false);
            }
            m_out.append(size_t(indent), ' ');
            m_out += '}';
            return;
        }
        m_out += " : (";
        for (unsigned i = 0; i < op.numOperands(); ++i) {
            if (i)
                m_out += ", ";
            PirTextFormat::appendType(m_out, op.operand(i).type(), m_gen);
        }
        m_out += ") -> ";
        resultTypes(op);
        if (op.numRegions() > 0) {
            m_out += '\n';
            for (unsigned r = 0; r < op.numRegions(); ++r) {
                for (size_t k = 0; k < op.region(r).numBlocks(); ++k)
                    block(op.region(r).block(k), indent, false);
            }
        }
    }

    void ops(const Block &b, int indent, bool topLevel)
    {
        for (const Operation *o : b.ops()) {
            op(*o, indent);
            m_out += '\n';
            if (topLevel && m_os && m_out.size() >= kFlushSize) {
                m_os->write(m_out.data(), std::streamsize(m_out.size()));
                m_out.clear();
            }
        }
    }

    void whileBody(const Operation &op, int indent)
    {
        m_out += " (cond=";
        value(op.operand(0));
        m_out += ", inputs=";
        for (unsigned i = 1; i < op.numOperands(); ++i) {
            if (i > 1)
                m_out += ", ";
            value(op.operand(i));
        }
        m_out += ") { \n";
        const Block &body = op.region(0).block(0);
        m_out.append(size_t(indent), ' ');
        m_out += '^';
        for (size_t i = 0; i < body.numArguments(); ++i) {
            if (i)
                m_out += ", ";
            value(body.argument(i));
        }
        m_out += '\n';
        ops(body, indent + 4, false);
        m_out.append(size_t(indent), ' ');
        m_out += '}';
    }

    void value(Value v)
    {
        m_out += m_names.name(v);
        if (!v || v.isOpResult() || !m_shown.insert(v).second || m_gen == Generation::A)
            return;
        m_out += " {";
        bool first = true;
        for (const NamedAttribute &a : v.parentBlock()->valueAttributes(v)) {
            if (!first)
                m_out += ',';
            first = false;
            m_out += a.name;
            m_out += ':';
            PirTextFormat::appendAttribute(m_out, a.value, m_gen);
        }
        m_out += '}';
    }

    void attributes(const Operation &op)
    {
        m_sorted.clear();
        for (const NamedAttribute &a : op.attributes()) {
            if (a.name != "op_callstack" && a.name != "sym_shape_str")
                m_sorted.push_back(&a);
        }
        std::stable_sort(m_sorted.begin(), m_sorted.end(),
            [](const NamedAttribute *a, const NamedAttribute *b) { return a->name < b->name; });
        m_out += '{';
        for (size_t i = 0; i < m_sorted.size(); ++i) {
            if (i)
                m_out += ',';
            m_out += m_sorted[i]->name;
            m_out += ':';
            PirTextFormat::appendAttribute(m_out, m_sorted[i]->value, m_gen);
        }
        m_out += '}';
    }

    void resultTypes(const Operation &op)
    {
        for (unsigned i = 0; i < op.numResults(); ++i) {
            if (i)
                m_out += ", ";
            PirTextFormat::appendType(m_out, op.result(i).type(), m_gen);
        }
    }

    const ValueNumbering &m_names;
    Generation m_gen;
    std::string &m_out;
    std::ostream *m_os;
    std::vector<PirPrinter::PrintedOp> *m_printed;
    size_t m_counted = 0;
    uint32_t m_line = 0;
    std::unordered_set<Value> m_shown;
    std::vector<const NamedAttribute *> m_sorted;
};

} // namespace

void PirPrinter::print(const Program &program, std::ostream &os, Generation gen)
{
    const ValueNumbering names(program);
    std::string out;
    out.reserve(kFlushSize + 4096);
    Writer(names, gen, out, &os).block(program.block(), 0, true);
    os.write(out.data(), std::streamsize(out.size()));
}

std::string PirPrinter::toString(const Program &program, Generation gen)
{
    const ValueNumbering names(program);
    std::string out;
    Writer(names, gen, out, nullptr).block(program.block(), 0, true);
    return out;
}

std::string PirPrinter::toString(
    const Program &program, const ValueNumbering &names, Generation gen, std::vector<PrintedOp> &printed)
{
    std::string out;
    Writer(names, gen, out, nullptr, &printed).block(program.block(), 0, true);
    return out;
}

std::string PirPrinter::opText(const Operation &op, const ValueNumbering &names, Generation gen, int indent)
{
    std::string out;
    Writer(names, gen, out, nullptr).op(op, indent);
    return out;
}

} // namespace ps
