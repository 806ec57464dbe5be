#include "ui/pipelinesnapshot.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/programdocument.h"

#include <QCoreApplication>
#include <QElapsedTimer>

namespace ps {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ps::PipelineSnapshot", text);
}

bool hasComputeOps(const Program &program)
{
    for (const Operation *op : program.block().ops())
        if (!ops::isShadowOutput(*op))
            return true;
    return false;
}

QString noticeFor(const PipelineSource &source, const PipelineSnapshot &s)
{
    if (!s.ok()) {
        const QString why = s.diagnostics.isEmpty() ? tr("unknown error") : s.diagnostics.first();
        return s.training ? tr("The train program could not be built: %1").arg(why)
                          : tr("The infer program could not be built: %1").arg(why);
    }
    if (!s.training)
        return source.roles.trainLayout
            ? tr("This program holds its backward already: infer mode treats the whole program as the "
                 "forward.")
            : tr("Infer mode: the forward program alone, no backward. Switch to Train to append the "
                 "backward and see what crosses.");
    if (hasComputeOps(*s.result.backward))
        return QString();
    const ProgramRoles &roles = source.roles;
    // No translations ship, so English plurals are spelled here.
    auto count = [](size_t n, const char *one, const char *many) {
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    if (!roles.hasDifferentiable())
        return tr("Nothing to differentiate: the %1 and %2 are all stop_gradient, so the backward "
                  "program is empty. paddle.jit.save writes inference programs this way; a trace "
                  "bundle or a print of the program being trained has the gradients.")
            .arg(count(roles.inputValues().size(), "input", "inputs"),
                count(roles.parameters.size(), "parameter", "parameters"));
    const size_t outputs = roles.outputValues().size();
    if (outputs == 0)
        return tr("The backward program is empty: the program has no outputs (no shadow_output or "
                  "fetch op), so there is nothing to take the gradient of.");
    return tr("The backward program is empty: %1 on an input or parameter that needs a gradient "
              "(every path goes through stop_gradient or integer values).")
        .arg(outputs == 1 ? tr("its output does not depend")
                          : tr("none of its %1 outputs depends").arg(outputs));
}

} // namespace

std::shared_ptr<const PipelineSnapshot> PipelineSnapshot::compute(
    const PipelineSource &source, bool training, const PassSwitches &passes)
{
    QElapsedTimer timer;
    timer.start();
    auto s = std::make_shared<PipelineSnapshot>();
    s->training = training;
    s->result = source.buildPipeline(training, passes, &s->passes);
    for (const std::string &d : s->result.diagnostics)
        s->diagnostics << QString::fromStdString(d);
    if (s->result.ok()) {
        const QString title = QString::fromStdString(source.title);
        const Block &forward = s->result.forward->block();
        const Block &backward = s->result.backward->block();
        for (const GradOpLink &link : s->result.splitGradOps) {
            if (link.forwardOp >= forward.size())
                continue;
            const Operation *f = forward.op(link.forwardOp);
            for (size_t g : link.gradOps) {
                if (g >= backward.size())
                    continue;
                s->gradOpsOf[f].push_back(backward.op(g));
                s->forwardOpOf[backward.op(g)] = f;
            }
        }
        s->forward = std::make_shared<ProgramDocument>(
            s->result.forward, tr("%1 \u2014 forward").arg(title), LoadResult::Format::Unknown);
        // The backward's grad ops carry no struct_name: they are grouped under their forward
        // op's layer, so that both halves show the same layers.
        GraphBuilderOptions backwardGraph;
        backwardGraph.grouping.forwardOpOf = &s->forwardOpOf;
        s->backward = std::make_shared<ProgramDocument>(s->result.backward,
            tr("%1 \u2014 backward").arg(title), LoadResult::Format::Unknown, 0, backwardGraph);
        s->cut = ForwardBackwardCut::of(s->result);
        s->keptBytes = ForwardBackwardCut::keptBytes(s->cut, &s->dynamicValues);
        s->memory = std::make_shared<const MemoryReport>(
            s->result.training ? MemoryModel::train(s->result) : MemoryModel::infer(*s->result.forward));
    }
    s->notice = noticeFor(source, *s);
    s->seconds = timer.nsecsElapsed() / 1e9;
    return s;
}

} // namespace ps
