#include "core/session/valuebytesrecorder.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/runtime/interpreter.h"

namespace ps {

ValueBytesRecorder::ValueBytesRecorder(Interpreter &interpreter)
    : m_interpreter(interpreter)
{
}

void ValueBytesRecorder::opExecuted(const OpRecord &record)
{
    if (!record.op)
        return;
    auto record1 = [this](Value v) {
        const RuntimeValue *value = m_interpreter.valueOf(v);
        if (!value)
            return;
        if (value->isTensor() && value->tensor().defined())
            m_bytes[v.impl()] = int64_t(value->tensor().byteSize());
        else if (value->isList()) {
            int64_t sum = 0;
            for (const Tensor &t : value->list())
                sum += t.defined() ? int64_t(t.byteSize()) : 0;
            m_bytes[v.impl()] = sum;
        }
    };
    for (unsigned i = 0; i < record.op->numResults(); ++i)
        record1(record.op->result(i));
    // A segment's keyword arguments (the output gradients) are read when its first op runs.
    if (const Block *block = record.op->parentBlock();
        block && !block->parentOp() && block->numKwargs() > 0 && block->ops().front() == record.op)
        for (const Value kwarg : block->kwargs())
            record1(kwarg);
}

} // namespace ps
