#pragma once

#include "core/session/runlogcomparison.h"

#include <string>

struct RunSource;
namespace ps {
struct DebugSources;
}

/// `verify BUNDLE|PROGRAM --paddle-log LOG [--against LOG2] [--referee f64] [--json]`: LOG's records matched
/// to the programs that ran and compared with PIRScope's CPU run (or with LOG2). Prints the counts, the first
/// divergent record and the ten worst (text or JSON); 0 when nothing diverges, 1 when a record does, when
/// nothing matched or when a log cannot be read. `referee`: the first divergent record's op recomputed in
/// float64 (RunLogReferee) says which side is closer.
int verifyPaddleLog(const RunSource &source, const ps::DebugSources &sources, const std::string &logPath,
    const std::string &againstPath, ps::RunLogComparison::Tolerance tolerance, bool referee, bool json);
