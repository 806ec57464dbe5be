#pragma once

#include "core/runtime/interpreterobserver.h"

#include <cstdint>
#include <unordered_map>

namespace ps {

class Interpreter;
class ValueImpl;

/// Sizes of a run's values: records the bytes of every result as the interpreter computes it
/// (a list: the sum of its tensors; inside a loop body the last iteration's). What the memory
/// model uses for values whose declared type has a dynamic dim. Reads shapes only, no data.
class ValueBytesRecorder : public InterpreterObserver
{
public:
    explicit ValueBytesRecorder(Interpreter &interpreter);

    void opExecuted(const OpRecord &record) override;

    const std::unordered_map<const ValueImpl *, int64_t> &bytes() const { return m_bytes; }

private:
    Interpreter &m_interpreter;
    std::unordered_map<const ValueImpl *, int64_t> m_bytes;
};

} // namespace ps
