#include "core/session/runlogcheck.h"

#include "core/io/paddlerunlog.h"
#include "core/runtime/backend.h"
#include "core/runtime/interpreter.h"
#include "core/session/debugtarget.h"
#include "core/session/valuestatsrecorder.h"

#include <unordered_set>

namespace ps {

std::unique_ptr<RunLogMatcher> RunLogCheck::matcherFor(const DebugTarget &target)
{
    std::vector<RunLogMatcher::Input> inputs;
    for (const Program *program : target.programs())
        inputs.push_back({ inputs.empty() ? "fwd" : "bwd", program });
    return std::make_unique<RunLogMatcher>(std::move(inputs));
}

bool RunLogCheck::againstRun(const DebugTarget &target, const ProgramRunner::Options &options,
    const PaddleRunLog &log, RunLogComparison::Tolerance tolerance, RunLogCheck &out, std::string &error)
{
    out.matcher = matcherFor(target);
    RunLogMatcher::Result match = out.matcher->match(log);
    std::unordered_set<const ValueImpl *> wanted;
    for (const RunLogMatch &m : match.matches)
        if (m.how != RunLogMatch::How::None)
            wanted.insert(m.value.impl());

    auto cpu = createCpuBackend();
    auto runner = target.makeRunner(*cpu);
    if (!runner->prepare(options, error))
        return false;
    ValueStatsRecorder recorder(runner->interpreter(), *cpu, std::move(wanted));
    runner->interpreter().addObserver(&recorder);
    const StopInfo stop = runner->run();
    runner->interpreter().removeObserver(&recorder);
    if (stop.reason == StopReason::Error)
        out.runProblem = runner->interpreter().error()->toString();
    else if (stop.reason != StopReason::Finished)
        out.runProblem = std::string(stopReasonText(stop.reason)) + ": " + stop.message;
    out.report = RunLogComparison::againstRun(log, std::move(match), recorder.stats(), tolerance);
    return true;
}

RunLogCheck RunLogCheck::againstLog(const DebugTarget &target, const PaddleRunLog &log,
    const PaddleRunLog &other, RunLogComparison::Tolerance tolerance)
{
    RunLogCheck out;
    out.matcher = matcherFor(target);
    const RunLogMatcher::Result otherMatch = out.matcher->match(other);
    out.report = RunLogComparison::againstLog(log, out.matcher->match(log), other, otherMatch, tolerance);
    return out;
}

} // namespace ps
