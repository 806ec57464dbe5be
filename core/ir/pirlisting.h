#pragma once

#include "core/ir/pirprinter.h"
#include "core/ir/valuenumbering.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps {

/// A program printed as PIR text (PirPrinter, value ids of ValueNumbering) with an index from ops
/// to the lines they are printed on and back: what a text view of the program scrolls and
/// selects by. Holds the program it indexes. Immutable; O(text + lines × nesting depth) to build.
class PirListing
{
public:
    /// Lines are counted from 0; `last` is inclusive.
    struct Lines
    {
        int first = -1;
        int last = -1;
        bool valid() const { return first >= 0; }
    };

    explicit PirListing(std::shared_ptr<const Program> program, Generation gen = Generation::C);

    const Program &program() const { return *m_program; }
    std::shared_ptr<const Program> sharedProgram() const { return m_program; }
    const ValueNumbering &numbering() const { return m_numbering; }
    const std::string &text() const { return m_text; }
    int lineCount() const { return int(m_lineOp.size()); }
    size_t opCount() const { return m_lines.size(); }

    /// The lines `op` is printed on (with its regions); invalid for an op of another program.
    Lines linesOf(const Operation *op) const;
    /// The innermost op printed on `line` (a region's closing brace belongs to its op); null for
    /// the program's braces and out-of-range lines.
    const Operation *opAt(int line) const;
    /// The line that defines `value`: its op's first line, or for a block argument the line that
    /// lists it (`^%arg_0, ...`); -1 when it is not printed.
    int definitionLine(Value value) const;
    /// The first line of each op that uses `value`, ascending, each once.
    std::vector<int> useLines(Value value) const;

private:
    std::shared_ptr<const Program> m_program;
    ValueNumbering m_numbering;
    std::string m_text;
    std::vector<size_t> m_lineStart; ///< offset of each line in m_text
    std::vector<const Operation *> m_lineOp;
    std::unordered_map<const Operation *, Lines> m_lines;
};

} // namespace ps
