#pragma once

#include <memory>
#include <vector>

namespace ps {

class Arena;
class Block;
class Operation;
class Program;

/// A list of blocks owned by an operation (or by the Program at top level).
class Region
{
public:
    /// Top-level region of `program`.
    explicit Region(Program *program);
    /// A region of `parentOp`; blocks allocate their arguments from `arena`.
    Region(Arena *arena, Operation *parentOp);
    Region(const Region &) = delete;
    Region &operator=(const Region &) = delete;
    ~Region();

    /// The owning program; nullptr while the parent op is not inserted anywhere.
    Program *program() const;
    Arena &arena() const { return *m_arena; }
    Operation *parentOp() const { return m_parentOp; }

    size_t numBlocks() const { return m_blocks.size(); }
    Block &block(size_t i) const { return *m_blocks[i]; }
    bool empty() const { return m_blocks.empty(); }
    Block &addBlock();

private:
    friend class Operation;
    Arena *m_arena;
    Program *m_program = nullptr;
    Operation *m_parentOp = nullptr;
    std::vector<std::unique_ptr<Block>> m_blocks;
};

} // namespace ps
