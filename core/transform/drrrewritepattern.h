#pragma once

#include "core/transform/drrpattern.h"
#include "core/transform/rewritepattern.h"

#include <utility>
#include <vector>

namespace ps {

class DrrMatch;

/// Matches and applies a DrrPattern exactly as Paddle's `drr::DrrRewritePattern` does, since
/// the details decide what a pass produces:
///
/// * Anchor: the first source op whose outputs are all unconsumed in the pattern; with several
///   such ops the others are found from the anchor through shared operands and uses.
/// * Matching walks from the outputs to the inputs. A pattern tensor consumed inside the
///   pattern must have exactly as many uses in the program as consumers in the pattern; tensors
///   of the same name must be the same value; every bound attribute must exist (values are not
///   compared unless a constraint does). Then the constraints run.
/// * Each result op (in the result graph's topological order) is inserted before the first
///   matched source op, or right after the last defining op of its operands when that comes
///   later; it gets Paddle's default `stop_gradient`.
/// * Result outputs replace the source tensors of the same name; then matched source ops left
///   without uses are erased, and after them any op (matched or not) whose results became unused
///   through an erase.
class DrrRewritePattern : public RewritePattern
{
public:
    explicit DrrRewritePattern(DrrPattern pattern);
    bool matchAndRewrite(Operation &root, PatternRewriter &rewriter) const override;

    const DrrPattern &pattern() const { return m_pattern; }

private:
    bool match(Operation &root, DrrMatch &match) const;
    bool matchFromOutputs(const std::vector<std::pair<int, Operation *>> &outputs, DrrMatch &match) const;
    void findOutputCandidates(int drrOp, Operation *irOp, std::vector<int> &visited,
        std::vector<std::pair<int, std::vector<Operation *>>> &candidates) const;
    void rewrite(const DrrMatch &source, PatternRewriter &rewriter) const;
    Operation *createResultOp(
        int index, const DrrMatch &source, DrrMatch &result, PatternRewriter &rewriter) const;
    void eraseSourceOps(const DrrMatch &source, PatternRewriter &rewriter) const;

    DrrPattern m_pattern;
    int m_anchor = 0;
    std::vector<int> m_outputNodes;
};

} // namespace ps
