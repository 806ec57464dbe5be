#include "core/transform/greedypatternrewritedriver.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/transform/rewritepattern.h"

#include <algorithm>

namespace ps {

GreedyPatternRewriteDriver::GreedyPatternRewriteDriver(
    Program &program, const std::vector<std::unique_ptr<RewritePattern>> &patterns)
    : PatternRewriter(program)
{
    for (const auto &pattern : patterns)
        m_patterns[pattern->rootName()].push_back(pattern.get());
    for (auto &[root, list] : m_patterns)
        std::stable_sort(list.begin(), list.end(),
            [](const RewritePattern *a, const RewritePattern *b) { return a->benefit() > b->benefit(); });
}

size_t GreedyPatternRewriteDriver::run()
{
    size_t total = 0;
    for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
        m_worklist.clear();
        m_worklistIndex.clear();
        const std::vector<Operation *> &ops = program().block().ops();
        // Reversed, so popping from the back visits the ops in program order.
        m_worklist.assign(ops.rbegin(), ops.rend());
        for (size_t i = 0; i < m_worklist.size(); ++i)
            m_worklistIndex[m_worklist[i]] = i;
        const size_t rewrites = processWorklist();
        total += rewrites;
        if (rewrites == 0)
            break;
    }
    return total;
}

size_t GreedyPatternRewriteDriver::processWorklist()
{
    size_t rewrites = 0;
    while (!m_worklist.empty()) {
        Operation *op = m_worklist.back();
        m_worklist.pop_back();
        if (!op)
            continue;
        m_worklistIndex.erase(op);
        if (matchAndRewrite(op))
            ++rewrites;
    }
    return rewrites;
}

bool GreedyPatternRewriteDriver::matchAndRewrite(Operation *op)
{
    const auto it = m_patterns.find(op->name());
    if (it == m_patterns.end())
        return false;
    for (const RewritePattern *pattern : it->second) {
        setInsertionPoint(op);
        if (pattern->matchAndRewrite(*op, *this))
            return true;
    }
    return false;
}

void GreedyPatternRewriteDriver::addToWorklist(Operation *op)
{
    if (m_worklistIndex.count(op))
        return;
    m_worklistIndex[op] = m_worklist.size();
    m_worklist.push_back(op);
}

void GreedyPatternRewriteDriver::addOperandToWorklist(Value operand)
{
    // Paddle re-adds the producer of a value left with zero or one use: such values often
    // enable another match.
    if (operand.isNull() || (operand.hasUses() && !operand.hasOneUse()))
        return;
    if (Operation *def = operand.definingOp())
        addToWorklist(def);
}

void GreedyPatternRewriteDriver::removeFromWorklist(Operation *op)
{
    const auto it = m_worklistIndex.find(op);
    if (it == m_worklistIndex.end())
        return;
    m_worklist[it->second] = nullptr;
    m_worklistIndex.erase(it);
}

void GreedyPatternRewriteDriver::notifyOperationInserted(Operation *op)
{
    addToWorklist(op);
}

void GreedyPatternRewriteDriver::notifyOperationRemoved(Operation *op)
{
    for (unsigned i = 0; i < op->numOperands(); ++i)
        addOperandToWorklist(op->operand(i));
    removeFromWorklist(op);
    // Paddle takes out the ops of its blocks instead of the op itself (and would then visit the
    // erased op); here both leave.
    for (unsigned r = 0; r < op->numRegions(); ++r)
        for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
            for (Operation *nested : op->region(r).block(b).ops())
                removeFromWorklist(nested);
}

void GreedyPatternRewriteDriver::notifyOperationModified(Operation *op)
{
    addToWorklist(op);
}

void GreedyPatternRewriteDriver::notifyRootReplaced(Operation *op)
{
    for (unsigned i = 0; i < op->numResults(); ++i)
        for (OpOperand *use = op->result(i).firstUse(); use; use = use->nextUse())
            addToWorklist(use->owner());
}

} // namespace ps
