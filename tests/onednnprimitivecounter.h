#pragma once

// Shared by the oneDNN layout tests: the primitives each op ran and the values a debugger reads.

#include "core/ir/operation.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/interpreterobserver.h"
#include "onednnkernelcase.h"

#include <map>
#include <string>

namespace onednncase {

/// The oneDNN primitives each op ran, by op name (summed), and, when `read` is set, every
/// result as the debugger's value table reads it (valueOf(): plain values) by result.
class PrimitiveCounter : public InterpreterObserver
{
public:
    PrimitiveCounter(Interpreter &in, bool read)
        : m_in(in)
        , m_read(read)
        , m_last(oneDnnExecutions())
    {
    }
    void opExecuted(const OpRecord &record) override
    {
        primitives[std::string(record.op->name())] += oneDnnExecutions() - m_last;
        if (m_read)
            for (unsigned i = 0; i < record.op->numResults(); ++i)
                if (const RuntimeValue *v = m_in.valueOf(record.op->result(i)); v && v->isTensor())
                    seen[record.op->result(i).impl()] = v->tensor();
        m_last = oneDnnExecutions(); // valueOf's conversion runs a reorder: not the op's
    }
    std::map<std::string, uint64_t> primitives;
    std::map<const ValueImpl *, Tensor> seen;

private:
    Interpreter &m_in;
    bool m_read;
    uint64_t m_last;
};

/// Runs `program` straight through on `backend` in a scope `fill` sets, counting each op's
/// primitives (and reading every result when `read`) into `primitives` / `seen` when given; the
/// value "out", undefined when the run did not finish.
inline Tensor countedRun(Backend &backend, std::shared_ptr<const Program> program, void (*fill)(Scope &),
    bool read, const Interpreter::Options &options, std::map<std::string, uint64_t> *primitives,
    std::map<const ValueImpl *, Tensor> *seen)
{
    if (!program)
        return {};
    Scope scope;
    fill(scope);
    Interpreter in({ { "program", program, {}, {} } }, backend, scope, options);
    PrimitiveCounter counter(in, read);
    in.addObserver(&counter);
    const StopInfo stop = in.continueRun();
    in.removeObserver(&counter);
    if (stop.reason != StopReason::Finished)
        return {};
    if (primitives)
        *primitives = counter.primitives;
    if (seen)
        *seen = counter.seen;
    const RuntimeValue *out = scope.find("out");
    return out && out->isTensor() ? out->tensor() : Tensor();
}

} // namespace onednncase
