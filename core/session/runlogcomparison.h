#pragma once

#include "core/io/paddlerunlog.h"
#include "core/session/runlogmatcher.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps {

class PaddleRunLog;
struct PaddleRunLogRecord;
struct TensorStats;
class ValueImpl;

/// A tensor's statistics as a run log prints them (TensorStats: finite max/min/mean).
RunLogStats runLogStatsOf(const TensorStats &stats);

/// How far one record is from the other side (PIRScope's run, or a second log).
struct RunLogDifference
{
    size_t record = 0; ///< index into the log's records
    std::string stat; ///< the statistic that differs most: "mean", "max", "min", "numel", "num_nan", ...
    double paddle = 0; ///< the log's value
    double other = 0; ///< PIRScope's (or the second log's) value
    /// |paddle - other| / (atol + rtol * scale), scale = the larger |max|/|min| of the two
    /// tensors (a mean is only as exact as its elements' magnitude); above 1: beyond tolerance.
    /// Counts (numel, NaN, Inf) that differ are 1e9. Zero counts are not compared: elements that
    /// cancel to about 0 (a layer-norm gradient) are exactly 0 on one side and 1e-9 on the other.
    double error = 0;
    std::optional<size_t> otherRecord; ///< the second log's record (log against log)
};

/// A run log compared record by record with PIRScope's run of the same program, or with another
/// log of it.
struct RunLogReport
{
    size_t records = 0;
    RunLogMatcher::Result match;
    size_t compared = 0; ///< matched records whose value the other side has
    size_t notComputed = 0; ///< matched records whose value the other side lacks
    size_t divergent = 0;
    std::optional<RunLogDifference> firstDivergent; ///< in log order
    /// The first record of the log that holds NaN or Inf (`[PRECISION] [ERROR]`), matched or not.
    std::optional<size_t> firstNanInf;
    std::vector<RunLogDifference> worst; ///< the ten largest errors, largest first
    /// Every compared record's difference (error 0 when it agrees exactly), in log order: the
    /// GUI's table and graph colours show all of them.
    std::vector<RunLogDifference> differences;
};

/// Compares a matched run log's statistics with the other side's, with verify's tolerances.
class RunLogComparison
{
public:
    struct Tolerance
    {
        double rtol = 1e-4;
        double atol = 1e-5;
    };

    /// Against PIRScope's own run: `stats` holds the statistics of the values it computed
    /// (ValueStatsRecorder).
    static RunLogReport againstRun(const PaddleRunLog &log, RunLogMatcher::Result match,
        const std::unordered_map<const ValueImpl *, TensorStats> &stats, Tolerance tolerance);
    /// Against a second log of the same program: a record compares with the other log's last
    /// record of the same op result.
    static RunLogReport againstLog(const PaddleRunLog &log, RunLogMatcher::Result match,
        const PaddleRunLog &other, const RunLogMatcher::Result &otherMatch, Tolerance tolerance);
    /// The largest difference of `other` from `paddle` (error 0, stat "" when they agree exactly).
    static RunLogDifference difference(
        const RunLogStats &paddle, const RunLogStats &other, Tolerance tolerance);

    static constexpr size_t kWorst = 10;
};

} // namespace ps
