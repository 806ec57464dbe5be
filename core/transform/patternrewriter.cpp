#include "core/transform/patternrewriter.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <stdexcept>

namespace ps {

PatternRewriter::PatternRewriter(Program &program)
    : m_program(program)
    , m_block(&program.block())
{
}

PatternRewriter::~PatternRewriter() = default;

void PatternRewriter::setInsertionPoint(Operation *op)
{
    m_block = op->parentBlock();
    m_before = op;
}

void PatternRewriter::setInsertionPointAfter(Operation *op)
{
    m_block = op->parentBlock();
    const long index = m_block->indexOf(op);
    m_before = size_t(index + 1) < m_block->size() ? m_block->op(size_t(index + 1)) : nullptr;
}

void PatternRewriter::setInsertionPointToEnd(Block &block)
{
    m_block = &block;
    m_before = nullptr;
}

Operation *PatternRewriter::create(std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes)
{
    Operation *op = Operation::create(m_program.arena(), name, operands, resultTypes, std::move(attributes));
    if (!m_before) {
        m_block->push_back(op);
    } else {
        const long index = m_block->indexOf(m_before);
        if (index < 0)
            throw std::logic_error("PatternRewriter: the insertion point left its block");
        m_block->insert(size_t(index), op);
    }
    notifyOperationInserted(op);
    return op;
}

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
