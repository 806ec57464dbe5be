#include "core/transform/patternrewriter.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"

#include <stdexcept>

namespace ps {

PatternRewriter::PatternRewriter(Program &program)
    : Builder(program)
{
}

PatternRewriter::~PatternRewriter() = default;

void PatternRewriter::replaceAllUsesWith(Value from, Value to)
{
    if (from == to)
        return;
    while (OpOperand *use = from.firstUse()) {
        Operation *user = use->owner();
        use->set(to);
        notifyOperationModified(user);
    }
}

void PatternRewriter::replaceOp(Operation *op, std::span<const Value> values)
{
    notifyRootReplaced(op);
    for (unsigned i = 0; i < op->numResults() && i < values.size(); ++i)
        op->result(i).replaceAllUsesWith(values[i]);
    eraseOp(op);
}

void PatternRewriter::eraseOp(Operation *op)
{
    for (unsigned i = 0; i < op->numResults(); ++i)
        if (op->result(i).hasUses())
            throw std::logic_error(
                "PatternRewriter: erasing " + std::string(op->name()) + " whose results are used");
    notifyOperationRemoved(op);
    op->parentBlock()->erase(op);
}

} // namespace ps
