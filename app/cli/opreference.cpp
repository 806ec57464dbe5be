#include "opreference.h"

#include "core/runtime/interpreter.h"
#include "core/runtime/opreference.h"

#include <vector>

std::optional<ps::ProgramPosition> OpReference::resolve(
    const ps::Interpreter &in, const std::string &text, std::string &error)
{
    std::vector<const ps::Program *> programs;
    for (const ps::Interpreter::Segment &segment : in.segments())
        programs.push_back(segment.program.get());
    return ps::OpReference::resolve(programs, text, error);
}
