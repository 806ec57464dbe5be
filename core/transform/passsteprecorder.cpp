#include "core/transform/passsteprecorder.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

namespace ps {

namespace {

/// Whether the live op `op` still equals `copy` (its copy from before the pass): same
/// attributes, result types and operands (through `values`, live → copy).
bool sameAsCopy(const Operation &op, const Operation &copy, const IrMapping &values)
{
    if (op.numOperands() != copy.numOperands() || op.numResults() != copy.numResults())
        return false;
    for (unsigned i = 0; i < op.numOperands(); ++i)
        if (values.lookup(op.operand(i)) != copy.operand(i))
            return false;
    for (unsigned i = 0; i < op.numResults(); ++i)
        if (op.result(i).type() != copy.result(i).type())
            return false;
    const auto a = op.attributes();
    const auto b = copy.attributes();
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

} // namespace

void PassStepRecorder::copy(const Program &program)
{
    m_values = IrMapping();
    m_current = program.clone(&m_values);
    m_ops.clear();
    // A clone keeps the structure, so the two pre-order walks pair each op with its copy.
    const std::vector<const Operation *> live = program.allOps();
    const std::vector<const Operation *> copies = m_current->allOps();
    for (size_t i = 0; i < live.size() && i < copies.size(); ++i)
        m_ops.emplace(live[i], copies[i]);
}

void PassStepRecorder::runBeforePipeline(const Program &program, std::string_view)
{
    copy(program);
}

void PassStepRecorder::runAfterPass(const Pass &, const Program &program, const PassRecord &record)
{
    PassStep step;
    step.record = record;
    step.before = m_current;
    if (!record.changed()) {
        step.after = m_current;
        m_steps.push_back(std::move(step));
        return;
    }
    const std::vector<const Operation *> live = program.allOps();
    for (size_t i = 0; i < live.size(); ++i) {
        auto it = m_ops.find(live[i]);
        if (it != m_ops.end() && !sameAsCopy(*live[i], *it->second, m_values))
            step.modifiedOps.push_back({ i, live[i]->name() });
    }
    copy(program);
    step.after = m_current;
    m_steps.push_back(std::move(step));
}

void PassStepRecorder::runAfterPipeline(const Program &, std::string_view)
{
    m_current.reset();
    m_values = IrMapping();
    m_ops.clear();
}

std::vector<PassStep> PassStepRecorder::takeSteps()
{
    std::vector<PassStep> out = std::move(m_steps);
    m_steps.clear();
    return out;
}

} // namespace ps
