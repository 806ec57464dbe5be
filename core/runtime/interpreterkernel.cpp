// Interpreter: running an op through the backend's kernel (inplace sharing, differential mode).

#include "core/dialect/opregistry.h"
#include "core/ir/operation.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/tensorcomparison.h"

#include <chrono>

namespace ps {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

} // namespace

void Interpreter::runKernel(
    const Operation &op, KernelFn fn, std::vector<RuntimeValue> &results, OpRecord &record)
{
    std::vector<const RuntimeValue *> inputs(op.numOperands());
    for (unsigned i = 0; i < op.numOperands(); ++i)
        inputs[i] = op.operand(i).isNull() ? nullptr : &operandValueKeepingLayout(op, i);

    // The reference runs first, on copies: an inplace kernel may overwrite its inputs.
    std::optional<std::vector<RuntimeValue>> reference;
    if (m_reference) {
        record.compared = true;
        const KernelFn referenceFn = m_reference->kernels().find(op.name());
        if (!referenceFn) {
            record.comparison = "no reference kernel on " + m_reference->name();
        } else {
            std::vector<RuntimeValue> copies;
            copies.reserve(inputs.size());
            for (const RuntimeValue *v : inputs)
                copies.push_back(v ? deepHostCopy(m_backend, *v) : RuntimeValue());
            std::vector<const RuntimeValue *> pointers;
            for (size_t i = 0; i < copies.size(); ++i)
                pointers.push_back(inputs[i] ? &copies[i] : nullptr);
            KernelContext referenceContext(op, pointers, *m_reference);
            try {
                referenceFn(referenceContext);
                reference = referenceContext.takeOutputs();
            } catch (const std::exception &e) {
                record.comparison = std::string("the reference kernel failed: ") + e.what();
            }
        }
    }

    KernelContext context(op, std::move(inputs), m_backend);
    context.setMayKeepLayout(mayKeepLayout(op));
    context.setConvertInPlace(true); // the operands are m_values' entries (operandValue() does the same)
    if (m_options.eagerDeletion && !m_reference && m_frames.size() == 1)
        context.setOverwritableInputs([this, &op](size_t i) { return mayOverwriteOperand(op, i); });
    const auto t0 = Clock::now();
    fn(context);
    const auto t1 = Clock::now();
    if (m_options.synchronizeEachOp)
        m_backend.synchronize();
    const auto t2 = Clock::now();
    record.hostSeconds = seconds(t0, t1);
    record.deviceSeconds = m_options.synchronizeEachOp ? seconds(t0, t2) : record.hostSeconds;
    results = context.takeOutputs();
    if (!op.name().empty() && op.name().back() == '_')
        shareInplaceOutputs(op, op.name(), results);
    else if (m_options.eagerDeletion && m_segments[m_segment].runInplace.count(&op))
        shareInplaceOutputs(op, std::string(op.name()) + "_", results);
    else if (m_options.eagerDeletion && m_frames.size() == 1)
        shareInplaceOutputs(op, op.name(), results, true);
    if (reference)
        compareWithReference(results, *reference, record);
}

std::map<std::string, size_t> Interpreter::fallbackOps() const
{
    std::map<std::string, size_t> ops;
    for (const OpRecord &r : m_records)
        if (r.fallback)
            ++ops[std::string(r.op->name())];
    return ops;
}

Backend *Interpreter::fallbackBackend()
{
    if (!m_options.cpuFallback || m_backend.device().isCpu())
        return nullptr;
    if (!m_fallback)
        m_fallback = createCpuBackend();
    return m_fallback.get();
}

