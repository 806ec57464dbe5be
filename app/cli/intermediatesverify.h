#pragma once

#include "core/session/intermediatescheck.h"

struct RunSource;
namespace ps {
struct DebugSources;
}

/// `verify BUNDLE --intermediates [--isolate] [--json]`: PIRScope's run of the bundle's program
/// compared op by op with Paddle's intermediate values (IntermediatesCheck). Prints the first
/// divergent value (and whether its operands already differed), the ten worst and, with
/// --isolate, the first op that differs on Paddle's own operands. 0 when every value agrees.
int verifyIntermediates(const RunSource &source, const ps::DebugSources &sources,
    ps::IntermediatesCheck::Tolerance tolerance, bool isolate, bool json);
