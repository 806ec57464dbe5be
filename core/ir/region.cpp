#include "core/ir/region.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

namespace ps {

Region::Region(Program *program)
    : m_arena(&program->arena())
    , m_program(program)
{
}

Region::Region(Arena *arena, Operation *parentOp)
    : m_arena(arena)
    , m_parentOp(parentOp)
{
}

Region::~Region()
{
    // Ops may use values of earlier blocks (or of enclosing blocks): destroy blocks back to front.
    while (!m_blocks.empty())
        m_blocks.pop_back();
}

Program *Region::program() const
{
    if (m_program)
        return m_program;
    Block *parentBlock = m_parentOp ? m_parentOp->parentBlock() : nullptr;
    return parentBlock ? parentBlock->program() : nullptr;
}

Block &Region::addBlock()
{
    m_blocks.push_back(std::make_unique<Block>(this));
    return *m_blocks.back();
}

} // namespace ps
