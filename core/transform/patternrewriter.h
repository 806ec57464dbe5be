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

/// Creates, replaces and erases ops for rewrite patterns, like Paddle's `pir::PatternRewriter`:
/// an insertion point (before an op, or the end of a block) and notification hooks that a driver
/// overrides to keep its worklist current. All edits of a pattern go through it.
class PatternRewriter
{
public:
    explicit PatternRewriter(Program &program);
    virtual ~PatternRewriter();
    PatternRewriter(const PatternRewriter &) = delete;
    PatternRewriter &operator=(const PatternRewriter &) = delete;

    Program &program() const { return m_program; }
    /// The block new ops go into.
    Block &block() const { return *m_block; }

    /// New ops go right before `op`, in creation order.
    void setInsertionPoint(Operation *op);
    /// New ops go right after `op` (before the op that follows it now), in creation order.
    void setInsertionPointAfter(Operation *op);
    void setInsertionPointToEnd(Block &block);

    /// Creates an op at the insertion point. O(block size) (the insertion point is found by
    /// position).
    Operation *create(std::string_view name, std::span<const Value> operands,
        std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes);
    /// Every use of `from` now uses `to`; each user is reported as updated.
    void replaceAllUsesWith(Value from, Value to);
    /// Replaces every result of `op` by the matching value and erases `op`.
    void replaceOp(Operation *op, std::span<const Value> values);
    /// Erases `op`, whose results must be unused.
    void eraseOp(Operation *op);

protected:
    virtual void notifyOperationInserted(Operation *op) { }
    virtual void notifyOperationRemoved(Operation *op) { }
    /// An op whose operand was rewired (Paddle's FinalizeRootUpdate).
    virtual void notifyOperationModified(Operation *op) { }
    /// `op` is about to be replaced: its results' users are still attached.
    virtual void notifyRootReplaced(Operation *op) { }

private:
    Program &m_program;
    Block *m_block = nullptr;
    Operation *m_before = nullptr; ///< nullptr: the end of m_block
};

} // namespace ps
