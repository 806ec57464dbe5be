#include "core/ir/builder.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

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
}

void Builder::setInsertionPoint(Block &block, size_t index)
{
    m_block = &block;
    m_index = long(index);
}

Operation *Builder::create(std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes, unsigned numRegions)
{
    Operation *op = Operation::create(
        m_program.arena(), name, operands, resultTypes, std::move(attributes), numRegions);
    if (m_index < 0) {
        m_block->push_back(op);
    } else {
        m_block->insert(size_t(m_index), op);
        ++m_index;
    }
    return op;
}

} // namespace ps
