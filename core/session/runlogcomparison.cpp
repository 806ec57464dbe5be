#include "core/session/runlogcomparison.h"

#include "core/io/paddlerunlog.h"
#include "core/runtime/tensorstats.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace ps {

namespace {

constexpr double kCountError = 1e9;

/// Fills the report's comparison fields from `otherStats(record index, match)`.
RunLogReport compareAll(const PaddleRunLog &log, RunLogMatcher::Result match,
    RunLogComparison::Tolerance tolerance,
    const std::function<std::optional<std::pair<RunLogStats, std::optional<size_t>>>(const RunLogMatch &)>
        &otherStats)
{
    RunLogReport report;
    report.records = log.records.size();
    for (size_t i = 0; i < log.records.size(); ++i) {
        if (!report.firstNanInf && (log.records[i].stats.numNan > 0 || log.records[i].stats.numInf > 0))
            report.firstNanInf = i;
        const RunLogMatch &m = match.matches[i];
        if (m.how == RunLogMatch::How::None)
            continue;
        const auto other = otherStats(m);
        if (!other) {
            ++report.notComputed;
            continue;
        }
        ++report.compared;
        RunLogDifference d = RunLogComparison::difference(log.records[i].stats, other->first, tolerance);
        d.record = i;
        d.otherRecord = other->second;
        if (d.error > 1) {
            ++report.divergent;
            if (!report.firstDivergent)
                report.firstDivergent = d;
        }
        report.differences.push_back(std::move(d));
    }
    std::vector<const RunLogDifference *> ranked;
    for (const RunLogDifference &d : report.differences)
        if (d.error > 0)
            ranked.push_back(&d);
    const size_t n = std::min(ranked.size(), RunLogComparison::kWorst);
    std::partial_sort(ranked.begin(), ranked.begin() + long(n), ranked.end(),
        [](const RunLogDifference *a, const RunLogDifference *b) {
            return a->error != b->error ? a->error > b->error : a->record < b->record;
        });
    for (size_t i = 0; i < n; ++i)
        report.worst.push_back(*ranked[i]);
    report.match = std::move(match);
    return report;
}

} // namespace

RunLogStats runLogStatsOf(const TensorStats &s)
{
    return { s.count, s.nanCount, s.posInfCount + s.negInfCount, s.zeroCount, s.max, s.min, s.mean };
}

RunLogDifference RunLogComparison::difference(const RunLogStats &p, const RunLogStats &o, Tolerance tolerance)
{
    RunLogDifference d;
    auto count = [&](const char *stat, int64_t a, int64_t b) {
        if (a != b && d.error < kCountError) {
            d.stat = stat;
            d.paddle = double(a);
            d.other = double(b);
            d.error = kCountError;
        }
    };
    count("numel", p.numel, o.numel);
    count("num_nan", p.numNan, o.numNan);
    count("num_inf", p.numInf, o.numInf);
    if (d.error > 0 || p.numNan > 0 || p.numInf > 0)
        return d; // with NaN/Inf, Paddle's max/min/mean are not comparable numbers
    const double scale = std::max({ std::fabs(p.max), std::fabs(p.min), std::fabs(o.max), std::fabs(o.min) });
    const double allowed = tolerance.atol + tolerance.rtol * scale;
    auto value = [&](const char *stat, double a, double b) {
        const double e = std::fabs(a - b) / allowed;
        if (e > d.error) {
            d.stat = stat;
            d.paddle = a;
            d.other = b;
            d.error = e;
        }
    };
    value("max", p.max, o.max);
    value("min", p.min, o.min);
    value("mean", p.mean, o.mean);
    return d;
}

RunLogReport RunLogComparison::againstRun(const PaddleRunLog &log, RunLogMatcher::Result match,
    const std::unordered_map<const ValueImpl *, TensorStats> &stats, Tolerance tolerance)
{
    return compareAll(log, std::move(match), tolerance,
        [&](const RunLogMatch &m) -> std::optional<std::pair<RunLogStats, std::optional<size_t>>> {
            auto it = stats.find(m.value.impl());
            if (it == stats.end())
                return std::nullopt;
            return std::make_pair(runLogStatsOf(it->second), std::optional<size_t>());
        });
}

RunLogReport RunLogComparison::againstLog(const PaddleRunLog &log, RunLogMatcher::Result match,
    const PaddleRunLog &other, const RunLogMatcher::Result &otherMatch, Tolerance tolerance)
{
    std::unordered_map<const ValueImpl *, size_t> last;
    for (size_t i = 0; i < otherMatch.matches.size(); ++i)
        if (otherMatch.matches[i].how != RunLogMatch::How::None)
            last[otherMatch.matches[i].value.impl()] = i;
    return compareAll(log, std::move(match), tolerance,
        [&](const RunLogMatch &m) -> std::optional<std::pair<RunLogStats, std::optional<size_t>>> {
            auto it = last.find(m.value.impl());
            if (it == last.end())
                return std::nullopt;
            return std::make_pair(other.records[it->second].stats, std::optional<size_t>(it->second));
        });
}

} // namespace ps
