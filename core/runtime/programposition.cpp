#include "core/runtime/programposition.h"

#include "core/io/numbertext.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <algorithm>
#include <charconv>

namespace ps {
namespace {

/// Indices are at most 2^31 - 1 (no block holds more ops).
bool parseIndex(std::string_view text, size_t &out, std::string &why)
{
    const std::optional<uint64_t> v = NumberText::parseUnsigned(text, (uint64_t(1) << 31) - 1, why);
    if (v)
        out = size_t(*v);
    return v.has_value();
}

bool writtenLikePosition(std::string_view text)
{
    for (std::string_view prefix : { "fwd:", "bwd:", "forward:", "backward:" })
        if (text.starts_with(prefix))
            text.remove_prefix(prefix.size());
    return !text.empty() && text.find_first_not_of("0123456789:/") == std::string_view::npos
        && text.find_first_of("0123456789") != std::string_view::npos;
}

std::optional<ProgramPosition> parsePosition(std::string_view text, std::string &why)
{
    ProgramPosition p;
    const size_t colon = text.find(':');
    std::string_view rest = text;
    if (colon != std::string_view::npos) {
        const std::string_view seg = text.substr(0, colon);
        if (seg == "fwd" || seg == "forward")
            p.segment = 0;
        else if (seg == "bwd" || seg == "backward")
            p.segment = 1;
        else if (!parseIndex(seg, p.segment, why))
            return std::nullopt;
        rest = text.substr(colon + 1);
    }
    // op[/region:op]...
    while (!rest.empty()) {
        const size_t slash = rest.find('/');
        const std::string_view opText = rest.substr(0, slash);
        size_t op = 0;
        if (!parseIndex(opText, op, why))
            return std::nullopt;
        p.path.push_back(op);
        if (slash == std::string_view::npos)
            break;
        rest = rest.substr(slash + 1);
        const size_t c = rest.find(':');
        size_t region = 0;
        if (c == std::string_view::npos || !parseIndex(rest.substr(0, c), region, why))
            return std::nullopt;
        p.path.push_back(region);
        rest = rest.substr(c + 1);
        if (rest.empty())
            return std::nullopt;
    }
    if (!p.valid())
        return std::nullopt;
    return p;
}

} // namespace

std::string ProgramPosition::toString() const
{
    std::string s = std::to_string(segment) + ":";
    for (size_t i = 0; i < path.size(); ++i) {
        if (i > 0)
            s += i % 2 == 1 ? "/" : ":";
        s += std::to_string(path[i]);
    }
    return s;
}

std::optional<ProgramPosition> ProgramPosition::parse(std::string_view text, std::string *error)
{
    std::string why;
    std::optional<ProgramPosition> p = parsePosition(text, why);
    if (!p && error && writtenLikePosition(text))
        *error = NumberText::quote(text)
            + " is not a valid position (SEGMENT:OP[/REGION:OP]..., e.g. 0:12, bwd:3, 0:17/1:2)"
            + (why.empty() ? std::string() : ": " + why);
    return p;
}

const Operation *ProgramPosition::resolve(const Program &program) const
{
    if (!valid())
        return nullptr;
    const Block *block = &program.block();
    const Operation *op = nullptr;
    for (size_t i = 0; i < path.size(); i += 2) {
        if (path[i] >= block->size())
            return nullptr;
        op = block->op(path[i]);
        if (i + 1 < path.size()) {
            if (path[i + 1] >= op->numRegions() || op->region(unsigned(path[i + 1])).empty())
                return nullptr;
            block = &op->region(unsigned(path[i + 1])).block(0);
        }
    }
    return op;
}

ProgramPosition ProgramPosition::of(const Operation *op, size_t segment)
{
    ProgramPosition p;
    p.segment = segment;
    std::vector<size_t> reversed;
    while (op) {
        const Block *block = op->parentBlock();
        if (!block)
            return ProgramPosition { segment, {} };
        const long index = block->indexOf(op);
        if (index < 0)
            return ProgramPosition { segment, {} };
        reversed.push_back(size_t(index));
        Operation *parent = block->parentOp();
        if (parent) {
            const Region *region = block->parentRegion();
            size_t regionIndex = 0;
            for (unsigned r = 0; r < parent->numRegions(); ++r)
                if (&parent->region(r) == region)
                    regionIndex = r;
            reversed.push_back(regionIndex);
        }
        op = parent;
    }
    p.path.assign(reversed.rbegin(), reversed.rend());
    return p;
}

} // namespace ps
