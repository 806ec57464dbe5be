#include "core/session/runlogreferee.h"

#include "core/ir/datatypekind.h"
#include "core/ir/operation.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/tensorstats.h"
#include "core/session/debugtarget.h"

#include <cmath>

namespace ps {

namespace {

bool isFloating(DataType t)
{
    return t == DataType::Float32 || t == DataType::Float16 || t == DataType::BFloat16
        || t == DataType::Float64;
}

Tensor widened(const Tensor &t)
{
    if (!t.defined() || !isFloating(t.dtype()) || t.dtype() == DataType::Float64)
        return t;
    const std::vector<double> values = t.toDoubles();
    return Tensor::fromDoubles(t.shape(), DataType::Float64, values);
}

RuntimeValue widened(const RuntimeValue &v)
{
    if (v.isTensor())
        return RuntimeValue(widened(v.tensor()));
    if (v.isList()) {
        std::vector<Tensor> list;
        for (const Tensor &t : v.list())
            list.push_back(widened(t));
        return RuntimeValue(std::move(list));
    }
    return v;
}

double statOf(const RunLogStats &s, const std::string &stat)
{
    return stat == "max" ? s.max : stat == "min" ? s.min : s.mean;
}

} // namespace

std::optional<RunLogVerdict> RunLogReferee::judge(const DebugTarget &target,
    const ProgramRunner::Options &options, const RunLogMatch &match, const RunLogDifference &difference,
    RunLogComparison::Tolerance tolerance, std::string &problem)
{
    if (difference.stat != "max" && difference.stat != "min" && difference.stat != "mean") {
        problem
            = "the record differs in `" + difference.stat + "`, a count a float64 recomputation cannot judge";
        return std::nullopt;
    }
    const Operation &op = *match.op;
    auto cpu = createCpuBackend();
    if (!cpu->kernels().find(op.name())) {
        problem = "no CPU kernel of its own for " + std::string(op.name()) + " to recompute in float64";
        return std::nullopt;
    }
    auto runner = target.makeRunner(*cpu);
    if (!runner->prepare(options, problem))
        return std::nullopt;
    const ProgramPosition at = ProgramPosition::of(&op, size_t(match.program));
    const StopInfo stop = runner->interpreter().runToCursor(at);
    if (stop.reason != StopReason::Cursor) {
        problem = "the run did not reach " + at.toString() + " (" + stopReasonText(stop.reason) + ")";
        return std::nullopt;
    }
    std::vector<RuntimeValue> operands;
    operands.reserve(op.numOperands());
    for (unsigned i = 0; i < op.numOperands(); ++i) {
        const RuntimeValue *v = op.operand(i) ? runner->interpreter().valueOf(op.operand(i)) : nullptr;
        operands.push_back(v ? widened(deepHostCopy(*cpu, *v)) : RuntimeValue());
    }
    std::string error;
    const std::optional<std::vector<RuntimeValue>> results
        = KernelContext::runAlone(op, operands, *cpu, error);
    if (!results) {
        problem = "in float64: " + error;
        return std::nullopt;
    }
    const size_t result = match.value.index();
    if (result >= results->size() || !(*results)[result].isTensor()) {
        problem = std::string(op.name()) + " in float64 gave no tensor for result " + std::to_string(result);
        return std::nullopt;
    }
    const Tensor &out = (*results)[result].tensor();
    if (out.dtype() != DataType::Float64) {
        problem = "the CPU kernel of " + std::string(op.name()) + " computes "
            + std::string(phiName(out.dtype())) + " from float64 operands: no float64 referee for it";
        return std::nullopt;
    }
    const RunLogStats f64 = runLogStatsOf(computeStatsHost(out, 0));
    RunLogVerdict v;
    v.stat = difference.stat;
    v.f64 = statOf(f64, v.stat);
    v.paddle = difference.paddle;
    v.pirscope = difference.other;
    const double scale = std::max(std::fabs(f64.max), std::fabs(f64.min));
    const double allowed = tolerance.atol + tolerance.rtol * scale;
    v.paddleError = std::fabs(v.paddle - v.f64) / allowed;
    v.pirscopeError = std::fabs(v.pirscope - v.f64) / allowed;
    v.closer = v.pirscopeError * 2 < v.paddleError ? "pirscope"
        : v.paddleError * 2 < v.pirscopeError      ? "paddle"
                                                   : "tie";
    return v;
}

} // namespace ps
