#include "ui/intermediatesresult.h"

#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/debugsources.h"
#include "core/transform/pipelineresult.h"
#include "ui/debugger/qtimagedecoder.h"
#include "ui/runlogresult.h"

#include <QElapsedTimer>
#include <QObject>
#include <algorithm>

namespace ps {

namespace {

/// The op shown for Paddle's value of op `opIndex` of its train/infer program.
const Operation *shownOpOf(
    const DebugTarget &target, const TraceBundle &bundle, const IntermediateDifference &d)
{
    if (const PipelineResult *p = target.pipeline.get()) {
        if (d.opIndex >= p->wholeToSplit.size() || p->wholeToSplit[d.opIndex].segment < 0)
            return nullptr;
        const SplitOpIndex &at = p->wholeToSplit[d.opIndex];
        const Program *program = at.segment == 0 ? p->forward.get() : p->backward.get();
        return program && at.index < program->block().size() ? program->block().op(at.index) : nullptr;
    }
    if (!target.program)
        return nullptr;
    // The origin program is the forward part of Paddle's train program (the same op indices), or
    // Paddle's infer program itself.
    const Block &top = target.program->block();
    const auto forward = bundle.forwardRange();
    const bool sameIndices = bundle.intermediatesProgram() == "infer_program"
        || (forward && forward->begin == 0 && d.opIndex < forward->end);
    if (!sameIndices || d.opIndex >= top.size() || top.op(d.opIndex)->name() != d.opName)
        return nullptr;
    return top.op(d.opIndex);
}

} // namespace

bool IntermediatesResult::available(const DebugTarget &target)
{
    return target.bundle && !target.bundle->intermediates().empty() && target.valid();
}

QString IntermediatesResult::opLabel(size_t i) const
{
    const IntermediateDifference &d = differenceAt(i);
    if (!d.splitOp.empty())
        return QString::fromStdString(d.splitOp);
    return QObject::tr("op %1").arg(d.opIndex);
}

long IntermediatesResult::firstDivergentIndex() const
{
    if (!report)
        return -1;
    for (size_t i = 0; i < report->differences.size(); ++i) {
        const IntermediateDifference &d = report->differences[i];
        if (d.mismatches > 0 || !d.problem.empty())
            return long(i);
    }
    return -1;
}

const Operation *IntermediatesResult::firstDivergentOp() const
{
    const long i = firstDivergentIndex();
    return i >= 0 ? shownOp[size_t(i)] : nullptr;
}

OpAccuracy IntermediatesResult::opAccuracy() const
{
    OpAccuracy out;
    for (size_t i = 0; i < count(); ++i) {
        if (!shownOp[i])
            continue;
        const IntermediateDifference &d = differenceAt(i);
        const NodeMarks::Accuracy a = d.mismatches > 0 || !d.problem.empty()
            ? NodeMarks::Accuracy::Divergent
            : RunLogResult::accuracyOf(d.error);
        NodeMarks::Accuracy &shown = out[shownOp[i]];
        shown = std::max(shown, a);
    }
    return out;
}

QString IntermediatesResult::summary() const
{
    if (!report)
        return error;
    const IntermediatesReport &r = *report;
    QString line
        = QObject::tr("Paddle's intermediates (%1): %2 values \u00b7 %3 compared \u00b7 %4 divergent")
              .arg(QString::fromStdString(r.program))
              .arg(r.values)
              .arg(r.compared)
              .arg(r.divergent);
    if (r.notComputed > 0)
        line += QObject::tr(" \u00b7 %1 not computed").arg(r.notComputed);
    if (const long first = firstDivergentIndex(); first >= 0) {
        const IntermediateDifference &d = differenceAt(size_t(first));
        line += QObject::tr(" \u2014 first divergent: %1 %2 %3 ")
                    .arg(opLabel(size_t(first)), QString::fromStdString(d.opName),
                        QString::fromStdString(d.valueId));
        if (!d.problem.empty())
            line += QStringLiteral("(%1)").arg(QString::fromStdString(d.problem));
        else
            line += QObject::tr("(max abs %1, %2\u00d7 tolerance, %3)")
                        .arg(d.maxAbs, 0, 'g', 3)
                        .arg(d.error, 0, 'g', 3)
                        .arg(d.operandsAlreadyDiffered ? QObject::tr("its operands already differed")
                                                       : QObject::tr("its own error"));
    } else if (r.compared > 0) {
        line += QObject::tr(" \u2014 no divergence");
    }
    if (!r.runProblem.empty())
        line += QObject::tr(" \u2014 PIRScope's run stopped: %1").arg(QString::fromStdString(r.runProblem));
    return line;
}

std::shared_ptr<const IntermediatesResult> IntermediatesResult::compute(
    DebugTarget target, std::function<bool()> canceled)
{
    QElapsedTimer timer;
    timer.start();
    auto out = std::make_shared<IntermediatesResult>();
    out->target = std::move(target);
    if (!available(out->target)) {
        out->error
            = QObject::tr("The program shown comes from no trace bundle with Paddle's intermediates "
                          "(python3 tools/export_paddle_trace.py --write-intermediates BUNDLE adds them)");
        return out;
    }
    std::string why;
    ProgramRunner::Options options;
    auto report = std::make_shared<IntermediatesReport>();
    const DebugSources sources = DebugSources::defaultsFor(out->target);
    options.interpreter.canceled = std::move(canceled);
    if (!sources.applyTo(out->target, &QtImageDecoder::decode, options, why)
        || !IntermediatesCheck::run(
            *out->target.bundle, options, out->tolerance, false, *report, why, out->target.pipeline.get())) {
        out->error
            = QObject::tr("Cannot compare with Paddle's intermediates: %1").arg(QString::fromStdString(why));
        out->seconds = timer.nsecsElapsed() / 1e9;
        return out;
    }
    out->shownOp.reserve(report->differences.size());
    for (const IntermediateDifference &d : report->differences)
        out->shownOp.push_back(shownOpOf(out->target, *out->target.bundle, d));
    out->report = std::move(report);
    out->seconds = timer.nsecsElapsed() / 1e9;
    return out;
}

} // namespace ps
