#pragma once

#include "core/ir/value.h"
#include "core/runtime/programposition.h"

#include <optional>
#include <string>
#include <vector>

namespace ps {

class Program;

/// An op or a value named the way `--break` names an op, over the programs of a timeline
/// (segment 0 the forward or only program, 1 the backward): a position ("0:5", "5", "bwd:3",
/// "0:17/0:3"; ProgramPosition::parse) or a regular expression searched in the names of the
/// op's results (their Paddle names and printer ids such as "%5") and in the op's name
/// ("pd_op.my_op"). The CLI (`run --break/--provide`, `render --select`) and the GUI
/// (`--select`, `--inspect`) share it.
class OpReference
{
public:
    /// The position of the one op `text` names; nullopt with `error` set when none or more
    /// than one matches (the first few are listed).
    static std::optional<ProgramPosition> resolve(
        const std::vector<const Program *> &segments, const std::string &text, std::string &error);

    /// The one value `text` names: a printer id ("%12", "%arg_0", "%kwarg_x") or a regular
    /// expression searched in value names and ids (op results, block arguments, keyword
    /// arguments), else an op reference standing for its first result. Null with `error` set.
    static Value resolveValue(const std::vector<const Program *> &segments, const std::string &text,
        std::string &error, size_t *segment = nullptr);
};

} // namespace ps
