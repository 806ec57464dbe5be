// DebugEngine: reading values for the UI (watches, host copies, descriptions, CPU recomputation)
// and explaining NaN/Inf stops.

#include "core/analysis/valuenames.h"
#include "core/ir/block.h"
#include "core/ir/datatypekind.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/tensorstack.h"
#include "core/session/debugengine.h"

#include <cstdio>

namespace ps {
namespace {

const Tensor *firstTensor(const RuntimeValue *v)
{
    if (!v)
        return nullptr;
    if (v->isTensor())
        return v->tensor().defined() ? &v->tensor() : nullptr;
    if (v->isList() && !v->list().empty() && v->list().front().defined())
        return &v->list().front();
    return nullptr;
}

std::string number(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

std::string nonFiniteText(const TensorStats &s)
{
    std::string out;
    auto add = [&out](int64_t n, const char *what) {
        if (n > 0)
            out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + what;
    };
    add(s.nanCount, "NaN");
    add(s.posInfCount, "+Inf");
    add(s.negInfCount, "-Inf");
    return out;
}

} // namespace

std::string DebugEngine::label(Value value) const
{
    return m_interpreter ? m_interpreter->valueLabel(value) : std::string("%?");
}

Tensor DebugEngine::hostValue(Value value) const
{
    if (!m_interpreter || !value)
        return {};
    const Tensor *t = firstTensor(m_interpreter->valueOf(value));
    return t ? deepHostCopy(m_interpreter->backend(), *t) : Tensor();
}

std::string DebugEngine::describe(Value value) const
{
    if (!m_interpreter)
        return "no debug session";
    if (!value)
        return "<null>";
    const RuntimeValue *v = m_interpreter->valueOf(value);
    if (!v) {
        if (value.isKeywordArgument())
            if (const FreedVariable *f = m_interpreter->scope().freedInfo(value.keyword()))
                return "freed (" + std::string(freeReasonText(f->reason)) + ")";
        return "not computed";
    }
    if (v->isNull())
        return "none";
    if (v->isTensor()) {
        const Tensor &t = v->tensor();
        if (!t.defined())
            return "undefined tensor";
        return t.describe() + (t.device().isCpu() ? std::string() : " on " + t.device().name());
    }
    if (v->isList())
        return "list of " + std::to_string(v->list().size());
    return "stack of " + std::to_string(v->stack()->size());
}

Tensor DebugEngine::cpuValue(Value value, std::string &error)
{
    const Operation *op = value.definingOp();
    if (!m_interpreter || !op) {
        error = "only op results can be recomputed";
        return {};
    }
    if (Interpreter::isBuiltinOp(op->name()) || op->numRegions() > 0) {
        error = std::string(op->name()) + " is not a kernel op";
        return {};
    }
    Backend &host = cpu();
    const KernelFn fn = host.kernels().find(op->name());
    if (!fn) {
        error = "no CPU kernel for " + std::string(op->name());
        return {};
    }
    Backend &backend = m_interpreter->backend();
    std::vector<RuntimeValue> copies(op->numOperands());
    std::vector<const RuntimeValue *> inputs(op->numOperands(), nullptr);
    for (unsigned i = 0; i < op->numOperands(); ++i) {
        if (op->operand(i).isNull())
            continue;
        const RuntimeValue *v = m_interpreter->valueOf(op->operand(i));
        if (!v) {
            error = "operand " + std::to_string(i) + " (" + label(op->operand(i)) + ") has no value";
            return {};
        }
        copies[i] = deepHostCopy(backend, *v);
        inputs[i] = &copies[i];
    }
    KernelContext context(*op, std::move(inputs), host);
    try {
        fn(context);
    } catch (const std::exception &e) {
        error = std::string("the CPU kernel failed: ") + e.what();
        return {};
    }
    std::vector<RuntimeValue> outputs = context.takeOutputs();
    const Tensor *t = value.index() < outputs.size() ? firstTensor(&outputs[value.index()]) : nullptr;
    if (!t) {
        error = "the CPU kernel produced no tensor for " + label(value);
        return {};
    }
    return *t;
}

std::string DebugEngine::nanCause(const OpRecord &record) const
{
    const Operation &op = *record.op;
    Backend &backend = m_interpreter->backend();
    std::string results;
    for (unsigned i = 0; i < op.numResults(); ++i) {
        const Tensor *t = firstTensor(m_interpreter->valueOf(op.result(i)));
        if (!t || !isFloatingPoint(t->dtype()))
            continue;
        const TensorStats s = backend.stats(*t, 0);
        if (!s.allFinite())
            results += (results.empty() ? "" : "; ") + label(op.result(i)) + " has " + nonFiniteText(s);
    }
    std::string finite;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
        const Value operand = op.operand(i);
        const Tensor *t = operand ? firstTensor(m_interpreter->valueOf(operand)) : nullptr;
        if (!t || !isFloatingPoint(t->dtype()))
            continue;
        const TensorStats s = backend.stats(*t, 0);
        if (!s.allFinite())
            return results + ". Cause: operand " + std::to_string(i) + " " + label(operand)
                + " already holds " + nonFiniteText(s) + " (an earlier op produced it)";
        finite += (finite.empty() ? "" : ", ") + label(operand) + " in [" + number(s.min) + ", "
            + number(s.max) + "]";
    }
    return results + ". Cause: " + std::string(op.name()) + " itself, from finite operands"
        + (finite.empty() ? std::string() : " (" + finite + ")");
}

const ValueNumbering &DebugEngine::numbering(size_t segment)
{
    if (!m_numberings[segment])
        m_numberings[segment] = std::make_unique<ValueNumbering>(*m_interpreter->segments()[segment].program);
    return *m_numberings[segment];
}

const RuntimeValue *DebugEngine::resolve(const std::string &name, bool &freed, Value &value)
{
    freed = false;
    value = Value();
    const size_t segments = m_interpreter->segments().size();
    if (!name.empty() && name.front() == '%') {
        const size_t current = std::min(m_interpreter->currentSegment(), segments - 1);
        for (size_t k = 0; k < segments; ++k) {
            const size_t segment = (current + k) % segments;
            value = numbering(segment).lookup(name);
            if (value)
                return m_interpreter->valueOf(value);
        }
        return nullptr;
    }
    if (!m_namesIndexed) {
        m_namesIndexed = true;
        for (const Interpreter::Segment &segment : m_interpreter->segments()) {
            segment.program->block().walk([this](Operation *op) {
                for (unsigned i = 0; i < op->numResults(); ++i)
                    for (const std::string &n : ValueNames::allNameStrings(op->result(i)))
                        m_valuesByName.emplace(n, op->result(i));
            });
        }
    }
    if (auto it = m_valuesByName.find(name); it != m_valuesByName.end())
        value = it->second;
    Scope &scope = m_interpreter->scope();
    if (scope.isFreed(name)) {
        freed = true;
        return scope.find(name);
    }
    if (const RuntimeValue *v = scope.find(name))
        return v;
    return value ? m_interpreter->valueOf(value) : nullptr;
}

std::vector<DebugEngine::WatchValue> DebugEngine::watch(const std::vector<std::string> &names)
{
    std::vector<WatchValue> out;
    for (const std::string &name : names) {
        WatchValue w;
        w.name = name;
        if (m_interpreter) {
            bool freed = false;
            const RuntimeValue *held = resolve(name, freed, w.value);
            const Tensor *t = firstTensor(held);
            if (t) {
                w.shape = t->shape();
                w.dtype = t->dtype();
                if (!freed) {
                    try {
                        w.stats = m_interpreter->backend().stats(*t, 0);
                    } catch (const std::exception &) {
                        w.stats = TensorStats {};
                    }
                }
            }
            w.state = freed       ? WatchValue::State::Freed
                : t               ? WatchValue::State::Live
                : held || w.value ? WatchValue::State::Missing
                                  : WatchValue::State::Unknown;
        }
        out.push_back(std::move(w));
    }
    return out;
}

} // namespace ps
