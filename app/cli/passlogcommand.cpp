#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/programtextdiff.h"
#include "core/io/jsonemitter.h"
#include "core/io/numbertext.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/passlogopener.h"
#include "core/transform/passtimeline.h"

#include <iomanip>
#include <iostream>

namespace {

const char *kindName(ps::PassTimelineStep::Kind kind)
{
    switch (kind) {
    case ps::PassTimelineStep::Kind::Pass:
        return "pass";
    case ps::PassTimelineStep::Kind::Lowering:
        return "lowering";
    case ps::PassTimelineStep::Kind::Split:
        return "split";
    case ps::PassTimelineStep::Kind::Printed:
        return "printed";
    case ps::PassTimelineStep::Kind::Unlogged:
        return "unlogged";
    }
    return "pass";
}

/// Each rewrite's output op and the ops it was made from (pd_op.fc <= matmul, add, relu).
std::vector<std::pair<std::string, std::vector<std::string>>> fusions(const ps::OpDiff &d)
{
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (int32_t j : d.rewrites) {
        std::vector<std::string> from;
        for (int32_t i : d.fusedFrom[size_t(j)])
            from.emplace_back(d.before[size_t(i)]->name());
        out.emplace_back(std::string(d.after[size_t(j)]->name()), std::move(from));
    }
    return out;
}

std::string countsText(const ps::PassTimeline::Counts &c)
{
    if (c.identical())
        return "no change";
    std::string s;
    if (c.removed)
        s += "-" + std::to_string(c.removed) + " ";
    if (c.added)
        s += "+" + std::to_string(c.added) + " ";
    if (c.changed)
        s += "~" + std::to_string(c.changed) + " ";
    s.pop_back();
    return s;
}

/// A log (or dump folder) opened as a timeline of steps.
struct OpenedPassLog
{
    std::shared_ptr<const ps::PassLogIndex> index;
    std::shared_ptr<ps::PassTimeline> timeline;
    ps::DiagnosticList diagnostics;
};

/// What `passlog` lists: the steps and, unless --index-only, each step's op diff.
struct PassLogReport
{
    std::string path;
    OpenedPassLog log;
    /// Per step: its diff; null when not computed or the log lacks a program of the step.
    std::vector<std::shared_ptr<const ps::StepDiff>> diffs;
    size_t unreadable = 0; ///< diffs whose programs could not be read
};

/// Indexes the log or folder at `path` (diagnostics on stderr); nullopt with `error` set (empty
/// when already reported).
std::optional<OpenedPassLog> openPassLog(const std::string &path, std::string &error)
{
    OpenedPassLog log;
    log.index = ps::PassLogOpener::index(path, log.diagnostics);
    for (const ps::Diagnostic &d : log.diagnostics.items())
        std::cerr << d.toString() << "\n";
    if (!log.index)
        return std::nullopt;
    log.timeline = ps::PassTimeline::fromLog(log.index);
    if (log.timeline->size() == 0) {
        error = path + ": no pass steps and no program found in this log";
        return std::nullopt;
    }
    return log;
}

/// `--step N [--print diff|before|after]`: one step's unified diff or one of its programs.
int printStep(const OpenedPassLog &log, const CliArguments &cli, const std::string &stepText)
{
    const ps::PassTimeline &timeline = *log.timeline;
    std::string why;
    const std::optional<uint64_t> parsed = ps::NumberText::parseUnsigned(stepText, UINT64_MAX, why);
    if (!parsed)
        return cliError("--step takes a step number (1.." + std::to_string(timeline.size()) + ")");
    const uint64_t step = *parsed;
    if (step < 1 || step > timeline.size())
        return cliError("--step " + stepText + " is out of range: the log has "
            + std::to_string(timeline.size()) + " steps");
    const std::string what = cli.option("print").value_or("diff");
    const ps::PassTimelineStep &s = timeline.step(step - 1);
    if (what == "before" || what == "after") {
        const auto &snapshot = what == "before" ? s.before : s.after;
        if (!snapshot)
            return cliError("step " + stepText + " has no program " + what + " it in the log");
        const ps::PassLogIndex &index = *log.index;
        const int program = what == "before" ? index.steps[step - 1].before : index.steps[step - 1].after;
        std::cout << index.text(index.programs[size_t(program)]) << "\n";
        return 0;
    }
    if (what != "diff")
        return cliError("--print takes diff, before or after");
    const std::shared_ptr<const ps::StepDiff> d = timeline.diff(step - 1);
    for (const ps::Diagnostic &x : d->diagnostics.items())
        std::cerr << x.toString() << "\n";
    if (!d->error.empty())
        return cliError("step " + stepText + ": " + d->error);
    const auto lines = ps::ProgramTextDiff::build(*d->before->program, *d->after->program, d->ops);
    std::cout << "step " << step << ": " << s.pass << " (" << d->ops.summary() << ")\n";
    std::cout << ps::ProgramTextDiff::unified(lines, cli.flag("all") ? -1 : 3);
    return 0;
}

/// The listing of every step: with `withDiffs`, each step's diff (read errors on stderr).
PassLogReport passLogReport(std::string path, OpenedPassLog log, bool withDiffs)
{
    PassLogReport report { std::move(path), std::move(log), {}, 0 };
    const ps::PassTimeline &timeline = *report.log.timeline;
    report.diffs.resize(timeline.size());
    if (!withDiffs)
        return report;
    for (size_t i = 0; i < timeline.size(); ++i) {
        if (!timeline.step(i).before || !timeline.step(i).after)
            continue;
        report.diffs[i] = timeline.diff(i);
        for (const ps::Diagnostic &x : report.diffs[i]->diagnostics.items())
            if (x.severity == ps::Diagnostic::Severity::Error)
                std::cerr << x.toString() << "\n";
        report.unreadable += !report.diffs[i]->error.empty();
    }
    return report;
}

void printPassLogJson(const PassLogReport &report)
{
    const ps::PassLogIndex &index = *report.log.index;
    const ps::PassTimeline &timeline = *report.log.timeline;
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject();
    json.key("source").value(report.path);
    json.key("bytes").value(index.bytes);
    json.key("lines").value(index.lines);
    json.key("programs").value(index.programs.size());
    json.key("steps").beginArray();
    for (size_t i = 0; i < timeline.size(); ++i) {
        const ps::PassTimelineStep &s = timeline.step(i);
        const std::shared_ptr<const ps::StepDiff> &diff = report.diffs[i];
        json.beginObject();
        json.key("step").value(i + 1);
        json.key("pass").value(s.pass);
        json.key("kind").value(kindName(s.kind));
        json.key("target").value(s.target);
        json.key("depth").value(s.depth);
        json.key("line").value(s.line);
        json.key("ops_before");
        s.before ? json.value(s.before->opCount()) : json.null();
        json.key("ops_after");
        s.after ? json.value(s.after->opCount()) : json.null();
        json.key("statistics").value(s.statistics);
        json.key("seconds");
        s.seconds >= 0 ? json.value(s.seconds) : json.null();
        if (diff && diff->error.empty()) {
            const ps::OpDiff &d = diff->ops;
            json.key("kept").value(d.kept);
            json.key("changed").value(d.changed);
            json.key("removed").value(d.removed);
            json.key("added").value(d.added);
            json.key("matched_by_id").value(d.matchedByKey);
            json.key("fused").beginArray();
            for (const auto &[op, from] : fusions(d)) {
                json.beginObject().key("op").value(op).key("from").beginArray();
                for (const std::string &f : from)
                    json.value(f);
                json.endArray().endObject();
            }
            json.endArray();
        } else if (diff) {
            json.key("error").value(diff->error);
        }
        json.endObject();
    }
    json.endArray();
    json.key("diagnostics").beginArray();
    for (const ps::Diagnostic &d : report.log.diagnostics.items())
        json.value(d.toString());
    json.endArray();
    json.endObject();
    json.finish();
}

void printPassLogText(const PassLogReport &report)
{
    const ps::PassTimeline &timeline = *report.log.timeline;
    std::cout << report.path << ": " << report.log.index->programs.size() << " programs, " << timeline.size()
              << " steps, " << report.log.index->bytes << " bytes\n";
    for (size_t i = 0; i < timeline.size(); ++i) {
        const ps::PassTimelineStep &s = timeline.step(i);
        const std::shared_ptr<const ps::StepDiff> &diff = report.diffs[i];
        std::cout << std::setw(4) << i + 1 << "  " << std::string(size_t(s.depth) * 2, ' ')
                  << (s.kind == ps::PassTimelineStep::Kind::Unlogged ? "(unlogged) " : "") << s.pass;
        if (s.kind == ps::PassTimelineStep::Kind::Split)
            std::cout << " -> " << s.target;
        std::cout << "  [" << (s.before ? std::to_string(s.before->opCount()) : "?") << " -> "
                  << (s.after ? std::to_string(s.after->opCount()) : "?") << " ops]";
        if (diff && diff->error.empty())
            std::cout << "  "
                      << countsText(
                             { diff->ops.kept, diff->ops.changed, diff->ops.removed, diff->ops.added });
        else if (diff)
            std::cout << "  (" << diff->error << ")";
        if (!s.statistics.empty())
            std::cout << "  detected [" << s.statistics << "]";
        std::cout << "\n";
        if (diff && diff->error.empty())
            for (const auto &[op, from] : fusions(diff->ops)) {
                std::cout << "        " << op << " <=";
                for (const std::string &f : from)
                    std::cout << " " << f;
                std::cout << "\n";
            }
    }
}

} // namespace

int runPassLog(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json", "index-only", "all" }, { "step", "print" }, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli passlog LOG|DIR [--json] [--index-only] [--step N [--print "
                        "diff|before|after] [--all]]");
    const std::string path = cli.positional()[0];
    std::optional<OpenedPassLog> log = openPassLog(path, error);
    if (!log)
        return error.empty() ? 1 : cliError(error);
    if (const auto stepText = cli.option("step"))
        return printStep(*log, cli, *stepText);
    const PassLogReport report = passLogReport(path, std::move(*log), !cli.flag("index-only"));
    if (cli.flag("json"))
        printPassLogJson(report);
    else
        printPassLogText(report);
    return report.unreadable ? 1 : 0;
}
