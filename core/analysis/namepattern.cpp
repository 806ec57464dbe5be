#include "core/analysis/namepattern.h"

#include "core/analysis/valuenames.h"
#include "core/io/numbertext.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

#ifdef PIRSCOPE_HAVE_RE2
#    include <re2/re2.h>
#else
namespace re2 {
class RE2
{
};
} // namespace re2
#endif

namespace ps {

const char *const NamePattern::kUnsupported
    = "regular expressions need RE2 and this build of PIRScope has none (install libre2-dev and rebuild); "
      "name an op by its position instead (0:12, bwd:3)";

bool NamePattern::available()
{
#ifdef PIRSCOPE_HAVE_RE2
    return true;
#else
    return false;
#endif
}

NamePattern::NamePattern(NamePattern &&) noexcept = default;
NamePattern &NamePattern::operator=(NamePattern &&) noexcept = default;
NamePattern::~NamePattern() = default;

std::optional<NamePattern> NamePattern::compile(std::string_view pattern, std::string &error)
{
    constexpr size_t kMaxPattern = 4096;
    if (pattern.size() > kMaxPattern) {
        error = "regular expression " + NumberText::quote(pattern) + " is longer than "
            + std::to_string(kMaxPattern) + " characters";
        return std::nullopt;
    }
#ifdef PIRSCOPE_HAVE_RE2
    RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(int64_t(8) << 20);
    auto regex = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (!regex->ok()) {
        error = "invalid regular expression " + NumberText::quote(pattern) + ": " + regex->error();
        return std::nullopt;
    }
    NamePattern p;
    p.m_pattern = std::string(pattern);
    p.m_regex = std::move(regex);
    return p;
#else
    error = std::string("regular expression ") + NumberText::quote(pattern) + ": " + kUnsupported;
    return std::nullopt;
#endif
}

bool NamePattern::search(std::string_view text) const
{
#ifdef PIRSCOPE_HAVE_RE2
    return m_regex && RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *m_regex);
#else
    return false;
#endif
}

std::vector<const Operation *> NamePattern::matchingOps(const Program &program, bool opNames) const
{
    std::vector<const Operation *> out;
    const ValueNumbering numbering(program);
    program.block().walk([&](Operation *op) {
        bool found = opNames && search(op->name());
        for (unsigned i = 0; i < op->numResults() && !found; ++i) {
            found = search(numbering.name(op->result(i)));
            for (const std::string &n : ValueNames::allNameStrings(op->result(i)))
                found = found || search(n);
        }
        if (found)
            out.push_back(op);
    });
    return out;
}

} // namespace ps
