#pragma once

#include "core/ir/attribute.h"
#include "core/ir/value.h"

#include <span>
#include <string_view>
#include <vector>

namespace ps {

class Block;
class Operation;
class Program;

/// Creates operations at an insertion point, as MLIR's OpBuilder: the end of a block, a given
/// index (successive creates keep their order), or before / after an op (which stays the anchor
/// while other ops of the block come and go). PatternRewriter builds on it and hears of every
/// op it creates through notifyOperationInserted.
class Builder
{
public:
    explicit Builder(Program &program);
    virtual ~Builder() = default;

    Program &program() const { return m_program; }

    void setInsertionPointToEnd(Block &block);
    /// Inserts before the op currently at `index` (so successive creates keep their order).
    void setInsertionPoint(Block &block, size_t index);
    /// New ops go right before `op`, in creation order.
    void setInsertionPoint(Operation *op);
    /// New ops go right after `op` (before the op that follows it now), in creation order.
    void setInsertionPointAfter(Operation *op);
    Block *insertionBlock() const { return m_block; }

    /// Creates an op at the insertion point. Before an op: O(block size) (the anchor is found by
    /// position).
    Operation *create(std::string_view name, std::span<const Value> operands,
        std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes = {},
        unsigned numRegions = 0);
    Operation *create(std::string_view name, std::initializer_list<Value> operands,
        std::initializer_list<Type> resultTypes, std::vector<NamedAttribute> attributes = {},
        unsigned numRegions = 0)
    {
        return create(name, std::span<const Value>(operands.begin(), operands.size()),
            std::span<const Type>(resultTypes.begin(), resultTypes.size()), std::move(attributes),
            numRegions);
    }

protected:
    /// Every op create() made, once it is in its block.
    virtual void notifyOperationInserted(Operation *op) { }

private:
    Program &m_program;
    Block *m_block = nullptr;
    long m_index = -1; ///< -1: append (unless m_before is set)
    Operation *m_before = nullptr; ///< set: insert before this op of m_block
};

} // namespace ps
