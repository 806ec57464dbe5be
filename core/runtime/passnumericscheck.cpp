#include "core/runtime/passnumericscheck.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/interpreterobserver.h"
#include "core/runtime/parameterstore.h"
#include "core/runtime/programrunner.h"
#include "core/runtime/scaledcomparison.h"
#include "core/runtime/tensorcomparison.h"
#include "core/transform/deadcodeelimination.h"
#include "core/transform/pass.h"
#include "core/transform/passrecord.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ps {

namespace {

/// Copies each op's tensor results as the op produces them (later inplace ops may overwrite the
/// buffer; a loop body keeps its last iteration's values).
class ValueRecorder : public InterpreterObserver
{
public:
    ValueRecorder(
        Interpreter &interpreter, Backend &backend, std::unordered_map<const ValueImpl *, Tensor> &values)
        : m_interpreter(interpreter)
        , m_backend(backend)
        , m_values(values)
    {
    }
    void opExecuted(const OpRecord &record) override
    {
        const Operation *op = record.op;
        if (!op || DeadCodeElimination::hasSideEffect(*op) || op->name() == "pd_op.empty"
            || op->name() == "pd_op.empty_like")
            return;
        for (Value r : op->results()) {
            const RuntimeValue *v = m_interpreter.valueOf(r);
            if (v && v->isTensor() && v->tensor().defined())
                m_values[r.impl()] = deepHostCopy(m_backend, v->tensor());
        }
    }

private:
    Interpreter &m_interpreter;
    Backend &m_backend;
    std::unordered_map<const ValueImpl *, Tensor> &m_values;
};

bool hasLowPrecision(const Program &program, bool &bfloat16)
{
    bool low = false;
    bfloat16 = false;
    program.block().walk([&](Operation *op) {
        for (Value r : op->results()) {
            if (!r.type() || r.type().kind() != Type::Kind::DenseTensor)
                continue;
            const DataType t = r.type().dtype();
            low = low || t == DataType::Float16 || t == DataType::BFloat16;
            bfloat16 = bfloat16 || t == DataType::BFloat16;
        }
    });
    return low;
}

/// Values compare when both are host tensors of the same element count (dtypes may differ: a
/// float16 value after AMP against its float32 value before).
bool comparable(const Tensor &a, const Tensor &b)
{
    return a.defined() && b.defined() && a.shape() == b.shape();
}

bool isChannelsLast(Value v)
{
    return v.type().kind() == Type::Kind::DenseTensor && v.type().layout() == "NHWC"
        && v.type().dims().size() == 4;
}

/// A host copy of the NHWC tensor `t` in NCHW order.
Tensor toChannelsFirst(const Tensor &t)
{
    const std::vector<int64_t> &s = t.shape();
    Tensor out = Tensor::empty({ s[0], s[3], s[1], s[2] }, t.dtype());
    const size_t e = t.elementSize();
    const auto *src = static_cast<const unsigned char *>(t.rawData());
    auto *dst = static_cast<unsigned char *>(out.rawData());
    for (int64_t n = 0; n < s[0]; ++n)
        for (int64_t h = 0; h < s[1]; ++h)
            for (int64_t w = 0; w < s[2]; ++w)
                for (int64_t c = 0; c < s[3]; ++c)
                    std::memcpy(dst + size_t(((n * s[3] + c) * s[1] + h) * s[2] + w) * e,
                        src + size_t(((n * s[1] + h) * s[2] + w) * s[3] + c) * e, e);
    return out;
}

} // namespace

PassNumericsCheck::PassNumericsCheck(
    Backend &backend, std::shared_ptr<ParameterStore> params, Options options)
    : m_backend(backend)
    , m_params(std::move(params))
    , m_options(std::move(options))
{
}

PassNumericsCheck::~PassNumericsCheck() = default;

