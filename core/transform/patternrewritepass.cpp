#include "core/transform/patternrewritepass.h"

#include "core/transform/greedypatternrewritedriver.h"

namespace ps {

PatternRewritePass::PatternRewritePass(std::string name, std::string alias, std::string description)
    : m_name(std::move(name))
    , m_alias(std::move(alias))
    , m_description(std::move(description))
{
}

void PatternRewritePass::addPattern(std::unique_ptr<RewritePattern> pattern)
{
    m_patterns.push_back(std::move(pattern));
}

size_t PatternRewritePass::run(Program &program)
{
    GreedyPatternRewriteDriver driver(program, m_patterns);
    return driver.run();
}

} // namespace ps
