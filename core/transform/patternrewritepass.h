#pragma once

#include "core/transform/pass.h"
#include "core/transform/rewritepattern.h"

#include <memory>
#include <string>
#include <vector>

namespace ps {

/// A pass made of rewrite patterns applied by the greedy driver (Paddle's
/// `pir::PatternRewritePass`). Subclasses add their patterns in the constructor, in Paddle's
/// order: it decides which pattern wins among equal benefits.
class PatternRewritePass : public Pass
{
public:
    std::string_view name() const override { return m_name; }
    std::string_view alias() const override { return m_alias; }
    std::string_view description() const override { return m_description; }
    /// Returns the number of rewrites.
    size_t run(Program &program) override;

    const std::vector<std::unique_ptr<RewritePattern>> &patterns() const { return m_patterns; }

protected:
    PatternRewritePass(std::string name, std::string alias, std::string description);
    void addPattern(std::unique_ptr<RewritePattern> pattern);

private:
    std::string m_name;
    std::string m_alias;
    std::string m_description;
    std::vector<std::unique_ptr<RewritePattern>> m_patterns;
};

} // namespace ps
