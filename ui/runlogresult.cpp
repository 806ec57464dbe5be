#include "ui/runlogresult.h"

#include "core/io/paddlerunlog.h"
#include "core/ir/operation.h"
#include "core/session/debugsources.h"
#include "core/session/runlogreferee.h"
#include "ui/debugger/qtimagedecoder.h"

#include <QElapsedTimer>
#include <QObject>
#include <algorithm>

namespace ps {

size_t RunLogResult::recordCount() const
{
    return log ? log->records.size() : 0;
}

const RunLogDifference *RunLogResult::differenceAt(size_t record) const
{
    if (!check || record >= differenceOf.size() || differenceOf[record] < 0)
        return nullptr;
    return &check->report.differences[size_t(differenceOf[record])];
}

const Operation *RunLogResult::opOf(size_t record) const
{
    if (!check || record >= check->report.match.matches.size())
        return nullptr;
    return check->report.match.matches[record].op;
}

QString RunLogResult::opLabel(size_t record) const
{
    if (!opOf(record))
        return {};
    return QString::fromStdString(check->matcher->opLabel(check->report.match.matches[record]));
}

QString RunLogResult::valueLabel(size_t record) const
{
    if (!opOf(record))
        return {};
    return QString::fromStdString(check->matcher->valueLabel(check->report.match.matches[record]));
}

const Operation *RunLogResult::firstDivergentOp() const
{
    return check && check->report.firstDivergent ? opOf(check->report.firstDivergent->record) : nullptr;
}

NodeMarks::Accuracy RunLogResult::accuracyOf(double error)
{
    if (error > 1)
        return NodeMarks::Accuracy::Divergent;
    return error >= 0.1 ? NodeMarks::Accuracy::Close : NodeMarks::Accuracy::Agrees;
}

OpAccuracy RunLogResult::opAccuracy() const
{
    OpAccuracy out;
    for (size_t i = 0; i < recordCount(); ++i) {
        const Operation *op = opOf(i);
        if (!op)
            continue;
        const RunLogDifference *d = differenceAt(i);
        const NodeMarks::Accuracy a = d ? accuracyOf(d->error) : NodeMarks::Accuracy::NotCompared;
        NodeMarks::Accuracy &shown = out[op];
        shown = std::max(shown, a);
    }
    return out;
}

QString RunLogResult::summary() const
{
    if (!check)
        return error;
    const RunLogReport &r = check->report;
    QString text = QObject::tr("%1 records \u00b7 %2 matched \u00b7 %3 compared \u00b7 %4 divergent")
                       .arg(r.records)
                       .arg(r.match.matched)
                       .arg(r.compared)
                       .arg(r.divergent);
    if (r.match.matched == 0)
        return text
            + QObject::tr(
                " \u2014 no record matches an op of these programs: is it a log of another program?");
    if (r.firstDivergent) {
        const size_t i = r.firstDivergent->record;
        const PaddleRunLogRecord &rec = log->records[i];
        text += QObject::tr(" \u2014 first divergent: line %1 %2 \u2192 %3 %4 (%5 %6\u00d7 tolerance)")
                    .arg(rec.line)
                    .arg(QString::fromUtf8(rec.op.data(), qsizetype(rec.op.size())))
                    .arg(opLabel(i), valueLabel(i))
                    .arg(QString::fromStdString(r.firstDivergent->stat))
                    .arg(r.firstDivergent->error, 0, 'g', 3);
    } else {
        text += QObject::tr(" \u2014 no divergence");
    }
    if (!check->runProblem.empty())
        text += QObject::tr(" \u2014 PIRScope's run stopped: %1")
                    .arg(QString::fromStdString(check->runProblem));
    return text;
}

long RunLogResult::firstDivergentRecord() const
{
    return check && check->report.firstDivergent ? long(check->report.firstDivergent->record) : -1;
}

QString RunLogResult::referee(size_t record) const
{
    const RunLogDifference *difference = differenceAt(record);
    if (!difference || !check)
        return QObject::tr("referee: line %1 was not compared with PIRScope's run").arg(record + 1);
    const RunLogMatch &match = check->report.match.matches[record];
    const QString where = QObject::tr("referee (float64) on line %1 %2 %3")
                              .arg(log->records[record].line)
                              .arg(opLabel(record), QString::fromUtf8(match.op->name()));
    std::string why;
    ProgramRunner::Options options;
    if (!DebugSources::defaultsFor(target).applyTo(target, &QtImageDecoder::decode, options, why))
        return where + QStringLiteral(": ") + QString::fromStdString(why);
    const std::optional<RunLogVerdict> verdict
        = RunLogReferee::judge(target, options, match, *difference, tolerance, why);
    if (!verdict)
        return where + QStringLiteral(": ") + QString::fromStdString(why);
    const QString closer = verdict->closer == "pirscope" ? QObject::tr("PIRScope is closer")
        : verdict->closer == "paddle"                    ? QObject::tr("Paddle is closer")
                                                         : QObject::tr("neither is clearly closer");
    return where
        + QObject::tr(": %1 %2; Paddle is %3× tolerance from it, PIRScope %4×: %5")
              .arg(QString::fromStdString(verdict->stat))
              .arg(verdict->f64, 0, 'g', 7)
              .arg(verdict->paddleError, 0, 'g', 3)
              .arg(verdict->pirscopeError, 0, 'g', 3)
              .arg(closer);
}

std::shared_ptr<const RunLogResult> RunLogResult::compute(
    const QString &path, DebugTarget target, std::function<bool()> canceled)
{
    QElapsedTimer timer;
    timer.start();
    auto out = std::make_shared<RunLogResult>();
    out->path = path;
    out->target = std::move(target);
    const std::string p = path.toStdString();
    out->log = PaddleRunLog::open(p, out->diagnostics);
    if (out->log)
        out->diagnostics.append(out->log->diagnostics);
    if (!out->log || out->log->records.empty()) {
        const Diagnostic *first = out->diagnostics.firstError();
        out->error = QObject::tr("%1: no readable [PRECISION] records%2")
                         .arg(path,
                             first ? QStringLiteral(" (") + QString::fromStdString(first->toString())
                                     + QLatin1Char(')')
                                   : QString());
        out->seconds = timer.nsecsElapsed() / 1e9;
        return out;
    }
    std::string why;
    ProgramRunner::Options options;
    const DebugSources sources = DebugSources::defaultsFor(out->target);
    auto check = std::make_shared<RunLogCheck>();
    options.interpreter.canceled = std::move(canceled);
    if (!sources.applyTo(out->target, &QtImageDecoder::decode, options, why)
        || !RunLogCheck::againstRun(out->target, options, *out->log, out->tolerance, *check, why)) {
        out->error = QObject::tr("PIRScope cannot run the program to compare with the log: %1")
                         .arg(QString::fromStdString(why));
        out->seconds = timer.nsecsElapsed() / 1e9;
        return out;
    }
    out->differenceOf.assign(out->log->records.size(), -1);
    const std::vector<RunLogDifference> &differences = check->report.differences;
    for (size_t i = 0; i < differences.size(); ++i)
        out->differenceOf[differences[i].record] = int(i);
    out->check = std::move(check);
    out->seconds = timer.nsecsElapsed() / 1e9;
    return out;
}

} // namespace ps