void Interpreter::runFallback(
    const Operation &op, KernelFn fn, std::vector<RuntimeValue> &results, OpRecord &record)
{
    Backend &cpu = *fallbackBackend();
    record.fallback = true;
    if (m_reference) {
        record.compared = true;
        record.comparison = "ran on " + cpu.name() + " (no " + m_backend.name() + " kernel)";
    }
    const auto t0 = Clock::now();
    // Host copies that never share storage with the device values: an inplace CPU kernel then
    // writes into its copy, and shareInplaceOutputs() puts the result back into the device input.
    std::vector<RuntimeValue> copies(op.numOperands());
    std::vector<const RuntimeValue *> inputs(op.numOperands());
    for (unsigned i = 0; i < op.numOperands(); ++i) {
        if (op.operand(i).isNull())
            continue;
        copies[i] = deepHostCopy(m_backend, operandValue(op, i));
        inputs[i] = &copies[i];
    }
    KernelContext context(op, std::move(inputs), cpu);
    fn(context);
    results = context.takeOutputs();
    for (RuntimeValue &r : results) {
        if (r.isTensor() && r.tensor().defined())
            r = RuntimeValue(m_backend.toDevice(r.tensor()));
        else if (r.isList())
            for (Tensor &t : r.list())
                if (t.defined())
                    t = m_backend.toDevice(t);
    }
    if (!op.name().empty() && op.name().back() == '_')
        shareInplaceOutputs(op, op.name(), results);
    else if (m_options.eagerDeletion && m_segments[m_segment].runInplace.count(&op))
        shareInplaceOutputs(op, std::string(op.name()) + "_", results);
    else if (m_options.eagerDeletion && m_frames.size() == 1)
        shareInplaceOutputs(op, op.name(), results, true);
    if (m_options.synchronizeEachOp)
        m_backend.synchronize();
    record.hostSeconds = record.deviceSeconds = seconds(t0, Clock::now());
}

void Interpreter::shareInplaceOutputs(
    const Operation &op, std::string_view inplaceName, std::vector<RuntimeValue> &results, bool onlyDying)
{
    for (const OpIndexPair &pair : OpRegistry::instance().inplaceInfo(inplaceName)) {
        if (pair.output < 0 || size_t(pair.output) >= results.size()
            || unsigned(pair.input) >= op.numOperands() || op.operand(unsigned(pair.input)).isNull())
            continue;
        if (onlyDying && !diesAt(op, op.operand(unsigned(pair.input))))
            continue;
        RuntimeValue &out = results[size_t(pair.output)];
        auto it = m_values.find(op.operand(unsigned(pair.input)).impl());
        if (it == m_values.end() || !out.isTensor() || !it->second.isTensor())
            continue;
        const Tensor &result = out.tensor();
        const Tensor &input = it->second.tensor();
        if (!input.defined() || !result.defined() || input.hasLayout() || result.hasLayout()
            || input.storage() == result.storage() || input.numElements() != result.numElements()
            || input.dtype() != result.dtype())
            continue;
        // reshape_grad and the like give the buffer to a result of another shape: a view of it.
        Tensor in = input.shape() == result.shape() ? input : input.reshaped(result.shape());
        // The input's storage takes the result (on the device too), so every alias of it sees
        // the inplace write as in Paddle. A device result is not written into a host input.
        if (in.device() != result.device() && !(result.device().isCpu() && in.device() == m_backend.device()))
            continue;
        if (in.device().isCpu())
            m_backend.Backend::copy(result, in);
        else
            m_backend.copy(result, in);
        out = RuntimeValue(in);
    }
}

void Interpreter::compareWithReference(
    const std::vector<RuntimeValue> &results, const std::vector<RuntimeValue> &reference, OpRecord &record)
{
    auto compare = [&](const Tensor &actual, const Tensor &expected, const std::string &what) {
        if (actual.defined() != expected.defined()) {
            record.diverged = true;
            record.comparison = what + ": defined on one backend only";
            return;
        }
        if (!actual.defined())
            return;
        const TensorComparison c
            = TensorComparison::compare(m_backend.toHost(actual), expected, m_options.rtol, m_options.atol);
        record.maxAbsDiff = std::max(record.maxAbsDiff, c.maxAbsError);
        record.maxRelDiff = std::max(record.maxRelDiff, c.maxRelError);
        if (!c.ok() && !record.diverged) {
            record.diverged = true;
            record.comparison = what + ": " + c.summary();
        }
    };
    for (size_t i = 0; i < results.size() && i < reference.size(); ++i) {
        const std::string what = "result " + std::to_string(i);
        const RuntimeValue &a = results[i];
        const RuntimeValue &e = reference[i];
        if (a.isTensor() && e.isTensor()) {
            compare(a.tensor(), e.tensor(), what);
        } else if (a.isList() && e.isList() && a.list().size() == e.list().size()) {
            for (size_t k = 0; k < a.list().size(); ++k)
                compare(a.list()[k], e.list()[k], what + "[" + std::to_string(k) + "]");
        } else if (a.isNull() != e.isNull() || a.isTensor() != e.isTensor()) {
            record.diverged = true;
            record.comparison = what + ": different kinds of value";
        }
    }
}

} // namespace ps
