#pragma once

#include "core/runtime/programposition.h"

#include <optional>
#include <string>

namespace ps {
class Interpreter;
} // namespace ps

/// An op named on the command line the way `--break` names one: a position on the interpreter's
/// timeline ("0:5", "5", "bwd:3", "0:17/0:3"; ProgramPosition::parse) or an ECMAScript regex
/// searched in the names of the op's results (their Paddle names and printer ids such as "%5",
/// the names a `--break REGEX` matches) and in the op's name ("pd_op.my_op").
class OpReference
{
public:
    /// The position of the one op `text` names among `in`'s segments; nullopt with `error` set when
    /// no op or more than one matches (the first few are listed).
    static std::optional<ps::ProgramPosition> resolve(
        const ps::Interpreter &in, const std::string &text, std::string &error);
};
