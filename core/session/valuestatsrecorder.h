#pragma once

#include "core/runtime/interpreterobserver.h"
#include "core/runtime/tensorstats.h"

#include <unordered_map>
#include <unordered_set>

namespace ps {

class Backend;
class Interpreter;
class ValueImpl;

/// Records the statistics (TensorStats without histogram) of op results as the interpreter
/// computes them, before a later inplace op can overwrite the buffer; inside a loop body the last
/// iteration's. Only the values in `wanted` (all when empty). Costs one host pass per recorded
/// tensor (and a device-to-host copy off the CPU).
class ValueStatsRecorder : public InterpreterObserver
{
public:
    ValueStatsRecorder(
        Interpreter &interpreter, Backend &backend, std::unordered_set<const ValueImpl *> wanted = {});

    void opExecuted(const OpRecord &record) override;

    const std::unordered_map<const ValueImpl *, TensorStats> &stats() const { return m_stats; }

private:
    Interpreter &m_interpreter;
    Backend &m_backend;
    std::unordered_set<const ValueImpl *> m_wanted;
    std::unordered_map<const ValueImpl *, TensorStats> m_stats;
};

} // namespace ps
