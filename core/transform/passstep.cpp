#include "core/transform/passstep.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

namespace ps {

namespace {

/// The first line of each referenced op's text in `program`.
std::vector<std::string> opLines(const Program *program, const std::vector<PassOpRef> &refs)
{
    std::vector<std::string> lines;
    if (!program || refs.empty())
        return lines;
    std::vector<const Operation *> ops;
    program->block().walk([&ops](Operation *op) { ops.push_back(op); });
    const ValueNumbering numbering(*program);
    for (const PassOpRef &ref : refs) {
        if (ref.index >= ops.size())
            continue;
        std::string text = PirPrinter::opText(*ops[ref.index], numbering);
        const size_t newline = text.find('\n');
        if (newline != std::string::npos)
            text.resize(newline);
        lines.push_back(std::move(text));
    }
    return lines;
}

} // namespace

std::vector<std::string> PassStep::removedOpTexts() const
{
    return opLines(before.get(), record.removedOps);
}

std::vector<std::string> PassStep::addedOpTexts() const
{
    return opLines(after.get(), record.addedOps);
}

std::vector<std::string> PassStep::modifiedOpTexts() const
{
    return opLines(after.get(), modifiedOps);
}

} // namespace ps
