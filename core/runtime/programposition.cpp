#include "core/runtime/programposition.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <algorithm>
#include <charconv>

namespace ps {
namespace {

bool parseIndex(std::string_view text, size_t &out)
{
    if (text.empty())
        return false;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size();
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

std::optional<ProgramPosition> ProgramPosition::parse(std::string_view text)
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
        else if (!parseIndex(seg, p.segment))
            return std::nullopt;
        rest = text.substr(colon + 1);
    }
    // op[/region:op]...
    while (!rest.empty()) {
        const size_t slash = rest.find('/');
        const std::string_view opText = rest.substr(0, slash);
        size_t op = 0;
        if (!parseIndex(opText, op))
            return std::nullopt;
        p.path.push_back(op);
        if (slash == std::string_view::npos)
            break;
        rest = rest.substr(slash + 1);
        const size_t c = rest.find(':');
        size_t region = 0;
        if (c == std::string_view::npos || !parseIndex(rest.substr(0, c), region))
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
