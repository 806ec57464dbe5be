#include "runlogverify.h"

#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/io/paddlerunlog.h"
#include "core/ir/operation.h"
#include "core/session/runlogcheck.h"
#include "core/session/runlogreferee.h"
#include "runsource.h"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace {

struct Printed
{
    const ps::PaddleRunLog &log;
    const ps::PaddleRunLog *against;
    const ps::RunLogCheck &check;
    bool refereed = false; ///< --referee f64 was asked for
    std::optional<ps::RunLogVerdict> verdict;
    std::string refereeProblem;
};

const char *howText(ps::RunLogMatch::How how)
{
    switch (how) {
    case ps::RunLogMatch::How::Name:
        return "name";
    case ps::RunLogMatch::How::InnerIndex:
        return "inner_index";
    case ps::RunLogMatch::How::Position:
        return "position";
    case ps::RunLogMatch::How::None:
        break;
    }
    return "none";
}

void writeDifferenceJson(ps::JsonEmitter &json, const Printed &p, const ps::RunLogDifference &d)
{
    const ps::PaddleRunLogRecord &r = p.log.records[d.record];
    const ps::RunLogMatch &m = p.check.report.match.matches[d.record];
    json.beginObject();
    json.key("file").value(p.log.files[r.file]->path());
    json.key("line").value(int64_t(r.line));
    json.key("kernel").value(r.op);
    json.key("tensor").value(r.tensor);
    json.key("op").value(p.check.matcher->opLabel(m));
    json.key("op_name").value(m.op ? m.op->name() : std::string_view());
    json.key("value").value(p.check.matcher->valueLabel(m));
    json.key("matched_by").value(howText(m.how));
    json.key("stat").value(d.stat);
    json.key("paddle").value(d.paddle);
    json.key(p.against ? "against" : "pirscope").value(d.other);
    if (d.otherRecord)
        json.key("against_line").value(int64_t(p.against->records[*d.otherRecord].line));
    json.key("error").value(d.error);
    json.endObject();
}

void printJson(const Printed &p, const std::string &path)
{
    const ps::RunLogReport &report = p.check.report;
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject();
    json.key("file").value(path);
    json.key("paddle_log").beginObject();
    json.key("path").value(p.log.path);
    if (p.against)
        json.key("against").value(p.against->path);
    json.key("records").value(uint64_t(report.records));
    json.key("matched").value(uint64_t(report.match.matched));
    json.key("compared").value(uint64_t(report.compared));
    json.key("not_computed").value(uint64_t(report.notComputed));
    json.key("divergent").value(uint64_t(report.divergent));
    json.key("matched_by").beginObject();
    json.key("name").value(uint64_t(report.match.byName));
    json.key("inner_index").value(uint64_t(report.match.byInnerIndex));
    json.key("position").value(uint64_t(report.match.byPosition));
    json.endObject();
    json.key("unmatched").beginArray();
    for (const auto &[reason, u] : report.match.unmatchedReasons) {
        json.beginObject().key("reason").value(reason).key("count").value(uint64_t(u.count));
        json.key("first_line").value(int64_t(p.log.records[u.firstRecord].line)).endObject();
    }
    json.endArray();
    json.key("unreadable_lines").value(uint64_t(p.log.diagnostics.size()));
    if (!p.check.runProblem.empty())
        json.key("run_problem").value(p.check.runProblem);
    json.key("first_nan_inf");
    if (report.firstNanInf) {
        const ps::PaddleRunLogRecord &r = p.log.records[*report.firstNanInf];
        const ps::RunLogMatch &m = report.match.matches[*report.firstNanInf];
        json.beginObject()
            .key("line")
            .value(int64_t(r.line))
            .key("kernel")
            .value(r.op)
            .key("tensor")
            .value(r.tensor);
        json.key("op").value(p.check.matcher->opLabel(m)).key("value").value(p.check.matcher->valueLabel(m));
        json.key("num_nan").value(r.stats.numNan).key("num_inf").value(r.stats.numInf).endObject();
    } else {
        json.null();
    }
    json.key("first_divergent");
    if (report.firstDivergent)
        writeDifferenceJson(json, p, *report.firstDivergent);
    else
        json.null();
    json.key("worst").beginArray();
    for (const ps::RunLogDifference &d : report.worst)
        writeDifferenceJson(json, p, d);
    json.endArray();
    if (p.refereed) {
        json.key("referee");
        if (p.verdict) {
            json.beginObject().key("dtype").value("float64").key("stat").value(p.verdict->stat);
            json.key("float64").value(p.verdict->f64).key("paddle").value(p.verdict->paddle);
            json.key("pirscope").value(p.verdict->pirscope).key("paddle_error").value(p.verdict->paddleError);
            json.key("pirscope_error").value(p.verdict->pirscopeError).key("closer").value(p.verdict->closer);
            json.endObject();
        } else if (!p.refereeProblem.empty()) {
            json.beginObject().key("problem").value(p.refereeProblem).endObject();
        } else {
            json.null();
        }
    }
    json.endObject();
    json.key("ok").value(!report.firstDivergent && report.match.matched > 0);
    json.endObject();
    json.finish();
}

std::string describe(const Printed &p, const ps::RunLogDifference &d)
{
    const ps::PaddleRunLogRecord &r = p.log.records[d.record];
    const ps::RunLogMatch &m = p.check.report.match.matches[d.record];
    std::ostringstream out;
    out << "line " << r.line << " " << r.op << " tensor=" << (r.tensor.empty() ? "''" : std::string(r.tensor))
        << " -> " << p.check.matcher->opLabel(m) << " " << (m.op ? m.op->name() : std::string_view()) << " "
        << p.check.matcher->valueLabel(m) << ": " << d.stat << " paddle " << std::setprecision(7) << d.paddle
        << (p.against ? " against " : " pirscope ") << d.other << " (" << std::setprecision(3) << d.error
        << "x tolerance)";
    return out.str();
}

