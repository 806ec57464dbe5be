#include "core/session/debugbreakpoint.h"

#include "core/ir/operation.h"

namespace ps {

std::string DebugBreakpoint::description() const
{
    switch (kind) {
    case Kind::Op:
        return (op ? std::string(op->name()) : std::string("op")) + " at " + position.toString();
    case Kind::NanInf:
        return "NaN/Inf in any result";
    case Kind::NameRegex:
        break;
    }
    return "value name ~ /" + pattern + "/";
}

} // namespace ps
