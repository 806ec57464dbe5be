#include "core/transform/passmanager.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/commonsubexpressionelimination.h"
#include "core/transform/deadcodeelimination.h"

#include <chrono>
#include <unordered_set>

namespace ps {

namespace {

std::vector<Operation *> allOps(const Program &program)
{
    std::vector<Operation *> ops;
    program.block().walk([&ops](Operation *op) { ops.push_back(op); });
    return ops;
}

} // namespace

PassManager::PassManager() = default;
PassManager::PassManager(PassManager &&) noexcept = default;
PassManager &PassManager::operator=(PassManager &&) noexcept = default;
PassManager::~PassManager() = default;

PassManager PassManager::withDefaultPasses()
{
    PassManager pm;
    pm.addPass(std::make_unique<DeadCodeElimination>(), false);
    pm.addPass(std::make_unique<CommonSubexpressionElimination>(), true);
    return pm;
}

void PassManager::addPass(std::unique_ptr<Pass> pass, bool enabled)
{
    m_entries.push_back({ std::move(pass), enabled });
}

void PassManager::addInstrumentation(std::shared_ptr<PassInstrumentation> instrumentation)
{
    m_instrumentations.push_back(std::move(instrumentation));
}

bool PassManager::removeInstrumentation(const PassInstrumentation *instrumentation)
{
    for (auto it = m_instrumentations.begin(); it != m_instrumentations.end(); ++it) {
        if (it->get() == instrumentation) {
            m_instrumentations.erase(it);
            return true;
        }
    }
    return false;
}

const PassManager::Entry *PassManager::find(std::string_view name) const
{
    for (const Entry &e : m_entries)
        if (e.pass->name() == name || e.pass->alias() == name)
            return &e;
    return nullptr;
}

bool PassManager::setEnabled(std::string_view name, bool enabled)
{
    bool found = false;
    for (Entry &e : m_entries) {
        if (e.pass->name() == name || e.pass->alias() == name) {
            e.enabled = enabled;
            found = true;
        }
    }
    return found;
}

bool PassManager::isEnabled(std::string_view name) const
{
    const Entry *e = find(name);
    return e && e->enabled;
}

Pass *PassManager::pass(std::string_view name) const
{
    const Entry *e = find(name);
    return e ? e->pass.get() : nullptr;
}

std::vector<const Pass *> PassManager::passes() const
{
    std::vector<const Pass *> out;
    for (const Entry &e : m_entries)
        out.push_back(e.pass.get());
    return out;
}

PassRecord PassManager::runOne(Pass &pass, Program &program, const std::string &target)
{
    for (const auto &i : m_instrumentations)
        i->runBeforePass(pass, program, target);
    PassRecord record;
    record.pass = std::string(pass.name());
    record.target = target;
    record.implemented = pass.implemented();

    const std::vector<Operation *> before = allOps(program);
    record.opsBefore = before.size();
    if (record.implemented) {
        const auto start = std::chrono::steady_clock::now();
        record.rewrites = pass.run(program);
        record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        record.notes = pass.takeNotes();
    }
    // Identity comparison is safe: the arena never reuses the memory of an erased op.
    const std::vector<Operation *> after = allOps(program);
    record.opsAfter = after.size();
    const std::unordered_set<const Operation *> beforeSet(before.begin(), before.end());
    const std::unordered_set<const Operation *> afterSet(after.begin(), after.end());
    for (size_t i = 0; i < before.size(); ++i)
        if (!afterSet.count(before[i]))
            record.removedOps.push_back({ i, before[i]->name() });
    for (size_t i = 0; i < after.size(); ++i)
        if (!beforeSet.count(after[i]))
            record.addedOps.push_back({ i, after[i]->name() });

    for (const auto &i : m_instrumentations)
        i->runAfterPass(pass, program, record);
    return record;
}

std::vector<PassRecord> PassManager::run(Program &program, const std::string &target)
{
    for (const auto &i : m_instrumentations)
        i->runBeforePipeline(program, target);
    std::vector<PassRecord> records;
    for (Entry &entry : m_entries) {
        if (!entry.enabled)
            continue;
        records.push_back(runOne(*entry.pass, program, target));
        m_log.push_back(records.back());
    }
    for (const auto &i : m_instrumentations)
        i->runAfterPipeline(program, target);
    return records;
}

PassRecord PassManager::runAt(size_t index, Program &program, const std::string &target)
{
    PassRecord record = runOne(*m_entries[index].pass, program, target);
    m_log.push_back(record);
    return record;
}

} // namespace ps
