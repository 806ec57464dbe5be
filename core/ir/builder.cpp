#include "core/ir/builder.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <stdexcept>

namespace ps {

Builder::Builder(Program &program)
    : m_program(program)
    , m_block(&program.block())
{
}

void Builder::setInsertionPointToEnd(Block &block)
{
    m_block = &block;
    m_index = -1;
    m_before = nullptr;
}

void Builder::setInsertionPoint(Block &block, size_t index)
{
    m_block = &block;
    m_index = long(index);
    m_before = nullptr;
}

void Builder::setInsertionPoint(Operation *op)
{
    m_block = op->parentBlock();
    m_index = -1;
    m_before = op;
}

void Builder::setInsertionPointAfter(Operation *op)
{
    Block *block = op->parentBlock();
    const size_t next = size_t(block->indexOf(op) + 1);
    if (next < block->size())
        setInsertionPoint(block->op(next));
    else
        setInsertionPointToEnd(*block);
}

Operation *Builder::create(std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes, unsigned numRegions)
{
    Operation *op = Operation::create(
        m_program.arena(), name, operands, resultTypes, std::move(attributes), numRegions);
    if (m_before) {
        const long index = m_block->indexOf(m_before);
        if (index < 0)
            throw std::logic_error("Builder: the insertion point left its block");
        m_block->insert(size_t(index), op);
    } else if (m_index < 0) {
        m_block->push_back(op);
    } else {
        m_block->insert(size_t(m_index), op);
        ++m_index;
    }
    notifyOperationInserted(op);
    return op;
}

} // namespace ps
