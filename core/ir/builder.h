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

/// Creates operations at an insertion point (end of a block, or a given index).
class Builder
{
public:
    explicit Builder(Program &program);

    void setInsertionPointToEnd(Block &block);
    /// Inserts before the op currently at `index` (so successive creates keep their order).
    void setInsertionPoint(Block &block, size_t index);
    Block *insertionBlock() const { return m_block; }

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

private:
    Program &m_program;
    Block *m_block = nullptr;
    long m_index = -1; ///< -1: append
};

} // namespace ps
