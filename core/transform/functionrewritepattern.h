#pragma once

#include "core/transform/rewritepattern.h"

#include <functional>

namespace ps {

/// A hand-written rewrite pattern (Paddle's OpRewritePattern subclasses) given as a function.
class FunctionRewritePattern : public RewritePattern
{
public:
    using Function = std::function<bool(Operation &root, PatternRewriter &rewriter)>;

    FunctionRewritePattern(std::string name, std::string rootName, unsigned benefit, Function function)
        : RewritePattern(std::move(name), std::move(rootName), benefit)
        , m_function(std::move(function))
    {
    }
    bool matchAndRewrite(Operation &root, PatternRewriter &rewriter) const override
    {
        return m_function(root, rewriter);
    }

private:
    Function m_function;
};

} // namespace ps
