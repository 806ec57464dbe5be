#include "core/session/valuestatsrecorder.h"

#include "core/ir/operation.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/interpreter.h"

namespace ps {

ValueStatsRecorder::ValueStatsRecorder(
    Interpreter &interpreter, Backend &backend, std::unordered_set<const ValueImpl *> wanted)
    : m_interpreter(interpreter)
    , m_backend(backend)
    , m_wanted(std::move(wanted))
{
}

void ValueStatsRecorder::opExecuted(const OpRecord &record)
{
    if (!record.op)
        return;
    for (unsigned i = 0; i < record.op->numResults(); ++i) {
        const Value r = record.op->result(i);
        if (!m_wanted.empty() && !m_wanted.count(r.impl()))
            continue;
        const RuntimeValue *v = m_interpreter.valueOf(r);
        if (!v || !v->isTensor() || !v->tensor().defined())
            continue;
        m_stats[r.impl()] = computeStatsHost(deepHostCopy(m_backend, v->tensor()), 0);
    }
}

} // namespace ps
