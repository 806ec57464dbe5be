#pragma once

#include "core/ir/builder.h"

#include <span>

namespace ps {

class Operation;

/// Creates, replaces and erases ops for rewrite patterns, like Paddle's `pir::PatternRewriter`
/// (and MLIR's, which builds on OpBuilder the same way): the insertion point and op creation are
/// Builder's, and notification hooks that a driver overrides keep its worklist current. All
/// edits of a pattern go through it.
class PatternRewriter : public Builder
{
public:
    explicit PatternRewriter(Program &program);
    ~PatternRewriter() override;
    PatternRewriter(const PatternRewriter &) = delete;
    PatternRewriter &operator=(const PatternRewriter &) = delete;

    /// Every use of `from` now uses `to`; each user is reported as updated.
    void replaceAllUsesWith(Value from, Value to);
    /// Replaces every result of `op` by the matching value and erases `op`.
    void replaceOp(Operation *op, std::span<const Value> values);
    /// Erases `op`, whose results must be unused.
    void eraseOp(Operation *op);

protected:
    virtual void notifyOperationRemoved(Operation *op) { }
    /// An op whose operand was rewired (Paddle's FinalizeRootUpdate).
    virtual void notifyOperationModified(Operation *op) { }
    /// `op` is about to be replaced: its results' users are still attached.
    virtual void notifyRootReplaced(Operation *op) { }
};

} // namespace ps
