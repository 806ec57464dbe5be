#pragma once

#include "core/runtime/programposition.h"

#include <optional>
#include <string>

namespace ps {
class Interpreter;
} // namespace ps

/// An op named on the command line the way `--break` names one: ps::OpReference over the
/// interpreter's segments (a position such as "0:5" or "bwd:3", or an RE2 regex (NamePattern) searched in
/// result names, printer ids and op names).
class OpReference
{
public:
    /// The position of the one op `text` names among `in`'s segments; nullopt with `error` set when
    /// no op or more than one matches (the first few are listed).
    static std::optional<ps::ProgramPosition> resolve(
        const ps::Interpreter &in, const std::string &text, std::string &error);
};