PassNumericsCheck::Run PassNumericsCheck::execute(const Program &program)
{
    Run run;
    // The live program, not owned: it is only read during this call.
    std::shared_ptr<const Program> view(&program, [](const Program *) {});
    ProgramRunner runner(view, m_backend);
    ProgramRunner::Options options;
    options.inputs = m_options.inputs;
    options.params = m_params->source();
    options.dynamicDim = m_options.dynamicDim;
    options.interpreter.synchronizeEachOp = false;
    if (!runner.prepare(options, run.error))
        return run;
    ValueRecorder recorder(runner.interpreter(), m_backend, run.values);
    runner.interpreter().addObserver(&recorder);
    const StopInfo stop = runner.run();
    runner.interpreter().removeObserver(&recorder);
    if (stop.reason != StopReason::Finished) {
        run.error = runner.interpreter().error() ? runner.interpreter().error()->toString() : stop.message;
        return run;
    }
    for (ProgramRunner::NamedTensor &t : runner.outputs())
        run.outputs.emplace_back(t.name, std::move(t.tensor));
    program.block().walk([&run](Operation *op) {
        for (Value r : op->results())
            if (isChannelsLast(r))
                run.channelsLast.insert(r.impl());
    });
    run.ok = true;
    return run;
}

void PassNumericsCheck::runBeforePipeline(const Program &program, std::string_view)
{
    m_current = execute(program);
    m_baselineError = m_current.ok ? std::string() : m_current.error;
}

void PassNumericsCheck::runAfterPass(const Pass &pass, const Program &program, const PassRecord &record)
{
    PassNumerics n;
    n.pass = record.pass;
    n.target = record.target;
    bool bfloat16 = false;
    const bool low = hasLowPrecision(program, bfloat16);
    n.lowPrecision = pass.name() == "auto_mixed_precision_pass";
    n.rtol = !low ? m_options.rtol : bfloat16 ? m_options.bfloat16Rtol : m_options.lowPrecisionRtol;
    n.atol = low ? m_options.lowPrecisionAtol : m_options.atol;
    if (!record.implemented) {
        n.skipped = "not implemented in PIRScope";
        m_results.push_back(std::move(n));
        return;
    }
    if (!m_current.ok) {
        n.skipped = "the program before the pass did not run: " + m_current.error;
        m_current = execute(program); // the next pass may have a runnable program to start from
        m_results.push_back(std::move(n));
        return;
    }
    if (!record.changed()) {
        n.checked = true;
        n.skipped = "unchanged";
        m_results.push_back(std::move(n));
        return;
    }
    Run after = execute(program);
    if (!after.ok) {
        n.skipped = "the program after the pass did not run: " + after.error;
        m_current = std::move(after);
        m_results.push_back(std::move(n));
        return;
    }
    n.checked = true;
    double worstExcess = -1;
    auto account = [&](const std::string &label, const Tensor &actual, const Tensor &expected, bool output) {
        ValueNumerics v;
        v.value = label;
        if (!comparable(actual, expected)) {
            v.ok = false;
            v.maxAbs = v.maxRel = INFINITY;
        } else {
            const TensorComparison c = compareToScale(actual, expected, n.rtol, n.atol);
            v.maxAbs = c.maxAbsError;
            v.maxRel = c.maxRelError;
            v.ok = c.mismatches == 0;
        }
        ++n.valuesCompared;
        n.valuesOutsideTolerance += !v.ok;
        n.maxAbs = std::max(n.maxAbs, v.maxAbs);
        n.maxRel = std::max(n.maxRel, v.maxRel);
        n.ok = n.ok && v.ok;
        // The worst value: a failing one before any passing one, then the largest absolute error.
        const double excess = (v.ok ? 0 : 1e300) + std::min(v.maxAbs, 1e299);
        if (excess > worstExcess) {
            worstExcess = excess;
            n.worstValue = label;
        }
        if (output)
            n.outputs.push_back(std::move(v));
    };
    for (const auto &[name, tensor] : after.outputs) {
        auto it = std::find_if(m_current.outputs.begin(), m_current.outputs.end(),
            [&name = name](const auto &o) { return o.first == name; });
        if (it == m_current.outputs.end())
            continue; // a new output: nothing to compare with
        account(name, tensor, it->second, true);
    }
    const ValueNumbering numbering(program);
    program.block().walk([&](Operation *op) {
        for (Value r : op->results()) {
            auto a = after.values.find(r.impl());
            auto b = m_current.values.find(r.impl());
            if (a == after.values.end() || b == m_current.values.end())
                continue;
            const bool movedToNhwc = after.channelsLast.contains(r.impl())
                && !m_current.channelsLast.contains(r.impl()) && a->second.defined() && a->second.rank() == 4;
            account(
                numbering.name(r), movedToNhwc ? toChannelsFirst(a->second) : a->second, b->second, false);
        }
    });
    m_current = std::move(after);
    m_results.push_back(std::move(n));
}

} // namespace ps
