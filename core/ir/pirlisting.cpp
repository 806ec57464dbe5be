#include "core/ir/pirlisting.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <algorithm>
#include <cctype>

namespace ps {

PirListing::PirListing(std::shared_ptr<const Program> program, Generation gen)
    : m_program(std::move(program))
    , m_numbering(*m_program)
{
    std::vector<PirPrinter::PrintedOp> printed;
    m_text = PirPrinter::toString(*m_program, m_numbering, gen, printed);
    m_lineStart.push_back(0);
    for (size_t i = 0; i < m_text.size(); ++i)
        if (m_text[i] == '\n' && i + 1 < m_text.size())
            m_lineStart.push_back(i + 1);
    m_lineOp.assign(m_lineStart.size(), nullptr);
    m_lines.reserve(printed.size());
    // Pre-order: an op's nested ops come after it and overwrite its lines with theirs.
    for (const PirPrinter::PrintedOp &p : printed) {
        m_lines[p.op] = Lines { int(p.firstLine), int(p.lastLine) };
        for (uint32_t line = p.firstLine; line <= p.lastLine && line < m_lineOp.size(); ++line)
            m_lineOp[line] = p.op;
    }
}

PirListing::Lines PirListing::linesOf(const Operation *op) const
{
    auto it = m_lines.find(op);
    return it == m_lines.end() ? Lines {} : it->second;
}

const Operation *PirListing::opAt(int line) const
{
    return line >= 0 && size_t(line) < m_lineOp.size() ? m_lineOp[size_t(line)] : nullptr;
}

int PirListing::definitionLine(Value value) const
{
    if (!value)
        return -1;
    if (const Operation *def = value.definingOp())
        return linesOf(def).first;
    // A block argument: the first line in its block's op (or the program) that names it.
    const Block *block = value.parentBlock();
    const Operation *owner = block ? block->parentOp() : nullptr;
    const Lines range = owner ? linesOf(owner) : Lines { 0, lineCount() - 1 };
    if (!range.valid())
        return -1;
    const std::string id = m_numbering.name(value);
    for (int line = range.first; line <= range.last; ++line) {
        const size_t begin = m_lineStart[size_t(line)];
        const size_t end
            = size_t(line) + 1 < m_lineStart.size() ? m_lineStart[size_t(line) + 1] : m_text.size();
        for (size_t at = m_text.find(id, begin); at != std::string::npos && at + id.size() <= end;
             at = m_text.find(id, at + 1)) {
            const size_t after = at + id.size();
            if (after >= m_text.size()
                || !(std::isalnum(static_cast<unsigned char>(m_text[after])) || m_text[after] == '_'))
                return line;
        }
    }
    return -1;
}

std::vector<int> PirListing::useLines(Value value) const
{
    std::vector<int> lines;
    for (const OpOperand *use = value ? value.firstUse() : nullptr; use; use = use->nextUse())
        if (const Lines l = linesOf(use->owner()); l.valid())
            lines.push_back(l.first);
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    return lines;
}

} // namespace ps
