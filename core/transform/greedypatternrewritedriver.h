#pragma once

#include "core/transform/patternrewriter.h"

#include <cstddef>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class RewritePattern;

/// Applies rewrite patterns until nothing matches, exactly as Paddle's
/// `GreedyPatternRewriteDriver` with the `PatternRewritePass` configuration (top-down, at most
/// 10 sweeps), because the order of rewrites decides which of two overlapping matches wins:
///
/// * Each sweep fills a worklist with the ops of the program's top-level block and pops them in
///   program order. An op gets the patterns rooted on its name, highest benefit first (stable);
///   the first that rewrites wins.
/// * Ops a rewrite creates, ops whose operands it rewires and the defining ops of operands left
///   with at most one use are pushed on the worklist and so are visited next (last in, first
///   out); erased ops leave it. Ops in nested blocks enter the worklist only that way.
/// * Sweeps repeat while the last one rewrote something.
///
/// run() returns the number of rewrites. Cost: O(sweeps × ops × patterns per op) matches, plus
/// O(block size) per created op.
class GreedyPatternRewriteDriver : public PatternRewriter
{
public:
    static constexpr int kMaxIterations = 10;

    /// `patterns` must outlive the driver.
    GreedyPatternRewriteDriver(
        Program &program, const std::vector<std::unique_ptr<RewritePattern>> &patterns);
    size_t run();

protected:
    void notifyOperationInserted(Operation *op) override;
    void notifyOperationRemoved(Operation *op) override;
    void notifyOperationModified(Operation *op) override;
    void notifyRootReplaced(Operation *op) override;

private:
    size_t processWorklist();
    bool matchAndRewrite(Operation *op);
    void addToWorklist(Operation *op);
    void addOperandToWorklist(Value operand);
    void removeFromWorklist(Operation *op);

    std::unordered_map<std::string_view, std::vector<const RewritePattern *>> m_patterns;
    std::vector<Operation *> m_worklist;
    std::unordered_map<Operation *, size_t> m_worklistIndex;
};

} // namespace ps
