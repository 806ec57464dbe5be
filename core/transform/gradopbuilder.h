#pragma once

#include "core/ir/attribute.h"
#include "core/ir/builder.h"
#include "core/ir/value.h"

#include <span>
#include <string_view>
#include <vector>

namespace ps {

class Block;
class Operation;
class Program;

/// Creates the ops of a backward pass the way Paddle's builders do: ops get Paddle's default
/// `stop_gradient` array (PassStopGradientsDefaultly: every result is false when some operand
/// carries an explicit false, true otherwise), and the helper ops (`pd_op.full`, `pd_op.full_like`,
/// `builtin.combine`/`builtin.split`, `pd_op.add_n`) get exactly the attributes Paddle's Python
/// APIs give them in a static (PIR) program.
class GradOpBuilder
{
public:
    explicit GradOpBuilder(Program &program);

    Program &program() const { return m_program; }
    void setInsertionPointToEnd(Block &block);
    /// Inserts before the op at `index` of `block` (successive ops keep their order).
    void setInsertionPoint(Block &block, size_t index);
    Block *insertionBlock() const { return m_block; }
    /// -1 when appending at the end of the insertion block.
    long insertionIndex() const { return m_index; }

    /// An op with the default stop_gradient attribute appended to `attributes` (only when it has
    /// results).
    Operation *create(std::string_view name, std::span<const Value> operands,
        std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes = {},
        unsigned numRegions = 0);
    /// An op with exactly `attributes` (no stop_gradient added).
    Operation *createPlain(std::string_view name, std::span<const Value> operands,
        std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes = {},
        unsigned numRegions = 0);

    /// `pd_op.full` of shape [1], float32 on the CPU: the value operand `paddle.full_like` makes.
    Operation *full(double value);
    /// `paddle.full_like(x, value, dtype=x.dtype)`: a `pd_op.full` then the `pd_op.full_like`,
    /// which is returned (its operand 1 is the full).
    Operation *fullLike(Value x, double value);
    /// `builtin.combine`; returns the vector value.
    Value combine(std::span<const Value> values);
    /// `builtin.split` of a vector value into its elements.
    Operation *split(Value vector);
    /// `paddle.add_n`: `builtin.combine` + `pd_op.add_n`; returns the add_n op.
    Operation *addN(std::span<const Value> values);

private:
    Operation *insert(Operation *op);

    Program &m_program;
    Block *m_block = nullptr;
    long m_index = -1;
};

} // namespace ps
