#include "core/runtime/opreference.h"

#include "core/analysis/namepattern.h"
#include "core/analysis/valuenames.h"
#include "core/io/numbertext.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

namespace ps {

namespace {

/// Lists up to five `what`s found ("conv2d at 0:3, relu at 0:4, ...").
std::string listed(const std::vector<std::string> &found)
{
    std::string s;
    for (size_t i = 0; i < found.size() && i < 5; ++i)
        s += (i ? ", " : "") + found[i];
    return s + (found.size() > 5 ? ", ..." : "");
}

std::optional<NamePattern> compile(const std::string &text, std::string &error)
{
    std::string why;
    std::optional<NamePattern> pattern = NamePattern::compile(text, why);
    if (!pattern)
        error = NumberText::quote(text)
            + " is neither a position (0:5, bwd:3) nor a usable regular expression: " + why;
    return pattern;
}

/// Every value a block defines: its arguments, keyword arguments and op results, nested
/// blocks included.
template<class Fn> void forEachValue(const Block &block, Fn &&fn)
{
    for (size_t i = 0; i < block.numArguments(); ++i)
        fn(block.argument(i));
    for (size_t i = 0; i < block.numKwargs(); ++i)
        fn(block.kwargAt(i));
    block.walk([&](Operation *op) {
        for (unsigned r = 0; r < op->numResults(); ++r)
            fn(op->result(r));
    });
}

} // namespace

std::optional<ProgramPosition> OpReference::resolve(
    const std::vector<const Program *> &segments, const std::string &text, std::string &error)
{
    std::string positionError;
    if (auto position = ProgramPosition::parse(text, &positionError)) {
        if (position->segment >= segments.size() || !position->resolve(*segments[position->segment])) {
            error = "no op at " + position->toString();
            return std::nullopt;
        }
        return position;
    }
    if (!positionError.empty()) {
        error = positionError;
        return std::nullopt;
    }
    const std::optional<NamePattern> pattern = compile(text, error);
    if (!pattern)
        return std::nullopt;
    std::vector<ProgramPosition> matches;
    std::vector<std::string> found;
    for (size_t s = 0; s < segments.size(); ++s) {
        const ValueNumbering numbering(*segments[s]);
        segments[s]->block().walk([&](Operation *op) {
            std::vector<std::string> names { std::string(op->name()) };
            for (unsigned i = 0; i < op->numResults(); ++i) {
                for (std::string &n : ValueNames::allNameStrings(op->result(i)))
                    names.push_back(std::move(n));
                names.push_back(numbering.name(op->result(i)));
            }
            for (const std::string &n : names) {
                if (pattern->search(n)) {
                    matches.push_back(ProgramPosition::of(op, s));
                    found.push_back(std::string(op->name()) + " at " + matches.back().toString());
                    break;
                }
            }
        });
    }
    if (matches.size() == 1)
        return matches.front();
    if (matches.empty())
        error = "no op or result name matches " + NumberText::quote(text);
    else
        error = "'" + text + "' matches " + std::to_string(matches.size()) + " ops (" + listed(found)
            + "); name one by its position";
    return std::nullopt;
}

Value OpReference::resolveValue(const std::vector<const Program *> &segments, const std::string &text,
    std::string &error, size_t *segment)
{
    std::vector<std::pair<Value, size_t>> matches;
    std::vector<std::string> found;
    const bool byId = !text.empty() && text.front() == '%';
    std::string patternError;
    const std::optional<NamePattern> pattern = byId ? std::nullopt : compile(text, patternError);
    if (byId || pattern) {
        for (size_t s = 0; s < segments.size(); ++s) {
            const ValueNumbering numbering(*segments[s]);
            forEachValue(segments[s]->block(), [&](Value v) {
                const std::string id = numbering.name(v);
                bool hit = byId ? id == text : pattern->search(id);
                if (!byId)
                    for (const std::string &n : ValueNames::allNameStrings(v))
                        hit = hit || pattern->search(n);
                if (hit) {
                    matches.emplace_back(v, s);
                    found.push_back(id + " in segment " + std::to_string(s));
                }
            });
        }
    }
    if (matches.empty() && !byId) {
        if (auto position = ProgramPosition::parse(text)) {
            const Operation *op = position->segment < segments.size()
                ? position->resolve(*segments[position->segment])
                : nullptr;
            if (op && op->numResults() > 0) {
                if (segment)
                    *segment = position->segment;
                return op->result(0);
            }
            error = op ? "the op at " + position->toString() + " has no result"
                       : "no op at " + position->toString();
            return Value();
        }
        if (!pattern) {
            error = patternError;
            return Value();
        }
    }
    if (matches.size() == 1) {
        if (segment)
            *segment = matches.front().second;
        return matches.front().first;
    }
    if (matches.empty())
        error = "no value name or id matches '" + text + "'";
    else
        error = "'" + text + "' matches " + std::to_string(matches.size()) + " values (" + listed(found)
            + "); name one by its id (%N)";
    return Value();
}

} // namespace ps
