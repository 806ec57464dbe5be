#pragma once

#include "core/runtime/oprecord.h"
#include "core/runtime/programposition.h"

#include <optional>
#include <string>

namespace ps {

/// Why a run call of the Interpreter returned.
enum class StopReason : unsigned char {
    Step, ///< step/stepInto/stepOut finished
    Breakpoint, ///< an op breakpoint, before the op runs
    Cursor, ///< runToCursor reached its op
    NanInf, ///< the NaN/Inf breakpoint: the op just executed produced a NaN or an infinity
    NameMatch, ///< an output of the op just executed has a name matching a breakpoint's regex
    Divergence, ///< differential mode: the op just executed differs from the reference backend
    StopRequested, ///< requestStop()
    Finished, ///< the last op of the last segment executed
    Error, ///< an op failed (see Interpreter::error())
};

/// "step", "breakpoint", "cursor", "nan/inf", "name match", "divergence", "stop requested",
/// "finished", "error".
const char *stopReasonText(StopReason reason);

/// Where and why the interpreter stopped.
struct StopInfo
{
    StopReason reason = StopReason::Step;
    /// The next op to execute; nullopt when finished.
    std::optional<ProgramPosition> position;
    /// Index into Interpreter::records() of the op that triggered a NaN/name/divergence stop.
    std::optional<size_t> record;
    /// The breakpoint that fired, or -1.
    int breakpointId = -1;
    std::string message;
};

/// Receives interpreter events on the thread that runs the interpreter (no Qt: a GUI forwards
/// them with queued signals). Called between ops, never during a kernel.
class InterpreterObserver
{
public:
    virtual ~InterpreterObserver() = default;
    virtual void opExecuted(const OpRecord &record) { }
    /// A segment's last op executed and its scope variables were freed.
    virtual void segmentFinished(size_t segment) { }
    virtual void errorRaised(const OpError &error) { }
    virtual void stopped(const StopInfo &info) { }
};

} // namespace ps
