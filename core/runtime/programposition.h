#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Block;
class Operation;
class Program;

/// Where an op sits on an interpreter timeline: the segment (0 = forward, 1 = backward for a
/// training run; 0 for a plain program) and a path into the segment's program: the op's index in
/// the top block, then for an op nested in a region one (region index, op index) pair per level.
/// `[5]` is top-level op 5; `[5, 1, 2]` is op 2 of region 1 (the false branch) of `pd_op.if` op 5.
/// An empty path means "before the first op" / "end of segment" depending on context.
struct ProgramPosition
{
    size_t segment = 0;
    std::vector<size_t> path;

    bool valid() const { return path.size() % 2 == 1; }
    /// Nesting depth: 0 for a top-level op.
    size_t depth() const { return path.size() / 2; }
    /// The op index in the innermost block.
    size_t opIndex() const { return path.empty() ? 0 : path.back(); }

    /// "0:5", "1:5/1:2" (segment, then op[/region:op...]).
    std::string toString() const;
    /// Parses toString()'s form; also "5" (segment 0) and "bwd:3"/"fwd:3". nullopt when `text` is
    /// not a position; when it is written like one (digits, ':' and '/' only, after an optional
    /// fwd:/bwd:) but malformed or out of range, `error` (when given) says why, so a caller that
    /// falls back to a regex can report it instead.
    static std::optional<ProgramPosition> parse(std::string_view text, std::string *error = nullptr);

    /// The op at this path in `program`, or nullptr when the path leaves the program.
    const Operation *resolve(const Program &program) const;
    /// The path of `op` (which must belong to `program`'s blocks); an invalid position otherwise.
    static ProgramPosition of(const Operation *op, size_t segment);

    bool operator==(const ProgramPosition &) const = default;
    auto operator<=>(const ProgramPosition &) const = default;
};

} // namespace ps
