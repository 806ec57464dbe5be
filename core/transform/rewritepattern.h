#pragma once

#include <string>
#include <string_view>

namespace ps {

class Operation;
class PatternRewriter;

/// One rewrite rule, tried on ops named rootName() (Paddle's `pir::RewritePattern`). Patterns
/// with a higher benefit are tried first; equal benefits keep the order they were added in.
class RewritePattern
{
public:
    RewritePattern(std::string name, std::string rootName, unsigned benefit)
        : m_name(std::move(name))
        , m_rootName(std::move(rootName))
        , m_benefit(benefit)
    {
    }
    virtual ~RewritePattern() = default;

    /// Paddle's pattern name ("SiluFusePattern"), for logs.
    const std::string &name() const { return m_name; }
    /// Full name of the op the pattern is anchored on ("pd_op.multiply").
    const std::string &rootName() const { return m_rootName; }
    unsigned benefit() const { return m_benefit; }

    /// Matches `root` and, on success, rewrites through `rewriter` (whose insertion point is
    /// right before `root`) and returns true. Returns false without touching the IR otherwise.
    virtual bool matchAndRewrite(Operation &root, PatternRewriter &rewriter) const = 0;

private:
    std::string m_name;
    std::string m_rootName;
    unsigned m_benefit;
};

} // namespace ps
