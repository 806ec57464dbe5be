#include "opreference.h"

#include "core/analysis/valuenames.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/interpreter.h"

#include <regex>
#include <vector>

std::optional<ps::ProgramPosition> OpReference::resolve(
    const ps::Interpreter &in, const std::string &text, std::string &error)
{
    if (auto position = ps::ProgramPosition::parse(text)) {
        if (!in.opAt(*position)) {
            error = "no op at " + position->toString();
            return std::nullopt;
        }
        return position;
    }
    std::regex pattern;
    try {
        pattern = std::regex(text, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
        error
            = "'" + text + "' is neither a position (0:5, bwd:3) nor a valid regular expression: " + e.what();
        return std::nullopt;
    }
    std::vector<std::pair<ps::ProgramPosition, std::string>> matches;
    const auto &segments = in.segments();
    for (size_t s = 0; s < segments.size(); ++s) {
        const ps::ValueNumbering numbering(*segments[s].program);
        segments[s].program->block().walk([&](ps::Operation *op) {
            std::vector<std::string> names { std::string(op->name()) };
            for (unsigned i = 0; i < op->numResults(); ++i) {
                for (std::string &n : ps::ValueNames::allNameStrings(op->result(i)))
                    names.push_back(std::move(n));
                names.push_back(numbering.name(op->result(i)));
            }
            for (const std::string &n : names) {
                if (std::regex_search(n, pattern)) {
                    matches.emplace_back(ps::ProgramPosition::of(op, s), std::string(op->name()));
                    break;
                }
            }
        });
    }
    if (matches.size() == 1)
        return matches.front().first;
    if (matches.empty()) {
        error = "no op or result name matches '" + text + "'";
        return std::nullopt;
    }
    error = "'" + text + "' matches " + std::to_string(matches.size()) + " ops (";
    for (size_t i = 0; i < matches.size() && i < 5; ++i)
        error += (i ? ", " : "") + matches[i].second + " at " + matches[i].first.toString();
    error += matches.size() > 5 ? ", ...)" : ")";
    error += "; name one by its position";
    return std::nullopt;
}
