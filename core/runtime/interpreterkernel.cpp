// Interpreter: running an op through the backend's kernel (inplace sharing, differential mode).

#include "core/dialect/opregistry.h"
#include "core/ir/operation.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/tensorcomparison.h"

#include <chrono>
#include <cstring>

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
        inputs[i] = op.operand(i).isNull() ? nullptr : &operandValue(op, i);

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
        shareInplaceOutputs(op, results);
    if (reference)
        compareWithReference(results, *reference, record);
}

void Interpreter::shareInplaceOutputs(const Operation &op, std::vector<RuntimeValue> &results)
{
    for (const OpIndexPair &pair : OpRegistry::instance().inplaceInfo(op.name())) {
        if (pair.output < 0 || size_t(pair.output) >= results.size()
            || unsigned(pair.input) >= op.numOperands() || op.operand(unsigned(pair.input)).isNull())
            continue;
        RuntimeValue &out = results[size_t(pair.output)];
        auto it = m_values.find(op.operand(unsigned(pair.input)).impl());
        if (it == m_values.end() || !out.isTensor() || !it->second.isTensor())
            continue;
        Tensor &in = it->second.tensor();
        const Tensor &result = out.tensor();
        if (!in.defined() || !result.defined() || in.storage() == result.storage()
            || in.shape() != result.shape() || in.dtype() != result.dtype() || !in.device().isCpu()
            || !result.device().isCpu())
            continue;
        std::memcpy(in.rawData(), result.rawData(), in.byteSize());
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