void printText(const Printed &p)
{
    const ps::RunLogReport &report = p.check.report;
    std::cout << "paddle log " << p.log.path << ": " << report.records << " records, " << report.match.matched
              << " matched (" << report.match.byName << " by name, " << report.match.byInnerIndex
              << " by scope index, " << report.match.byPosition << " by position), " << report.compared
              << " compared with " << (p.against ? p.against->path : std::string("PIRScope's CPU run"));
    if (report.notComputed)
        std::cout << ", " << report.notComputed << " not computed";
    std::cout << "\n";
    for (const auto &[reason, u] : report.match.unmatchedReasons)
        std::cout << "  unmatched: " << u.count << " x " << reason << " (first at line "
                  << p.log.records[u.firstRecord].line << ")\n";
    if (!p.log.diagnostics.empty())
        std::cout << "  unreadable: " << p.log.diagnostics.size() << " [PRECISION] line(s), first "
                  << p.log.diagnostics.items().front().toString() << "\n";
    if (!p.check.runProblem.empty())
        std::cout << "  PIRScope's run stopped: " << p.check.runProblem << "\n";
    if (report.firstNanInf) {
        const ps::PaddleRunLogRecord &r = p.log.records[*report.firstNanInf];
        const ps::RunLogMatch &m = report.match.matches[*report.firstNanInf];
        std::cout << "first NaN/Inf in the log: line " << r.line << " " << r.op << " tensor=" << r.tensor
                  << " -> "
                  << (m.op ? p.check.matcher->opLabel(m) + " " + p.check.matcher->valueLabel(m) : "unmatched")
                  << ": " << r.stats.numNan << " NaN, " << r.stats.numInf << " Inf of " << r.stats.numel
                  << "\n";
    }
    if (report.firstDivergent)
        std::cout << "first divergent: " << describe(p, *report.firstDivergent) << "\n";
    else
        std::cout << "first divergent: none (" << report.divergent << " of " << report.compared
                  << " beyond tolerance)\n";
    if (p.verdict)
        std::cout << "referee (float64): " << p.verdict->stat << " " << std::setprecision(7) << p.verdict->f64
                  << "; paddle is " << std::setprecision(3) << p.verdict->paddleError
                  << "x tolerance from it, pirscope " << p.verdict->pirscopeError << "x: "
                  << (p.verdict->closer == "tie" ? std::string("neither is clearly closer")
                                                 : p.verdict->closer + " is closer")
                  << "\n";
    else if (!p.refereeProblem.empty())
        std::cout << "referee (float64): " << p.refereeProblem << "\n";
    if (!report.worst.empty()) {
        std::cout << "worst " << report.worst.size() << ":\n";
        for (const ps::RunLogDifference &d : report.worst)
            std::cout << "  " << describe(p, d) << "\n";
    }
    std::cout << (report.firstDivergent || report.match.matched == 0 ? "paddle log: FAILED\n"
                                                                     : "paddle log: ok\n");
}

std::shared_ptr<const ps::PaddleRunLog> openLog(const std::string &path)
{
    ps::DiagnosticList diagnostics;
    auto log = ps::PaddleRunLog::open(path, diagnostics);
    for (const ps::Diagnostic &d : diagnostics.items())
        std::cerr << d.toString() << "\n";
    if (log)
        for (size_t i = 0; i < log->diagnostics.size() && i < 5; ++i)
            std::cerr << "warning: " << log->diagnostics.items()[i].toString() << " (record skipped)\n";
    return log && !log->records.empty() ? log : nullptr;
}

} // namespace

int verifyPaddleLog(const RunSource &source, const ps::DebugSources &sources, const std::string &logPath,
    const std::string &againstPath, ps::RunLogComparison::Tolerance tolerance, bool referee, bool json)
{
    if (referee && !againstPath.empty())
        return cliError("--referee judges PIRScope's run against the log: it does not go with --against");
    const auto log = openLog(logPath);
    if (!log)
        return cliError(logPath + ": no readable [PRECISION] records");
    std::shared_ptr<const ps::PaddleRunLog> against;
    if (!againstPath.empty() && !(against = openLog(againstPath)))
        return cliError(againstPath + ": no readable [PRECISION] records");

    ps::RunLogCheck check;
    ps::ProgramRunner::Options options;
    if (against) {
        check = ps::RunLogCheck::againstLog(source.target, *log, *against, tolerance);
    } else {
        std::string error;
        std::vector<ps::InputShape> shapes;
        if (!source.runOptions(sources, options, shapes, error)
            || !ps::RunLogCheck::againstRun(source.target, options, *log, tolerance, check, error))
            return cliError(error);
    }
    Printed printed { *log, against.get(), check };
    printed.refereed = referee;
    if (referee && check.report.firstDivergent) {
        const ps::RunLogDifference &d = *check.report.firstDivergent;
        printed.verdict = ps::RunLogReferee::judge(source.target, options,
            check.report.match.matches[d.record], d, tolerance, printed.refereeProblem);
    }
    if (json)
        printJson(printed, source.path);
    else
        printText(printed);
    if (check.report.match.matched == 0 && !json)
        std::cerr << "error: no record of " << logPath
                  << " matches an op of this program: is it a log of another program?\n";
    return check.report.firstDivergent || check.report.match.matched == 0 ? 1 : 0;
}
