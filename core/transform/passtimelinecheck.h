#pragma once

#include "core/transform/passtimeline.h"

#include <optional>

namespace ps {

class Pass;
class Program;
struct PassRecord;

/// Checks the passes of a PassTimelineRecorder run numerically, on the live program the passes
/// edit in place, so a value that survives a pass is the same IR value before and after it.
/// core/session's PassTimelineNumerics implements it over PassNumericsCheck (the CPU oracle).
class PassTimelineCheck
{
public:
    virtual ~PassTimelineCheck() = default;
    /// Before the first pass that runs: the program the passes start from.
    virtual void begin(const Program &program) = 0;
    /// After `pass` ran on `program` (or was listed, unimplemented); nullopt leaves the step
    /// without a result (nothing was compared).
    virtual std::optional<NumericCheck> afterPass(
        const Pass &pass, const Program &program, const PassRecord &record)
        = 0;
};

} // namespace ps
