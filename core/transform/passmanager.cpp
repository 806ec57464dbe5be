#include "core/transform/passmanager.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/transform/commonsubexpressionelimination.h"
#include "core/transform/deadcodeelimination.h"

#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

std::vector<Operation *> allOps(const Program &program)
{
    std::vector<Operation *> ops;
    program.block().walk([&ops](Operation *op) { ops.push_back(op); });
    return ops;
}

/// The first line of an op's text (regions are summarised by their opening line).
std::string opLine(const Operation &op, const ValueNumbering &numbering)
{
    std::string text = PirPrinter::opText(op, numbering);
    const size_t newline = text.find('\n');
    if (newline != std::string::npos)
        text.resize(newline);
    return text;
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

const PassManager::Entry *PassManager::find(std::string_view name) const
{
    for (const Entry &e : m_entries)
        if (e.pass->name() == name || e.pass->alias() == name)
            return &e;
    return nullptr;
}

bool PassManager::setEnabled(std::string_view name, bool enabled)
{
    for (Entry &e : m_entries) {
        if (e.pass->name() == name || e.pass->alias() == name) {
            e.enabled = enabled;
            return true;
        }
    }
    return false;
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

std::vector<PassRecord> PassManager::run(Program &program, const std::string &target)
{
    std::vector<PassRecord> records;
    for (Entry &entry : m_entries) {
        if (!entry.enabled)
            continue;
        PassRecord record;
        record.pass = std::string(entry.pass->name());
        record.target = target;

        const std::vector<Operation *> before = allOps(program);
        record.opsBefore = before.size();
        // Op texts are taken before the pass: erased ops cannot be printed afterwards.
        std::unordered_map<const Operation *, std::string> beforeText;
        if (m_recordText) {
            record.textBefore = PirPrinter::toString(program);
            const ValueNumbering numbering(program);
            for (const Operation *op : before)
                beforeText.emplace(op, opLine(*op, numbering));
        }

        record.rewrites = entry.pass->run(program);

        // Identity comparison is safe: the arena never reuses the memory of an erased op.
        const std::vector<Operation *> after = allOps(program);
        record.opsAfter = after.size();
        const std::unordered_set<const Operation *> beforeSet(before.begin(), before.end());
        const std::unordered_set<const Operation *> afterSet(after.begin(), after.end());
        for (const Operation *op : before) {
            if (afterSet.count(op))
                continue;
            ++record.removed;
            if (m_recordText)
                record.removedOps.push_back(beforeText[op]);
        }
        std::unique_ptr<ValueNumbering> afterNumbering;
        if (m_recordText) {
            record.textAfter = PirPrinter::toString(program);
            afterNumbering = std::make_unique<ValueNumbering>(program);
        }
        for (const Operation *op : after) {
            if (beforeSet.count(op))
                continue;
            ++record.added;
            if (m_recordText)
                record.addedOps.push_back(opLine(*op, *afterNumbering));
        }
        records.push_back(record);
        m_log.push_back(std::move(record));
    }
    return records;
}

} // namespace ps
